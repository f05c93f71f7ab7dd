#pragma once

#include "core/broker/BrokerMessage.h"
#include "core/broker/BrokerUrl.h"
#include "core/broker/PendingBatch.h"
#include "core/broker/amqp/AmqpOptions.h"
#include "core/broker/kafka/KafkaProperties.h"
#include "core/support/Result.h"

#include <QString>
#include <QVector>
#include <memory>

namespace outbox {

// What the relay and the dead-letter replayer need of a broker (docs/architecture.md, "How a second
// broker plugs in"): hand over a batch, learn each message's fate, and tell a broken connection from
// a refused message. KafkaPublisher and AmqpPublisher implement it; a third broker is one more class
// and one line in create().
//
// The contract every implementation keeps:
//  - a report says Success only once the broker has taken responsibility for the message (Kafka:
//    acks=all; AMQP: publisher confirm);
//  - Deterministic only for a refusal that retrying cannot change (too large, no route, no such
//    destination), with the broker's text;
//  - ConnectionWide (or a failure with possiblyPersisted false while connectionDown()) when nothing
//    went out because the broker cannot be reached: the relay keeps those events PENDING and degrades;
//  - every message of a batch is reported by await()'s deadline at the latest (UnknownOutcome then).
class Publisher
{
public:
    virtual ~Publisher();

    // The publisher of `kind` ([broker] url: Kafka at `bootstrap` with `kafka`'s properties, or AMQP
    // with `amqp`). Usage errors for bad options; it does not wait for the broker (probe() does).
    // RelayOptions::publisher() calls it with a relay's options.
    static Result<std::unique_ptr<Publisher>> create(BrokerUrl::Kind kind, const QString& bootstrap,
                                                     const KafkaProperties& kafka, const AmqpOptions& amqp);

    // Hands every message over; local refusals become reports at once. While the client cannot take
    // more (a full queue or window) it serves the broker's answers and tries again, for at most
    // `queueWaitMs` over the whole batch: what is still not taken then is reported with notQueued.
    virtual std::unique_ptr<PendingBatch> enqueue(const QVector<BrokerMessage>& messages,
                                                  qint64 queueWaitMs = 60000) = 0;
    // Waits until the batch is complete or the deadline passes; what is unanswered by then is
    // reported as an unknown outcome.
    virtual void await(PendingBatch& batch, qint64 timeoutMs) = 0;
    // Serves the broker's answers for up to `timeoutMs` (returns early once a batch completes).
    virtual void poll(int timeoutMs) = 0;
    // Succeeds when the broker answers and would take messages now.
    virtual Status probe(int timeoutMs) = 0;

    virtual bool connectionDown() const = 0;
    // How many messages it keeps unanswered at most on its own ([amqp] window), 0 when it has no
    // such bound of its own (librdkafka's queue): the relay claims ahead to keep that many in flight
    // while it marks and claims, instead of letting the broker idle during its SQL.
    virtual int inFlightLimit() const { return 0; }
    // Broken for good: the relay makes a new one (Kafka's fatal idempotence errors).
    virtual bool fatal() const { return false; }
    virtual QString connectionError() const = 0;
    // "Kafka", "RabbitMQ": for logs, relay pages and the doctor.
    virtual QString kind() const = 0;
};

} // namespace outbox
