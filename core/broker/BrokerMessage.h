#pragma once

#include "core/broker/DeliveryClass.h"

#include <QByteArray>
#include <QString>
#include <QVector>

namespace outbox {

struct BrokerHeader
{
    QByteArray name;
    QByteArray value;
};

// One message as every publisher takes it (docs/architecture.md, "How a broker plugs in").
struct BrokerMessage
{
    QString topic;  // Kafka: the topic; AMQP: the routing key
    QByteArray key; // Kafka: the partitioning key; AMQP: not sent (aggregate_id is a header)
    QByteArray payload;
    QVector<BrokerHeader> headers;
    QString exchange;       // AMQP: the exchange (null: the publisher's default); others ignore it
    QString messageId;      // AMQP message_id (the event_id); Kafka carries it as a header only
    QString type;           // AMQP type (the event_type)
    qint64 createdAtMs = 0; // AMQP timestamp (the event's created_at); 0: now
};

// The broker's answer for one message.
struct DeliveryReport
{
    bool reported = false;
    DeliveryClass deliveryClass = DeliveryClass::Success;
    QString message;      // the broker's or the client library's error text
    int partition = -1;   // Kafka
    qint64 offset = -1;   // Kafka: the offset; AMQP: the delivery tag
    qint64 ackedAtMs = 0; // wall clock, ms since epoch
    // The message may have reached the broker (it left this process and no answer says otherwise):
    // a failure then is an unknown outcome, never "connection-wide, nothing sent".
    bool possiblyPersisted = false;
    // Never handed to the broker's client: its queue (Kafka) or window (AMQP) stayed full for the
    // whole time the caller allowed. Nothing was sent; the message can be given back (no attempt spent).
    bool notQueued = false;
};

} // namespace outbox
