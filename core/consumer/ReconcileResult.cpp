#include "core/consumer/ReconcileResult.h"

#include <QJsonArray>

namespace outbox {

QJsonObject ReconcileResult::toJson() const
{
    QJsonArray sample;
    for (int i = 0; i < sampleIds.size(); ++i)
        sample.append(QJsonObject{{QStringLiteral("id"), sampleIds.at(i)},
                                  {QStringLiteral("event_id"), sampleEventIds.value(i)}});
    const QJsonValue topicsJson = topicsKnown ? QJsonValue(QJsonArray::fromStringList(topics)) : QJsonValue();
    if (listing) {
        QJsonArray list;
        for (const Event& e : events)
            list.append(
                QJsonObject{{QStringLiteral("id"), e.id},
                            {QStringLiteral("event_id"), e.eventId},
                            {QStringLiteral("topic"), e.topic.isNull() ? QJsonValue() : QJsonValue(e.topic)},
                            {QStringLiteral("created_at"), e.createdAt.toUTC().toString(Qt::ISODateWithMs)},
                            {QStringLiteral("sent_at"),
                             e.sentAt.isValid() ? QJsonValue(e.sentAt.toUTC().toString(Qt::ISODateWithMs))
                                                : QJsonValue()}});
        return QJsonObject{
            {QStringLiteral("consumer"), consumerName},
            {QStringLiteral("older_than_ms"), olderThanMs},
            {QStringLiteral("separate_inbox"), separateInbox},
            {QStringLiteral("topics"), topicsJson},
            {QStringLiteral("scanned"), scanned},
            {QStringLiteral("events"), list},
            {QStringLiteral("next_after_id"), nextAfterId > 0 ? QJsonValue(nextAfterId) : QJsonValue()}};
    }
    return QJsonObject{{QStringLiteral("consumer"), consumerName},
                       {QStringLiteral("topics"), topicsJson},
                       {QStringLiteral("older_than_ms"), olderThanMs},
                       {QStringLiteral("separate_inbox"), separateInbox},
                       {QStringLiteral("scanned"), scanned},
                       {QStringLiteral("unconsumed"), unconsumed},
                       {QStringLiteral("chunks"), chunks},
                       {QStringLiteral("sample"), sample}};
}

} // namespace outbox
