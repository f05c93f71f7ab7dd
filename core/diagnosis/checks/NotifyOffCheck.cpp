#include "core/diagnosis/checks/NotifyOffCheck.h"

#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/Runbook.h"
#include "core/ops/NotifyTrigger.h"

namespace outbox {

Result<QVector<Finding>> NotifyOffCheck::run(DiagnosisContext& context)
{
    NotifyTrigger trigger(context.db());
    auto state = trigger.state();
    if (!state)
        return state.error();
    if (!state->exists || state->enabled)
        return QVector<Finding>{};
    auto last = trigger.switchedOffBy();
    if (!last)
        return last.error();
    const bool audited = last->has_value();
    const Runbook& rb = Runbook::of(id());
    Finding f;
    f.id = id();
    f.key = id();
    f.severity = audited ? Severity::Info : Severity::Warning;
    f.evidence.count = 1;
    f.evidence.unit = QStringLiteral("triggers");
    f.evidence.details.insert(QStringLiteral("trigger"), state->trigger);
    f.evidence.details.insert(QStringLiteral("table"), state->table);
    if (audited) {
        const AuditEntry& e = **last;
        f.evidence.oldest = e.at;
        f.evidence.newest = e.at;
        f.evidence.details.insert(QStringLiteral("audit_id"), e.id);
        f.evidence.details.insert(QStringLiteral("actor"), e.actor);
        f.evidence.details.insert(QStringLiteral("reason"), e.reason);
        f.title = tr("Notifications to relays are off since %1 ago (%2: %3); relays poll")
                      .arg(DiagnosisContext::duration(context.ageMs(e.at)), e.actor, e.reason);
        f.causes << rb.cause("switched-off");
    } else {
        f.title = tr("Notifications to relays are off and no audit row says why (trigger %1 disabled); "
                     "relays poll")
                      .arg(state->trigger);
        f.causes << rb.cause("by-hand");
    }
    f.runbook << rb.step("latency") << rb.step("keep") << rb.step("back-on");
    // The same switch as a command that reaches this database (in a fleet: --fleet FILE --member
    // NAME, issue 36 M6); it asks for the typed confirmation itself.
    PreparedAction on;
    on.operation = PreparedAction::Operation::RunCommand;
    on.label = tr("Switch the wake-up notifications back on");
    on.consequence = tr("Relays are woken by every commit again instead of polling; the switch is audited "
                        "with its reason. Run it as the schema owner.");
    if (context.prepareCommand(
            on, CommandLine(QStringLiteral("outboxctl"), {QStringLiteral("notify"), QStringLiteral("on")})
                    .option(QStringLiteral("reason"), tr("notify-off: relays woken on every commit again"))))
        f.actions << on;
    return QVector<Finding>{f};
}

} // namespace outbox
