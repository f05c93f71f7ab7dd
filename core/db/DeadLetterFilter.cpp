#include "core/db/DeadLetterFilter.h"

#include "core/db/Dialect.h"

#include <QJsonArray>

namespace outbox {

bool DeadLetterFilter::isEmpty() const
{
    return statuses.isEmpty() && consumerName.isEmpty() && topic.isEmpty() && eventId.isEmpty() &&
           errorText.isEmpty();
}

SqlCondition DeadLetterFilter::toCondition(const Dialect& dialect) const
{
    SqlCondition c;
    if (!statuses.isEmpty()) {
        QVariantList values;
        for (const QString& s : statuses)
            values << s;
        c.addIn(QStringLiteral("status"), QStringLiteral("f_status"), values);
    }
    if (!consumerName.isEmpty())
        c.add(QStringLiteral("consumer_name = :f_consumer"), QStringLiteral(":f_consumer"), consumerName);
    if (!topic.isEmpty())
        c.add(QStringLiteral("topic = :f_topic"), QStringLiteral(":f_topic"), topic);
    if (!eventId.isEmpty())
        c.add(QStringLiteral("event_id = :f_event"), QStringLiteral(":f_event"), eventId);
    if (!errorText.isEmpty())
        c.add(dialect.containsIgnoringCase(QStringLiteral("error"), QStringLiteral(":f_error")),
              QStringLiteral(":f_error"), Dialect::likePattern(errorText));
    return c;
}

QJsonObject DeadLetterFilter::toJson() const
{
    QJsonObject o;
    if (!statuses.isEmpty())
        o[QStringLiteral("status")] = QJsonArray::fromStringList(statuses);
    if (!consumerName.isEmpty())
        o[QStringLiteral("consumer")] = consumerName;
    if (!topic.isEmpty())
        o[QStringLiteral("topic")] = topic;
    if (!eventId.isEmpty())
        o[QStringLiteral("event_id")] = eventId;
    if (!errorText.isEmpty())
        o[QStringLiteral("error")] = errorText;
    return o;
}

} // namespace outbox
