#include "core/diagnosis/PreparedActionRunner.h"

#include "core/db/RelayStore.h"
#include "core/ops/ActionConfirmation.h"
#include "core/ops/NotifyTrigger.h"
#include "core/ops/RelayControl.h"

#include <QJsonObject>

namespace outbox {

Error PreparedActionRunner::notAnAction(PreparedAction::Operation operation)
{
    if (operation == PreparedAction::Operation::RunCommand)
        return Error::usage(
            QStringLiteral("this prepared action is a command line to run, not an audited action"));
    return Error::usage(QStringLiteral("unknown prepared operation %1: nothing was changed")
                            .arg(static_cast<int>(operation)));
}

Result<ActionKind> PreparedActionRunner::bulkKind(PreparedAction::Operation operation)
{
    switch (operation) {
    case PreparedAction::Operation::RequeueEvents:
        return ActionKind::Requeue;
    case PreparedAction::Operation::MarkEventsDead:
        return ActionKind::MarkDead;
    case PreparedAction::Operation::ReplayDeadLetters:
        return ActionKind::ReplayDeadLetters;
    case PreparedAction::Operation::DiscardDeadLetters:
        return ActionKind::DiscardDeadLetters;
    case PreparedAction::Operation::ResumeRelays:
    case PreparedAction::Operation::DrainRelays:
    case PreparedAction::Operation::ForgetRelays:
    case PreparedAction::Operation::SwitchNotifyOff:
    case PreparedAction::Operation::RunCommand:
        break;
    }
    return notAnAction(operation);
}

bool PreparedActionRunner::controlsRelays(PreparedAction::Operation operation)
{
    return operation == PreparedAction::Operation::ResumeRelays ||
           operation == PreparedAction::Operation::DrainRelays ||
           operation == PreparedAction::Operation::ForgetRelays;
}

ActionRequest PreparedActionRunner::request(const PreparedAction& action, const QString& reason,
                                            const QString& actor)
{
    ActionRequest r;
    static_cast<ActionTarget&>(r) = action;
    r.workerIds.clear(); // the bulk engine's targets are rows
    r.force = action.force;
    r.resend = action.resend;
    r.actor = actor;
    r.reason = reason;
    r.sampleSize = 10;
    return r;
}

Result<ActionResult> PreparedActionRunner::previewNotifyOff(const PreparedAction& action)
{
    auto state = NotifyTrigger(m_db).state();
    if (!state)
        return state.error();
    // The same refusals as the switch itself, before the operator types a reason.
    if (Status refused = NotifyTrigger::refusal(*state, false); !refused)
        return refused.error();
    ActionResult preview;
    preview.action = action.operationName();
    preview.dryRun = true;
    if (state->exists && state->enabled) {
        preview.matched = 1;
        preview.sample.append(QJsonObject{{QStringLiteral("table"), state->table},
                                          {QStringLiteral("trigger"), state->trigger},
                                          {QStringLiteral("enabled"), true}});
    }
    preview.expected = preview.matched;
    return preview;
}

Result<ActionResult> PreparedActionRunner::preview(const PreparedAction& action, const QString& actor,
                                                   bool confirmAlways)
{
    const bool asked = action.typedConfirmation || confirmAlways;
    if (action.operation == PreparedAction::Operation::SwitchNotifyOff) {
        auto preview = previewNotifyOff(action);
        if (preview)
            ActionConfirmation::decide(preview.value(), action, asked);
        return preview;
    }
    if (controlsRelays(action.operation)) {
        auto relays = RelayStore(m_db).list();
        if (!relays)
            return relays.error();
        ActionResult preview;
        preview.action = action.operationName();
        preview.dryRun = true;
        for (const RelayRecord& r : *relays) {
            if (!action.workerIds.contains(r.workerId))
                continue;
            ++preview.matched;
            preview.sample.append(r.toJson());
        }
        preview.expected = preview.matched;
        ActionConfirmation::decide(preview, action, asked);
        return preview;
    }
    auto kind = bulkKind(action.operation);
    if (!kind)
        return kind.error();
    ActionRequest r = request(action, QString(), actor);
    r.confirmAlways = asked;
    return BulkActionEngine(m_db).preview(*kind, r);
}

Result<ActionResult> PreparedActionRunner::run(const PreparedAction& action, const QString& reason,
                                               const QString& actor, const ActionResult& previewed,
                                               const BulkControl& control)
{
    if (action.operation == PreparedAction::Operation::SwitchNotifyOff) {
        auto r = NotifyTrigger(m_db).setEnabled(false, reason, actor);
        if (!r)
            return r.error();
        ActionResult result;
        result.action = r->action;
        result.matched = r->changed ? 1 : 0;
        result.affected = result.matched;
        result.conflictCount = r->changed ? 0 : 1; // already off: someone else switched it
        result.auditId = r->auditId;
        if (r->auditId > 0)
            result.auditIds = {r->auditId};
        result.chunks = r->changed ? 1 : 0;
        return result;
    }
    if (controlsRelays(action.operation)) {
        RelayControl relays(m_db);
        auto r = action.operation == PreparedAction::Operation::ForgetRelays
                     ? relays.forget(action.workerIds, m_relayStaleAfterMs, reason, actor)
                     : relays.apply(action.operation == PreparedAction::Operation::DrainRelays
                                        ? RelayControl::Command::Drain
                                        : RelayControl::Command::Resume,
                                    action.workerIds, reason, actor);
        if (!r)
            return r.error();
        ActionResult result;
        result.action = r->action;
        result.matched = r->changed.size();
        result.affected = r->changed.size();
        result.auditId = r->auditId;
        result.auditIds = {r->auditId};
        result.chunks = 1;
        return result;
    }
    auto kind = bulkKind(action.operation);
    if (!kind)
        return kind.error();
    return BulkActionEngine(m_db).run(*kind, request(action, reason, actor), previewed, control);
}

} // namespace outbox
