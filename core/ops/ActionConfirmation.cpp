#include "core/ops/ActionConfirmation.h"

#include "core/ops/ActionTarget.h"
#include "core/ops/DeadLetterGroupEditor.h"
#include "core/ops/OperatorActions.h"

#include <utility>

namespace outbox {

QString ActionConfirmation::verb(const QString& actionName)
{
    static const std::pair<const char*, const char*> verbs[] = {
        {"events.requeue", "requeue"}, {"events.dead", "dead"},    {"dlq.replay", "replay"},
        {"dlq.discard", "discard"},    {"relay.pause", "pause"},   {"relay.resume", "resume"},
        {"relay.drain", "drain"},      {"relay.forget", "forget"}, {"notify.off", "notify-off"},
        {"notify.on", "notify-on"},    {"dlq.edit", "edit"},       {"dlq.edit_group", "edit"}};
    for (const auto& [action, word] : verbs)
        if (actionName == QLatin1String(action))
            return QString::fromLatin1(word);
    return {};
}

bool ActionConfirmation::required(const QString& actionName, const ActionTarget& target, qint64 count,
                                  bool asked)
{
    // A relay that stops working (or whose registration goes) is never a click away.
    for (const char* stopping : {"relay.pause", "relay.drain", "relay.forget"})
        if (actionName == QLatin1String(stopping))
            return true;
    return asked || target.isBulk() || count > 1;
}

QString ActionConfirmation::phrase(const QString& actionName, qint64 count)
{
    return QStringLiteral("%1 %2").arg(verb(actionName)).arg(count);
}

QString ActionConfirmation::phraseFor(const QString& actionName, const ActionTarget& target, qint64 count,
                                      bool asked)
{
    return required(actionName, target, count, asked) ? phrase(actionName, count) : QString();
}

void ActionConfirmation::decide(ActionResult& preview, const ActionTarget& target, bool asked)
{
    preview.verb = verb(preview.action);
    preview.confirmation = phraseFor(preview.action, target, preview.matched, asked);
}

void ActionConfirmation::decide(GroupEditPreview& preview)
{
    const QString action = QStringLiteral("dlq.edit_group");
    ActionTarget target;
    target.deadLetterGroup = preview.group;
    preview.verb = verb(action);
    preview.confirmation = phraseFor(action, target, preview.changing, false);
}

QString ActionConfirmation::letterEditPhrase(qint64 letterId, bool asked)
{
    return asked ? phrase(QStringLiteral("dlq.edit"), letterId) : QString();
}

} // namespace outbox
