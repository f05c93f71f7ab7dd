#include "core/diagnosis/checks/ExpiredLeasesCheck.h"

#include "core/db/Database.h"
#include "core/db/EventStatus.h"
#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/Runbook.h"

#include <QJsonArray>
#include <QSqlQuery>

namespace outbox {

Result<QVector<Finding>> ExpiredLeasesCheck::run(DiagnosisContext& context)
{
    const Runbook& rb = Runbook::of(id());
    Database& db = context.db();
    const Dialect& d = db.dialect();
    const qint64 grace = context.options().expiredLeaseGraceMs;
    // Over the SENDING partial index on lease_until: a range, never the whole table.
    const QString expired = QStringLiteral("status = 'SENDING' AND lease_until < %1")
                                .arg(d.nowPlusMillis(QStringLiteral(":grace")));
    const QVariantMap binds{{QStringLiteral(":grace"), -grace}};
    auto summary =
        db.exec(QStringLiteral("SELECT COUNT(*), MIN(lease_until), MAX(lease_until) FROM {events} WHERE %1")
                    .arg(expired),
                binds);
    if (!summary)
        return summary.error();
    if (!summary->next() || summary->value(0).toLongLong() == 0)
        return QVector<Finding>{};
    Finding f;
    f.id = id();
    f.key = id();
    f.severity = Severity::Warning;
    f.evidence.count = summary->value(0).toLongLong();
    f.evidence.unit = QStringLiteral("events");
    f.evidence.oldest = d.toDateTime(summary->value(1));
    f.evidence.newest = d.toDateTime(summary->value(2));
    f.evidence.sampleKind = QStringLiteral("event");
    QVariantMap sampleBinds = binds;
    sampleBinds.insert(QStringLiteral(":limit"), Finding::MaxSamples);
    auto samples = db.exec(
        QStringLiteral("SELECT id FROM {events} WHERE %1 ORDER BY lease_until LIMIT :limit").arg(expired),
        sampleBinds);
    if (!samples)
        return samples.error();
    while (samples->next())
        f.evidence.sampleIds << samples->value(0).toLongLong();
    auto holders = db.exec(
        QStringLiteral(
            "SELECT worker_id, COUNT(*) FROM {events} WHERE %1 GROUP BY worker_id ORDER BY COUNT(*) DESC")
            .arg(expired),
        binds);
    if (!holders)
        return holders.error();
    QJsonArray holderList;
    while (holders->next() && holderList.size() < Finding::MaxSamples)
        holderList.append(QJsonObject{{QStringLiteral("worker_id"), holders->value(0).toString()},
                                      {QStringLiteral("events"), holders->value(1).toLongLong()}});
    f.evidence.details.insert(QStringLiteral("holders"), holderList);
    f.evidence.details.insert(QStringLiteral("grace_ms"), grace);

    auto live = context.liveRelays();
    if (!live)
        return live.error();
    f.title = tr("%1 SENDING event(s) hold a lease that expired over %2 ago")
                  .arg(f.evidence.count)
                  .arg(DiagnosisContext::duration(context.ageMs(f.evidence.oldest)));
    if (live->isEmpty())
        f.causes << rb.cause("no-relay");
    else
        f.causes << rb.cause("reaper-fails");
    f.causes << rb.cause("holder-died");
    f.runbook << rb.step("run-relay") << rb.step("requeue") << rb.step("duplicates");
    PreparedAction requeue;
    requeue.operation = PreparedAction::Operation::RequeueEvents;
    requeue.label = tr("Requeue the SENDING events with an expired lease");
    requeue.consequence = tr("They go back to PENDING (attempts reset) and a relay sends them again.");
    EventFilter filter;
    filter.statuses = QStringList{EventStatus::Sending};
    requeue.eventFilter = filter;
    requeue.typedConfirmation = f.evidence.count > 1;
    context.prepareCommand(requeue, CommandLine(QStringLiteral("outboxctl"), {QStringLiteral("requeue")})
                                        .option(QStringLiteral("status"), EventStatus::Sending));
    f.actions << requeue;
    return QVector<Finding>{f};
}

// Its page of docs/runbooks/ and the lines its findings take (core/diagnosis/Runbook.h).
Runbook ExpiredLeasesCheck::runbook() const
{
    Runbook r = Runbook::page(
        "expired-leases", "SENDING events hold expired leases nobody reaps", "warning",
        "SENDING events are past `lease_until` for longer than `[doctor] expired_lease_grace`: no running "
        "relay reaps them back to PENDING.");
    r.causes = {
        {"no-relay",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "No relay is running, and expired leases are returned to PENDING only by a running relay's "
             "reaper (see no-relay)."),
         "no relay runs"},
        {"reaper-fails",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The running relays' lease reaper fails (read their logs for \"reap\" errors, e.g. a lock "
             "timeout or missing privileges)."),
         "relays run"},
        {"holder-died",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The relay holding them died while sending: its lease ran out and no relay took "
                           "the events back yet.")},
    };
    r.steps = {
        {"run-relay",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Make sure at least one relay runs: every relay reaps expired leases every half "
                           "lease.")},
        {"requeue",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Or requeue the SENDING events with an expired lease now (prepared below); events whose "
             "lease is still live are left alone, so a working relay keeps what it holds.")},
        {"duplicates",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Events that the dead relay may have delivered already are sent again with the same "
             "event_id: consumers with an inbox ignore the duplicate.")},
    };
    return r;
}

} // namespace outbox
