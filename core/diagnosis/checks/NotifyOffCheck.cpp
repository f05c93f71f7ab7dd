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
    return QVector<Finding>{f};
}

// Its page of docs/runbooks/ and the lines its findings take (core/diagnosis/Runbook.h).
Runbook NotifyOffCheck::runbook() const
{
    Runbook r;
    r.id = QStringLiteral("notify-off");
    r.title = QStringLiteral("Notifications to relays are off: relays poll");
    r.severity = QStringLiteral("info when the audit log says who switched them off and why, else warning");
    r.summary = QStringLiteral(
        "PostgreSQL: the trigger that wakes relays on every INSERT of events is disabled (`outboxctl notify "
        "off`, the cheaper option for write-heavy services in docs/contract.md). Writers commit faster; "
        "relays poll, from `relay.poll_min_ms` after work up to `relay.poll_ms` while idle.");
    r.causes = {
        {"switched-off",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "An operator switched them off with outboxctl notify off; the audit log keeps "
                           "who, when and why (outboxctl audit --action notify.off).")},
        {"by-hand",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Someone disabled the trigger with SQL (ALTER TABLE … DISABLE TRIGGER), or a "
                           "benchmark script did and did not switch it back; nothing recorded why.")},
    };
    r.steps = {
        {"latency",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Expect commit-to-ack latency of a few milliseconds more under load and up to "
                           "relay.poll_ms (250 ms by default) for the first event after an idle spell.")},
        {"keep",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "If the writers need the commit rate, keep it so: nothing is lost or delayed "
                           "beyond the poll interval.")},
        {"back-on",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "To wake relays on every commit again, run as the schema owner: outboxctl notify "
                           "on --reason TEXT --yes. Running relays notice within a heartbeat.")},
    };
    return r;
}

} // namespace outbox
