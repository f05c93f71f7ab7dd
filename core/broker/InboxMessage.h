#pragma once

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QVector>
#include <utility>

namespace outbox {

// One message as the consumer's handler sees it, headers already validated.
struct InboxMessage
{
    QString topic;            // Kafka: the topic; AMQP: the routing key
    int partition = -1;       // Kafka
    qint64 offset = -1;       // Kafka: the offset; AMQP: the delivery tag
    bool redelivered = false; // AMQP: the broker delivered it before (not acknowledged then)
    quint64 sourceEpoch = 0;  // which connection of the source delivered it (AMQP tags are per channel)
    QByteArray key;
    QByteArray payload;
    QVector<std::pair<QByteArray, QByteArray>> headers; // in wire order
    QString eventId;
    QString eventType;
    QString aggregateId;
    QString traceparent; // W3C Trace Context from the writer (docs/contract.md), empty when none
    int schemaVersion = 0;
    QJsonDocument json;  // the decoded payload
    int attempt = 1;     // 1 on the first try, 2 after one transient failure, …
    int replayCount = 0; // x-replay-count: how often an operator replayed it from the dead letters

    // The first header of that name (the relay's own come first: docs/contract.md, "Headers").
    QByteArray header(const QByteArray& name) const;
    bool hasHeader(const QByteArray& name) const;
    // Headers as a JSON object of strings (the last value wins), as dead_letters keeps them.
    QJsonObject headersJson() const;
};

} // namespace outbox
