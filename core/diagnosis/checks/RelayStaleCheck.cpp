#include "core/diagnosis/checks/RelayStaleCheck.h"

#include "core/db/Database.h"
#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/Runbook.h"

#include <QHash>
#include <QJsonArray>
#include <QSqlQuery>

namespace outbox {

Result<QVector<Finding>> RelayStaleCheck::run(DiagnosisContext& context)
{
    const Runbook& rb = Runbook::of(id());
    auto all = context.relays();
    if (!all)
        return all.error();
    const qint64 staleAfter = context.options().relayStaleAfterMs();
    Finding f;
    f.id = id();
    f.key = id();
    f.severity = Severity::Warning;
    f.evidence.unit = QStringLiteral("relays");
    f.evidence.sampleKind = QStringLiteral("relay");
    // The leases a stale relay still holds are its SENDING rows, counted now: the registry row's
    // leases_held is what it said at its last heartbeat, since marked or reaped in part.
    auto holders = context.db().exec(QStringLiteral(
        "SELECT worker_id, COUNT(*) FROM {events} WHERE status = 'SENDING' AND lease_until IS NOT NULL "
        "GROUP BY worker_id"));
    if (!holders)
        return holders.error();
    QHash<QString, qint64> held;
    while (holders->next())
        held.insert(holders->value(0).toString(), holders->value(1).toLongLong());
    QJsonArray relays;
    qint64 leases = 0;
    for (const RelayRecord& r : *all) {
        if (r.heartbeatAgeMs <= staleAfter)
            continue;
        f.evidence.addRelay(r.workerId, r.heartbeatAt, r.heartbeatAt);
        const qint64 holds = held.value(r.workerId);
        leases += holds;
        relays.append(QJsonObject{{QStringLiteral("worker_id"), r.workerId},
                                  {QStringLiteral("host"), r.host},
                                  {QStringLiteral("pid"), r.pid},
                                  {QStringLiteral("state"), r.state},
                                  {QStringLiteral("heartbeat_age_ms"), r.heartbeatAgeMs},
                                  {QStringLiteral("leases_held"), holds},
                                  {QStringLiteral("leases_held_at_last_heartbeat"), r.leasesHeld}});
    }
    if (f.evidence.count == 0)
        return QVector<Finding>{};
    f.evidence.details.insert(QStringLiteral("relays"), relays);
    f.evidence.details.insert(QStringLiteral("stale_after_ms"), staleAfter);
    f.title = f.evidence.count == 1 ? tr("Relay %1 has not sent a heartbeat for %2")
                                          .arg(f.evidence.sampleNames.first(),
                                               DiagnosisContext::duration(context.ageMs(f.evidence.newest)))
                                    : tr("%1 relays have not sent a heartbeat for over %2")
                                          .arg(f.evidence.count)
                                          .arg(DiagnosisContext::duration(context.ageMs(f.evidence.newest)));
    f.causes << rb.cause("died") << rb.cause("database") << rb.cause("hangs");
    f.runbook << rb.step("look") << rb.step("restart");
    if (leases > 0)
        f.runbook << rb.step("leases").arg(leases);
    f.runbook << rb.step("forget");
    PreparedAction forget;
    forget.operation = PreparedAction::Operation::ForgetRelays;
    forget.label = tr("Forget the stale relay registration(s)");
    forget.consequence =
        tr("The registry rows of relays whose heartbeat is stale are deleted (audited); a relay "
           "that comes back registers again.");
    forget.workerIds = f.evidence.sampleNames;
    const qint64 staleSeconds = std::max<qint64>(1, staleAfter / 1000);
    context.prepareCommand(
        forget, CommandLine(QStringLiteral("outboxctl"), {QStringLiteral("relays"), QStringLiteral("forget")})
                    .option(QStringLiteral("stale-after"), QString::number(staleSeconds))
                    .positionals(f.evidence.sampleNames));
    f.actions << forget;
    return QVector<Finding>{f};
}

// Its page of docs/runbooks/ and the lines its findings take (core/diagnosis/Runbook.h).
Runbook RelayStaleCheck::runbook() const
{
    Runbook r = Runbook::page(
        "relay-stale", "A registered relay stopped sending heartbeats", "warning",
        "A registered relay's heartbeat is older than `[doctor] relay_stale_heartbeats` intervals: the "
        "process died, hangs or lost its database connection. Its leases expire and other relays reap "
        "them.");
    r.causes = {
        {"died", QT_TRANSLATE_NOOP(
                     "outbox::Runbook",
                     "The relay process died without deregistering (killed, out of memory, its host went "
                     "down).")},
        {"database",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The relay lost its database connection and cannot write its heartbeat.")},
        {"hangs",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The relay hangs (e.g. blocked in a call to the broker) and its heartbeat thread "
                           "stopped.")},
    };
    r.steps = {
        {"look",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Look for the process on its host (host and pid are in the evidence) and read its log.")},
        {"restart",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "If it hangs, restart it; a relay that drains on SIGTERM finishes what it holds first.")},
        {"leases",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Its %1 SENDING lease(s) expire and any running relay reaps them back to PENDING; "
                           "expired-leases reports them if nobody does."),
         "the stale relays held leases", "N"},
        {"forget", QT_TRANSLATE_NOOP(
                       "outbox::Runbook",
                       "A relay that is gone for good keeps its registration: forget it (prepared below) so "
                       "that this finding clears.")},
    };
    return r;
}

} // namespace outbox
