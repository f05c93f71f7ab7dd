#include "core/db/OutboxEvent.h"

#include "core/db/Dialect.h"
#include "core/db/EventStatus.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QStringList>

namespace outbox {

QString OutboxEvent::columns(const QString& alias)
{
    static const QStringList names = {
        QStringLiteral("id"),
        QStringLiteral("event_id"),
        QStringLiteral("event_type"),
        QStringLiteral("aggregate_type"),
        QStringLiteral("aggregate_id"),
        QStringLiteral("aggregate_version"),
        QStringLiteral("topic"),
        QStringLiteral("payload"),
        QStringLiteral("headers"),
        QStringLiteral("schema_version"),
        QStringLiteral("status"),
        QStringLiteral("attempts"),
        QStringLiteral("available_at"),
        QStringLiteral("worker_id"),
        QStringLiteral("lease_until"),
        QStringLiteral("lease_token"),
        QStringLiteral("last_error"),
        QStringLiteral("last_error_class"),
        QStringLiteral("created_at"),
        QStringLiteral("sent_at"),
        QStringLiteral("broker_partition"),
        QStringLiteral("broker_offset"),
    };
    if (alias.isEmpty())
        return names.join(QStringLiteral(", "));
    QStringList qualified;
    for (const QString& n : names)
        qualified << alias + QLatin1Char('.') + n;
    return qualified.join(QStringLiteral(", "));
}

QString OutboxEvent::summaryColumns(const Dialect& d, const QString& previewPlaceholder)
{
    QString list = columns();
    list.replace(QStringLiteral(", payload, "),
                 QStringLiteral(", %1, ").arg(d.textPrefix(QStringLiteral("payload"), previewPlaceholder)));
    return list + QStringLiteral(", ") + d.textBytes(QStringLiteral("payload"));
}

OutboxEvent OutboxEvent::fromSummary(const QSqlQuery& q, const Dialect& d)
{
    OutboxEvent e = fromQuery(q, d);
    e.payloadSize = q.value(22).toLongLong();
    e.payloadTruncated = e.payload.size() < e.payloadSize;
    return e;
}

namespace {

// Columns 0-9 of both column lists: the message itself.
OutboxEvent messageColumns(const QSqlQuery& q)
{
    OutboxEvent e;
    e.id = q.value(0).toLongLong();
    e.eventId = q.value(1).toString();
    e.eventType = q.value(2).toString();
    e.aggregateType = q.value(3).toString();
    e.aggregateId = q.value(4).toString();
    if (!q.value(5).isNull())
        e.aggregateVersion = q.value(5).toLongLong();
    e.topic = q.value(6).toString();
    e.payload = q.value(7).toString().toUtf8();
    e.headers = q.value(8).toString().toUtf8();
    e.schemaVersion = q.value(9).toInt();
    return e;
}

} // namespace

QString OutboxEvent::claimedColumns()
{
    return QStringLiteral("id, event_id, event_type, aggregate_type, aggregate_id, aggregate_version, topic, "
                          "payload, headers, schema_version, attempts, lease_until, created_at");
}

OutboxEvent OutboxEvent::fromClaimed(const QSqlQuery& q, const Dialect& d)
{
    OutboxEvent e = messageColumns(q);
    e.status = EventStatus::Sending;
    e.attempts = q.value(10).toInt();
    e.leaseUntil = d.toDateTime(q.value(11));
    e.createdAt = d.toDateTime(q.value(12));
    return e;
}

OutboxEvent OutboxEvent::fromQuery(const QSqlQuery& q, const Dialect& d)
{
    OutboxEvent e = messageColumns(q);
    e.status = q.value(10).toString();
    e.attempts = q.value(11).toInt();
    e.availableAt = d.toDateTime(q.value(12));
    e.workerId = q.value(13).toString();
    e.leaseUntil = d.toDateTime(q.value(14));
    e.leaseToken = q.value(15).toString();
    e.lastError = q.value(16).toString();
    e.lastErrorClass = q.value(17).toString();
    e.createdAt = d.toDateTime(q.value(18));
    e.sentAt = d.toDateTime(q.value(19));
    if (!q.value(20).isNull())
        e.brokerPartition = q.value(20).toInt();
    if (!q.value(21).isNull())
        e.brokerOffset = q.value(21).toLongLong();
    return e;
}

namespace {
QJsonValue time(const QDateTime& t)
{
    return t.isValid() ? QJsonValue(t.toString(Qt::ISODateWithMs)) : QJsonValue();
}
QJsonValue text(const QString& s)
{
    return s.isNull() ? QJsonValue() : QJsonValue(s);
}
} // namespace

QJsonObject OutboxEvent::toJson() const
{
    QJsonObject o;
    o[QStringLiteral("id")] = id;
    o[QStringLiteral("event_id")] = eventId;
    o[QStringLiteral("event_type")] = eventType;
    o[QStringLiteral("aggregate_type")] = aggregateType;
    o[QStringLiteral("aggregate_id")] = aggregateId;
    o[QStringLiteral("aggregate_version")] = aggregateVersion ? QJsonValue(*aggregateVersion) : QJsonValue();
    o[QStringLiteral("topic")] = text(topic);
    if (payloadTruncated) {
        o[QStringLiteral("payload")] = QJsonValue(); // on the detail route (EventStore::find)
        o[QStringLiteral("payload_preview")] = QString::fromUtf8(payload);
    } else {
        const QJsonDocument payloadDoc = QJsonDocument::fromJson(payload);
        o[QStringLiteral("payload")] = payloadDoc.isObject()  ? QJsonValue(payloadDoc.object())
                                       : payloadDoc.isArray() ? QJsonValue(payloadDoc.array())
                                                              : QJsonValue(QString::fromUtf8(payload));
    }
    if (payloadSize >= 0) {
        o[QStringLiteral("payload_size")] = payloadSize;
        o[QStringLiteral("payload_truncated")] = payloadTruncated;
    }
    o[QStringLiteral("headers")] = QJsonDocument::fromJson(headers).object();
    o[QStringLiteral("schema_version")] = schemaVersion;
    o[QStringLiteral("status")] = status;
    o[QStringLiteral("attempts")] = attempts;
    o[QStringLiteral("available_at")] = time(availableAt);
    o[QStringLiteral("worker_id")] = text(workerId);
    o[QStringLiteral("lease_until")] = time(leaseUntil);
    o[QStringLiteral("lease_token")] = text(leaseToken);
    o[QStringLiteral("last_error")] = text(lastError);
    o[QStringLiteral("last_error_class")] = text(lastErrorClass);
    o[QStringLiteral("created_at")] = time(createdAt);
    o[QStringLiteral("sent_at")] = time(sentAt);
    o[QStringLiteral("broker_partition")] = brokerPartition ? QJsonValue(*brokerPartition) : QJsonValue();
    o[QStringLiteral("broker_offset")] = brokerOffset ? QJsonValue(*brokerOffset) : QJsonValue();
    o[QStringLiteral("sent_topic")] = sentTopic.isEmpty() ? QJsonValue() : QJsonValue(sentTopic);
    return o;
}

} // namespace outbox
