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
    PreparedAction off;
    off.operation = PreparedAction::Operation::RunCommand;
    off.label = tr("Switch the wake-up trigger off (the default): relays wake by doorbell or polling");
    off.consequence = tr("Writers' commits stop queueing on the notification lock; the switch and its "
                         "reason go into the audit log; running relays notice within a heartbeat.");
    context.prepareCommand(
        off,
        CommandLine(QStringLiteral("outboxctl"),
                    {QStringLiteral("notify"), QStringLiteral("off"), QStringLiteral("--reason"),
                     QStringLiteral("notify-lock-wait: commits of writers wait on the notification lock")}));
    f.actions << off;
    return QVector<Finding>{f};
}

} // namespace outbox
