#include "core/db/DeadLetter.h"

#include "core/db/Dialect.h"

#include <QJsonDocument>
#include <QSqlQuery>

namespace outbox {

QString DeadLetter::columns()
{
    return QStringLiteral(
        "id, consumer_name, event_id, topic, source_partition, source_offset, message_key, headers, "
        "payload, error, stacktrace, attempts, first_failed_at, last_failed_at, status, replay_token, "
        "replay_topic, replay_count, replayed_at, replayed_by");
}

DeadLetter DeadLetter::fromQuery(const QSqlQuery& q, const Dialect& d)
{
    DeadLetter l;
    l.id = q.value(0).toLongLong();
    l.consumerName = q.value(1).toString();
    l.eventId = q.value(2).toString();
    l.topic = q.value(3).toString();
    if (!q.value(4).isNull())
        l.sourcePartition = q.value(4).toInt();
    if (!q.value(5).isNull())
        l.sourceOffset = q.value(5).toLongLong();
    l.messageKey = q.value(6).toString();
    l.headers = q.value(7).toString().toUtf8();
    l.payload = q.value(8).toString().toUtf8();
    l.error = q.value(9).toString();
    l.stacktrace = q.value(10).toString();
    l.attempts = q.value(11).toInt();
    l.firstFailedAt = d.toDateTime(q.value(12));
    l.lastFailedAt = d.toDateTime(q.value(13));
    l.status = q.value(14).toString();
    l.replayToken = q.value(15).toString();
    l.replayTopic = q.value(16).toString();
    l.replayCount = q.value(17).toInt();
    l.replayedAt = d.toDateTime(q.value(18));
    l.replayedBy = q.value(19).toString();
    return l;
}

QJsonObject DeadLetter::toJson() const
{
    auto time = [](const QDateTime& t) {
        return t.isValid() ? QJsonValue(t.toString(Qt::ISODateWithMs)) : QJsonValue();
    };
    auto text = [](const QString& s) { return s.isNull() ? QJsonValue() : QJsonValue(s); };
    QJsonObject o;
    o[QStringLiteral("id")] = id;
    o[QStringLiteral("consumer_name")] = consumerName;
    o[QStringLiteral("event_id")] = text(eventId);
    o[QStringLiteral("topic")] = topic;
    o[QStringLiteral("source_partition")] = sourcePartition ? QJsonValue(*sourcePartition) : QJsonValue();
    o[QStringLiteral("source_offset")] = sourceOffset ? QJsonValue(*sourceOffset) : QJsonValue();
    o[QStringLiteral("message_key")] = text(messageKey);
    o[QStringLiteral("headers")] = QJsonDocument::fromJson(headers).object();
    o[QStringLiteral("payload")] = QString::fromUtf8(payload);
    o[QStringLiteral("error")] = error;
    o[QStringLiteral("stacktrace")] = text(stacktrace);
    o[QStringLiteral("attempts")] = attempts;
    o[QStringLiteral("first_failed_at")] = time(firstFailedAt);
    o[QStringLiteral("last_failed_at")] = time(lastFailedAt);
    o[QStringLiteral("status")] = status;
    o[QStringLiteral("replay_token")] = text(replayToken);
    o[QStringLiteral("replay_topic")] = text(replayTopic);
    o[QStringLiteral("replay_count")] = replayCount;
    o[QStringLiteral("replayed_at")] = time(replayedAt);
    o[QStringLiteral("replayed_by")] = text(replayedBy);
    return o;
}

} // namespace outbox
