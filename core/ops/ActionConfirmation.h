#pragma once

#include <QString>

namespace outbox {

struct ActionResult;
struct GroupEditPreview;
struct ActionTarget;

// What an operator reads and types before an audited action runs, decided here once for every
// front end (the desktop's dialogs, the web console through the API, `outboxctl`): the action's
// verb and the confirmation phrase ("requeue 12"), which every front end shows as it is given.
//
// A phrase is asked for bulk work (a group, a filter, several ids or relays, or more than one row
// that would change), whenever the caller asks for it (a production connection, a doctor's action
// that says it needs one), and always before relays stop (pause, drain, forget); one row named by
// its id, or resuming one relay, confirms without one.
class ActionConfirmation
{
public:
    // The verb of an audited action: "events.requeue" -> "requeue", "events.dead" -> "dead",
    // "dlq.replay" -> "replay", "dlq.discard" -> "discard", "relay.pause" -> "pause" (resume,
    // drain, forget), "dlq.edit" and "dlq.edit_group" -> "edit", "notify.off" -> "notify-off"; empty for a
    // name that is not an action.
    static QString verb(const QString& actionName);
    // Whether the action `actionName` on `count` rows (or relays) of `target` needs a typed
    // confirmation (`asked`: the caller asks for one).
    static bool required(const QString& actionName, const ActionTarget& target, qint64 count, bool asked);
    // "<verb> <count>": the words typed to confirm.
    static QString phrase(const QString& actionName, qint64 count);
    // phrase() when required(), else empty: what a front end asks the operator to type.
    static QString phraseFor(const QString& actionName, const ActionTarget& target, qint64 count, bool asked);
    // Fills a preview's verb and confirmation (empty when none is needed) from its action and count.
    static void decide(ActionResult& preview, const ActionTarget& target, bool asked);
    // Fills a group edit's verb ("edit") and confirmation ("edit 25": the letters that change, always
    // asked: a group is bulk work).
    static void decide(GroupEditPreview& preview);
    // The phrase typed before one dead letter's message is edited: "edit <id>", naming the letter,
    // when `asked` (a production connection promises a typed confirmation for every change), else
    // empty.
    static QString letterEditPhrase(qint64 letterId, bool asked);
};

} // namespace outbox
