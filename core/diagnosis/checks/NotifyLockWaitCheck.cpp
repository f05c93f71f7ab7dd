#include "core/diagnosis/checks/NotifyLockWaitCheck.h"

#include "core/db/NotifyLock.h"
#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/Runbook.h"
#include "core/ops/NotifyTrigger.h"

#include <QThread>
#include <algorithm>

namespace outbox {

Result<QVector<Finding>> NotifyLockWaitCheck::run(DiagnosisContext& context)
{
    NotifyTrigger trigger(context.db());
    auto state = trigger.state();
    if (!state)
        return state.error();
    if (!state->exists || !state->enabled)
        return QVector<Finding>{}; // the default: nothing in the writers' commits to wait for
    int samplesWaiting = 0;
    qint64 mostWaiting = 0;
    for (int i = 0; i < Samples; ++i) {
        if (i > 0)
            QThread::msleep(SampleSpacingMs);
        auto waiting = NotifyLock::waiters(context.db());
        if (!waiting)
            return waiting.error();
        if (!waiting->has_value())
            return QVector<Finding>{};
        const qint64 n = **waiting;
        if (n > 0)
            ++samplesWaiting;
        mostWaiting = std::max(mostWaiting, n);
    }
    if (samplesWaiting == 0)
        return QVector<Finding>{};
    auto last = trigger.lastSwitch();
    if (!last)
        return last.error();
    const Runbook& rb = Runbook::of(id());
    Finding f;
    f.id = id();
    f.key = id();
    f.severity = Severity::Warning;
    f.evidence.count = mostWaiting;
    f.evidence.unit = QStringLiteral("commits waiting");
    f.evidence.details.insert(QStringLiteral("trigger"), state->trigger);
    f.evidence.details.insert(QStringLiteral("table"), state->table);
    f.evidence.details.insert(QStringLiteral("samples"), Samples);
    f.evidence.details.insert(QStringLiteral("samples_waiting"), samplesWaiting);
    f.evidence.details.insert(QStringLiteral("most_waiting"), mostWaiting);
    f.title = tr("Writers' commits wait for the notification lock: up to %1 at once in %2 of %3 samples "
                 "(wake-up trigger %4 on)")
                  .arg(mostWaiting)
                  .arg(samplesWaiting)
                  .arg(Samples)
                  .arg(state->trigger);
    if (last->has_value() && (*last)->action == NotifyTrigger::actionName(true)) {
        const AuditEntry& e = **last;
        f.evidence.details.insert(QStringLiteral("audit_id"), e.id);
        f.evidence.details.insert(QStringLiteral("actor"), e.actor);
        f.evidence.details.insert(QStringLiteral("reason"), e.reason);
        f.evidence.oldest = e.at;
        f.causes << rb.cause("switched-on");
    } else {
        f.causes << rb.cause("never-off");
    }
    f.runbook << rb.step("cost") << rb.step("off") << rb.step("single-writer");
    // Audited like the command (NotifyTrigger, the table's owner only): every front end runs it
    // through PreparedActionRunner; Doctor adds the finding as the command's reason.
    PreparedAction off;
    off.operation = PreparedAction::Operation::SwitchNotifyOff;
    off.label = tr("Switch the wake-up trigger off (the default): relays wake by doorbell or polling");
    off.consequence = tr("Writers' commits stop queueing on the notification lock; the switch and its "
                         "reason go into the audit log; running relays notice within a heartbeat.");
    context.prepareCommand(
        off, CommandLine(QStringLiteral("outboxctl"), {QStringLiteral("notify"), QStringLiteral("off")}));
    f.actions << off;
    return QVector<Finding>{f};
}

// Its page of docs/runbooks/ and the lines its findings take (core/diagnosis/Runbook.h).
Runbook NotifyLockWaitCheck::runbook() const
{
    Runbook r = Runbook::page(
        "notify-lock-wait", "Writers' commits wait for the notification lock", "warning",
        "PostgreSQL: the wake-up trigger is on (`outboxctl notify on`; off by default since migration 19) "
        "and the services' commits queue for the lock every notifying commit takes across its WAL flush "
        "(`pg_stat_activity`: wait_event_type `Lock`, wait_event `object`). Each writing service pays it "
        "inside its own transaction: 25-84 % of the commit rate at 8-64 durable writers "
        "(docs/benchmarks.md). Relays do not need it: they wake by the doorbell or by polling.");
    r.causes = {
        {"switched-on",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "An operator switched notifications on with outboxctl notify on (the audit log "
                           "keeps who, when and why: outboxctl audit --action notify.on), and more than one "
                           "writer now commits at a time.")},
        {"never-off",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The trigger was enabled with SQL (ALTER TABLE … ENABLE TRIGGER) or by a script; "
                           "nothing recorded why.")},
    };
    r.steps = {
        {"cost", QT_TRANSLATE_NOOP(
                     "outbox::Runbook",
                     "Every writing service's commit waits here: its commit rate is capped at about one "
                     "notifying commit per WAL flush of the server, whatever the machine.")},
        {"off",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Switch back to the default, as the schema owner: outboxctl notify off --reason "
                           "TEXT --yes. Running relays notice within a heartbeat and wake by the doorbell or "
                           "by polling (relay.poll_ms); nothing is lost.")},
        {"single-writer",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Keep notifications on only where a single writer commits at a time and the "
                           "lowest idle latency matters more than the writers' throughput.")},
    };
    return r;
}

} // namespace outbox
