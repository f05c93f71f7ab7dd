#include "core/diagnosis/checks/NoRelayCheck.h"

#include "core/db/Database.h"
#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/Runbook.h"

#include <QJsonArray>
#include <QSqlQuery>

namespace outbox {

Result<QVector<Finding>> NoRelayCheck::run(DiagnosisContext& context)
{
    const Runbook& rb = Runbook::of(id());
    auto pending = context.pendingCount();
    if (!pending)
        return pending.error();
    if (*pending == 0)
        return QVector<Finding>{};
    auto live = context.liveRelays();
    if (!live)
        return live.error();
    if (!live->isEmpty())
        return QVector<Finding>{};
    auto all = context.relays();
    if (!all)
        return all.error();

    Database& db = context.db();
    const Dialect& d = db.dialect();
    Finding f;
    f.id = id();
    f.key = id();
    f.severity = Severity::Critical;
    f.title = tr("%1 event(s) pending and no relay is running").arg(*pending);
    f.evidence.count = *pending;
    f.evidence.unit = QStringLiteral("events");
    f.evidence.sampleKind = QStringLiteral("event");
    auto oldest =
        db.exec(QStringLiteral("SELECT id, created_at FROM {events} WHERE status = 'PENDING' ORDER BY id "
                               "LIMIT :limit"),
                {{QStringLiteral(":limit"), Finding::MaxSamples}});
    if (!oldest)
        return oldest.error();
    while (oldest->next()) {
        f.evidence.sampleIds << oldest->value(0).toLongLong();
        if (!f.evidence.oldest.isValid())
            f.evidence.oldest = d.toDateTime(oldest->value(1));
    }
    auto newest = db.exec(
        QStringLiteral("SELECT created_at FROM {events} WHERE status = 'PENDING' ORDER BY id DESC LIMIT 1"));
    if (!newest)
        return newest.error();
    if (newest->next())
        f.evidence.newest = d.toDateTime(newest->value(0));

    QJsonArray relays;
    const RelayRecord* latest = nullptr;
    for (const RelayRecord& r : *all) {
        relays.append(QJsonObject{{QStringLiteral("worker_id"), r.workerId},
                                  {QStringLiteral("host"), r.host},
                                  {QStringLiteral("state"), r.state},
                                  {QStringLiteral("heartbeat_age_ms"), r.heartbeatAgeMs}});
        if (!latest || r.heartbeatAgeMs < latest->heartbeatAgeMs)
            latest = &r;
    }
    f.evidence.details.insert(QStringLiteral("registered_relays"), relays);
    f.evidence.details.insert(QStringLiteral("stale_after_ms"), context.options().relayStaleAfterMs());

    if (!latest)
        f.causes << rb.cause("none-registered");
    else
        f.causes
            << rb.cause("stopped").arg(latest->heartbeatAgeMs / 1000).arg(latest->workerId, latest->host);
    f.causes << rb.cause("database") << rb.cause("other-database");
    f.runbook << rb.step("service") << rb.step("start") << rb.step("same-target") << rb.step("again");
    auto start = startRelayAction(context);
    if (!start)
        return start.error();
    f.actions << *start;
    return QVector<Finding>{f};
}

// Its page of docs/runbooks/ and the lines its findings take (core/diagnosis/Runbook.h).
Runbook NoRelayCheck::runbook() const
{
    Runbook r = Runbook::page(
        "no-relay", "Events are pending and no relay is running", "critical",
        "PENDING events wait and no relay has sent a heartbeat within `[doctor] relay_stale_heartbeats` "
        "heartbeat intervals. Nothing is delivered to Kafka until a relay runs again.");
    r.causes = {
        {"none-registered",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "No relay is registered with this database and table prefix: none was started, the relays "
             "stopped (a relay deregisters when it stops cleanly), or they use another database or table "
             "prefix."),
         "no relay is registered"},
        {"stopped",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The relays stopped or crashed: the last heartbeat came %1 s ago from %2 on %3."),
         "relays are registered", "SECONDS, WORKER, HOST"},
        {"database",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The relays cannot reach the database (network, credentials, a failover), so they cannot claim "
             "events or send heartbeats.")},
        {"other-database",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The relays run against another database or another table prefix than the "
                           "application.")},
    };
    r.steps = {
        {"service",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Check the relay service on its hosts (e.g. systemctl status 'outbox-relay@*' and its "
             "journal).")},
        {"start",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Start a relay against this database (prepared below, with the broker its relays publish to) "
             "or restart the service.")},
        {"same-target",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Make sure the relays use the same database URL and table prefix as the "
                           "application.")},
        {"again",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Run outboxctl doctor again: this finding disappears once a relay sends heartbeats, and "
             "backlog-age shows whether the backlog drains.")},
    };
    return r;
}

} // namespace outbox
