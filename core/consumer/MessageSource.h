#pragma once

#include "core/consumer/ConsumerOptions.h"
#include "core/consumer/InboxMessage.h"
#include "core/support/Result.h"

#include <QString>
#include <QVector>
#include <functional>
#include <memory>

namespace outbox {

// Where an InboxConsumer's messages come from (docs/architecture.md, "How a second broker plugs
// in"): a Kafka consumer group (KafkaSource) or a RabbitMQ queue (AmqpSource). The consumer decides
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
    virtual ~MessageSource();

    // The source the options name (Kafka topics or a RabbitMQ queue).
    static Result<std::unique_ptr<MessageSource>> create(const ConsumerOptions& options, Logger log);

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
