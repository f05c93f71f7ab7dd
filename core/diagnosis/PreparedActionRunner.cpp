#include "core/diagnosis/PreparedActionRunner.h"

#include "core/db/RelayStore.h"
#include "core/ops/RelayControl.h"

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

Result<ActionResult> PreparedActionRunner::preview(const PreparedAction& action, const QString& actor)
{
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
        return preview;
    }
    auto kind = bulkKind(action.operation);
    if (!kind)
        return kind.error();
    return BulkActionEngine(m_db).preview(*kind, request(action, QString(), actor));
}

Result<ActionResult> PreparedActionRunner::run(const PreparedAction& action, const QString& reason,
                                               const QString& actor, const BulkControl& control,
                                               const ActionResult* previewed)
{
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
    return BulkActionEngine(m_db).run(*kind, request(action, reason, actor), control, previewed);
}

} // namespace outbox
