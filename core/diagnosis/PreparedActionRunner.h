#pragma once

#include "core/diagnosis/PreparedAction.h"
#include "core/ops/BulkActionEngine.h"
#include "core/support/Result.h"

namespace outbox {

class Database;

// Previews and runs a doctor's prepared action, the same way for every front end: events and dead
// letters through the bulk engine, relays through RelayControl, the wake-up trigger through
// NotifyTrigger. Which engine an operation needs is
// decided here and nowhere else; an operation that is not an audited action (a command line to
// run) or that this build does not know is an error, never another action.
//
// Usage (on a thread that owns `db`):
//   PreparedActionRunner runner(db, options.relayStaleAfterMs());
//   auto preview = runner.preview(action, actor);                        // nothing changes
//   auto result = runner.run(action, reason, actor, *preview, control);  // audited
class PreparedActionRunner
{
public:
    PreparedActionRunner(Database& db, qint64 relayStaleAfterMs)
        : m_db(db), m_relayStaleAfterMs(relayStaleAfterMs)
    {
    }

    // The bulk engine's action for an event or dead-letter operation; a usage error otherwise.
    static Result<ActionKind> bulkKind(PreparedAction::Operation operation);
    // Resume, drain or forget relays (RelayControl), not the bulk engine.
    static bool controlsRelays(PreparedAction::Operation operation);
    // The bulk engine's request for the action's target.
    static ActionRequest request(const PreparedAction& action, const QString& reason, const QString& actor);

    // A dry run for `actor`: the rows (or relays) the action would change now, with a sample, the
    // verb and the confirmation phrase (core/ops/ActionConfirmation.h: asked for bulk work, when the
    // action says so, and always when `confirmAlways`, a production connection).
    Result<ActionResult> preview(const PreparedAction& action, const QString& actor,
                                 bool confirmAlways = false);
    // Runs it, audited with `reason` as `actor`. `previewed` is the preview the operator saw: the
    // bulk engine takes its count instead of counting again. `control` follows and cancels a bulk
    // run between chunks (a relay action is one statement).
    Result<ActionResult> run(const PreparedAction& action, const QString& reason, const QString& actor,
                             const ActionResult& previewed, const BulkControl& control = {});

private:
    Result<ActionResult> previewNotifyOff(const PreparedAction& action);
    static Error notAnAction(PreparedAction::Operation operation);

    Database& m_db;
    qint64 m_relayStaleAfterMs;
};

} // namespace outbox
