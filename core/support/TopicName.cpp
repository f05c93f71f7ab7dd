#include "core/support/TopicName.h"

#include <QRegularExpression>

namespace outbox {

namespace {
QString shown(const QString& name)
{
    return name.size() <= 80 ? name : name.left(80) + QStringLiteral("…");
}
} // namespace

QString TopicName::kafkaProblem(const QString& topic)
{
    static const QRegularExpression valid(QStringLiteral("^[A-Za-z0-9._-]{1,249}$"));
    if (valid.match(topic).hasMatch() && topic != QLatin1String(".") && topic != QLatin1String(".."))
        return {};
    return QStringLiteral(
               "topic name \"%1\" is not valid for Kafka: letters, digits, '.', '_' and '-' only, 1 "
               "to 249 characters, not \".\" or \"..\" (%2 characters)")
        .arg(shown(topic))
        .arg(topic.size());
}

QString TopicName::amqpProblem(const QString& routingKey)
{
    const qsizetype bytes = routingKey.toUtf8().size();
    if (bytes <= 255)
        return {};
    return QStringLiteral("routing key \"%1\" is %2 bytes long: AMQP allows at most 255")
        .arg(shown(routingKey))
        .arg(bytes);
}

} // namespace outbox
