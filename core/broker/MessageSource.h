#pragma once

#include "core/broker/InboxMessage.h"
#include "core/support/Result.h"

#include <QString>
#include <QStringList>
#include <QVector>
#include <functional>
#include <memory>

namespace outbox {

// Where an InboxConsumer's messages come from (docs/architecture.md, "How a broker plugs in"): a
// Kafka consumer group (core/broker/kafka/KafkaSource) or a RabbitMQ queue
// (core/broker/amqp/AmqpSource); a Broker makes the one it names (Broker::source()). The consumer decides
// what a message means; the source only delivers and settles:
//  - poll() hands over messages in delivery order, the broker's own data (topic/partition/offset or
//    routing key/delivery tag) in the InboxMessage, headers and payload as sent;
//  - acknowledge() is called only after the inbox transaction committed, in order, never before;
//  - deadLettered() settles a message the consumer stored as a dead letter (a queue's own
//    dead-letter exchange may take it too);
//  - an unacknowledged message comes again after a crash or reconnect (the inbox skips it).
class MessageSource
{
public:
    using Logger = std::function<void(const QString&)>;
    // What the consumer tells every source; where to read (topics, a queue) is the broker's.
    struct Settings
    {
        QString consumerName; // the inbox consumer_name (Kafka: group.id; AMQP: the consumer tag)
        QStringList topics;   // [consumer] topics (Kafka subscribes to them; a queue's are its bindings)
        int batchSize = 500;  // messages the consumer takes at once (AMQP: basic.qos)
    };
    virtual ~MessageSource();

    // Connects and subscribes; an error when the broker refuses (unknown queue, bad credentials).
    virtual Status open() = 0;
    // Up to `max` messages: waits up to `firstWaitMs` for the first, then `moreWaitMs` for more.
    virtual QVector<InboxMessage> poll(int max, int firstWaitMs, int moreWaitMs) = 0;
    // Messages [from, to) are done: committed in the inbox, or duplicates.
    virtual Status acknowledge(const QVector<InboxMessage>& messages, int from, int to) = 0;
    // The message is a dead letter now (stored in the dead-letter table).
    virtual Status deadLettered(const InboxMessage& message) = 0;
    virtual void close() = 0;
};

} // namespace outbox
