#include "core/diagnosis/PreparedAction.h"

#include <QJsonArray>

namespace outbox {

QString PreparedAction::operationName() const
{
    switch (operation) {
    case Operation::RequeueEvents:
        return QStringLiteral("events.requeue");
    case Operation::MarkEventsDead:
        return QStringLiteral("events.dead");
    case Operation::ReplayDeadLetters:
        return QStringLiteral("dlq.replay");
    case Operation::DiscardDeadLetters:
        return QStringLiteral("dlq.discard");
    case Operation::ResumeRelays:
        return QStringLiteral("relay.resume");
    case Operation::DrainRelays:
        return QStringLiteral("relay.drain");
    case Operation::ForgetRelays:
        return QStringLiteral("relay.forget");
    case Operation::SwitchNotifyOff:
        return QStringLiteral("notify.off");
    case Operation::RunCommand:
        break;
    }
    return QStringLiteral("command");
}

QString PreparedAction::commandWith(const QStringList& options) const
{
    if (command.isEmpty())
        return {};
    CommandLine line = commandLine;
    auto text = line.options(options).render();
    return text ? *text : QString();
}

QJsonObject PreparedAction::toJson() const
{
    QJsonObject target{{QStringLiteral("kind"), targetKind()}};
    if (group)
        target.insert(QStringLiteral("failure_group"),
                      QJsonObject{{QStringLiteral("error_class"), group->errorClass},
                                  {QStringLiteral("fingerprint"), group->fingerprint},
                                  {QStringLiteral("statuses"), QJsonArray::fromStringList(group->statuses)}});
    if (deadLetterGroup) // the fields the dead-letter action routes take as "group"
        target.insert(
            QStringLiteral("failure_group"),
            QJsonObject{{QStringLiteral("consumer"), deadLetterGroup->consumerName},
                        {QStringLiteral("error_class"), deadLetterGroup->errorClass},
                        {QStringLiteral("fingerprint"), deadLetterGroup->fingerprint},
                        {QStringLiteral("statuses"), QJsonArray::fromStringList(deadLetterGroup->statuses)}});
    if (eventFilter)
        target.insert(QStringLiteral("filter"), eventFilter->toJson());
    if (deadLetterFilter)
        target.insert(QStringLiteral("filter"), deadLetterFilter->toJson());
    if (!ids.isEmpty()) {
        QJsonArray a;
        for (qint64 id : ids)
            a.append(id);
        target.insert(QStringLiteral("ids"), a);
    }
    if (!workerIds.isEmpty())
        target.insert(QStringLiteral("workers"), QJsonArray::fromStringList(workerIds));
    QJsonObject o{{QStringLiteral("label"), label},
                  {QStringLiteral("operation"), operationName()},
                  {QStringLiteral("consequence"), consequence},
                  {QStringLiteral("target"), target},
                  {QStringLiteral("typed_confirmation"), typedConfirmation},
                  {QStringLiteral("command"), command}};
    if (!commandRefused.isEmpty())
        o.insert(QStringLiteral("command_refused"), commandRefused);
    if (startsRelay)
        o.insert(QStringLiteral("relay"),
                 QJsonObject{{QStringLiteral("broker_known"), brokerKnown},
                             {QStringLiteral("arguments"), QJsonArray::fromStringList(relayArguments)}});
    if (force)
        o.insert(QStringLiteral("force"), true);
    if (resend)
        o.insert(QStringLiteral("resend"), true);
    return o;
}

} // namespace outbox
