#include "core/diagnosis/checks/BacklogAgeCheck.h"

#include "core/db/Database.h"
#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/Runbook.h"

#include <QJsonArray>
#include <QSqlQuery>

namespace outbox {

Result<QVector<Finding>> BacklogAgeCheck::run(DiagnosisContext& context)
{
    const Runbook& rb = Runbook::of(id());
    Database& db = context.db();
    const Dialect& d = db.dialect();
    const DiagnosisOptions& o = context.options();
    auto oldest =
        db.exec(QStringLiteral("SELECT id, created_at FROM {events} WHERE status = 'PENDING' ORDER BY id "
                               "LIMIT :limit"),
                {{QStringLiteral(":limit"), Finding::MaxSamples}});
    if (!oldest)
        return oldest.error();
    Finding f;
    while (oldest->next()) {
        f.evidence.sampleIds << oldest->value(0).toLongLong();
        if (!f.evidence.oldest.isValid())
            f.evidence.oldest = d.toDateTime(oldest->value(1));
    }
    const qint64 age = context.ageMs(f.evidence.oldest);
    if (f.evidence.sampleIds.isEmpty() || age < o.backlogAgeWarningMs)
        return QVector<Finding>{};

    auto pending = context.pendingCount();
    if (!pending)
        return pending.error();
    auto newest = db.exec(
        QStringLiteral("SELECT created_at FROM {events} WHERE status = 'PENDING' ORDER BY id DESC LIMIT 1"));
    if (!newest)
        return newest.error();
    if (newest->next())
        f.evidence.newest = d.toDateTime(newest->value(0));
    // Of the oldest events, how many wait for their backoff (available_at in the future).
    constexpr int Window = 1000;
    auto backingOff =
        db.scalar(QStringLiteral("SELECT COUNT(*) FROM (SELECT available_at FROM {events} WHERE "
                                 "status = 'PENDING' ORDER BY id LIMIT %1) oldest WHERE "
                                 "oldest.available_at > %2")
                      .arg(Window)
                      .arg(d.now()));
    if (!backingOff)
        return backingOff.error();
    auto live = context.liveRelays();
    if (!live)
        return live.error();
    QStringList paused;
    QStringList degraded;
    for (const RelayRecord& r : *live) {
        if (r.desiredState == QLatin1String("PAUSE") || r.state == QLatin1String("PAUSED"))
            paused << r.workerId;
        else if (r.state == QLatin1String("DEGRADED"))
            degraded << r.workerId;
    }
    const int working = int(live->size() - paused.size() - degraded.size());

    f.id = id();
    f.key = id();
    f.severity = age >= o.backlogAgeCriticalMs ? Severity::Critical : Severity::Warning;
    f.title = tr("The oldest PENDING event has waited %1 (threshold %2)")
                  .arg(DiagnosisContext::duration(age), DiagnosisContext::duration(o.backlogAgeWarningMs));
    f.evidence.count = *pending;
    f.evidence.unit = QStringLiteral("events");
    f.evidence.sampleKind = QStringLiteral("event");
    f.evidence.details.insert(QStringLiteral("age_ms"), age);
    f.evidence.details.insert(QStringLiteral("warning_after_ms"), o.backlogAgeWarningMs);
    f.evidence.details.insert(QStringLiteral("critical_after_ms"), o.backlogAgeCriticalMs);
    f.evidence.details.insert(QStringLiteral("backing_off_of_oldest_1000"), backingOff->toLongLong());
    f.evidence.details.insert(QStringLiteral("live_relays"), int(live->size()));
    f.evidence.details.insert(QStringLiteral("paused_relays"), QJsonArray::fromStringList(paused));
    f.evidence.details.insert(QStringLiteral("degraded_relays"), QJsonArray::fromStringList(degraded));

    if (live->isEmpty())
        f.causes << rb.cause("no-relay");
    if (!paused.isEmpty())
        f.causes << rb.cause("paused").arg(paused.size()).arg(paused.join(QStringLiteral(", ")));
    if (!degraded.isEmpty())
        f.causes << rb.cause("degraded").arg(degraded.size());
    if (backingOff->toLongLong() > 0)
        f.causes << rb.cause("backing-off").arg(backingOff->toLongLong()).arg(Window);
    if (working > 0)
        f.causes << rb.cause("too-slow");
    auto failed = db.scalar(QStringLiteral("SELECT COUNT(*) FROM {events} WHERE status = 'FAILED'"));
    if (!failed)
        return failed.error();
    if (failed->toLongLong() > 0)
        f.causes << rb.cause("blocked");
    if (live->isEmpty())
        f.runbook << rb.step("start");
    if (!paused.isEmpty())
        f.runbook << rb.step("resume");
    f.runbook << rb.step("logs");
    // More relays help only relays that work: a DEGRADED one waits for its broker, as another would.
    if (working > 0)
        f.runbook << rb.step("scale");
    f.runbook << rb.step("again");
    if (!paused.isEmpty()) {
        PreparedAction resume;
        resume.operation = PreparedAction::Operation::ResumeRelays;
        resume.label = tr("Resume the %1 paused relay(s)").arg(paused.size());
        resume.consequence = tr("The relays claim and send again within one heartbeat.");
        resume.workerIds = paused;
        context.prepareCommand(resume, CommandLine(QStringLiteral("outboxctl"),
                                                   {QStringLiteral("relays"), QStringLiteral("resume")})
                                           .positionals(paused));
        f.actions << resume;
    }
    if (live->isEmpty()) {
        auto start = startRelayAction(context);
        if (!start)
            return start.error();
        f.actions << *start;
    }
    return QVector<Finding>{f};
}

// Its page of docs/runbooks/ and the lines its findings take (core/diagnosis/Runbook.h).
Runbook BacklogAgeCheck::runbook() const
{
    Runbook r = Runbook::page(
        "backlog-age", "The oldest PENDING event is older than the threshold",
        "warning, critical after `[doctor] backlog_age_critical`",
        "The oldest PENDING event waited longer than `[doctor] backlog_age` (default 5 min; critical after "
        "`backlog_age_critical`, default 30 min): relays are missing, paused, degraded or too slow.");
    r.causes = {
        {"no-relay", QT_TRANSLATE_NOOP("outbox::Runbook", "No relay is running (see no-relay)."),
         "no relay runs"},
        {"paused", QT_TRANSLATE_NOOP("outbox::Runbook", "%1 relay(s) are paused by an operator: %2."),
         "relays are paused", "N, WORKERS"},
        {"degraded",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "%1 relay(s) are DEGRADED and claim nothing (see relay-degraded)."),
         "relays are DEGRADED", "N"},
        {"backing-off",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "%1 of the oldest %2 PENDING events wait for a retry after transient errors (their available_at "
             "is in the future)."),
         "some of the oldest events back off", "N, WINDOW"},
        {"too-slow",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The running relays do not keep up with the rate of new events (too few workers, slow broker "
             "acknowledgements, a slow database)."),
         "relays are working"},
        {"blocked",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "In ordering mode, events wait behind a FAILED event of their aggregate (see "
                           "blocked-aggregates)."),
         "FAILED events exist"},
    };
    r.steps = {
        {"start",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Start a relay against this database (prepared below), or restart the relay service."),
         "no relay runs"},
        {"resume",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "If the pause is over, resume the paused relays (prepared below)."),
         "relays are paused"},
        {"logs",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Read the relays' logs for errors, and outboxctl status for their throughput.")},
        {"scale",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "If the relays are busy but too slow, add workers (outboxctl relay --workers N) or more "
             "relay processes; they share the table safely.")},
        {"again",
         QT_TRANSLATE_NOOP("outbox::Runbook", "Run outboxctl doctor again and watch the oldest age fall.")},
    };
    return r;
}

} // namespace outbox
