#pragma once

#include "core/broker/amqp/AmqpConnection.h"
#include "core/broker/amqp/AmqpOptions.h"
#include "core/support/Result.h"

#include <QString>
#include <memory>

namespace outbox {

// The declarations an operator asks for explicitly (`outboxctl migrate --declare-exchange`, the
// demo's queue) and the checks the doctor and the tests make: one connection, one channel, each
// step one RPC whose refusal is a sentence. The relay never declares anything by itself.
class AmqpAdmin
{
public:
    static Result<std::unique_ptr<AmqpAdmin>> connect(const AmqpOptions& options);

    // A durable exchange (topic by default: routing keys are topics, bindings may use wildcards).
    Status declareExchange(const QString& name, const QString& type = QStringLiteral("topic"));
    Status deleteExchange(const QString& name);
    // A durable queue bound to `exchange` with `bindingKey` (none when the exchange is empty);
    // `deadLetterExchange` sets x-dead-letter-exchange when not empty.
    Status declareQueue(const QString& queue, const QString& exchange = {}, const QString& bindingKey = {},
                        const QString& deadLetterExchange = {});
    Status deleteQueue(const QString& queue);
    // Messages ready in the queue (passive declare); an error when it does not exist.
    Result<qint64> messageCount(const QString& queue);
    // Whether the exchange exists (passive declare).
    Result<bool> exchangeExists(const QString& name);

private:
    explicit AmqpAdmin(std::unique_ptr<AmqpConnection> c) : m_connection(std::move(c)) {}
    // The channel after a refusal (the broker closes it): reopened for the next step.
    Status step(const QString& doing);
    Status ensureChannel();

    std::unique_ptr<AmqpConnection> m_connection;
    amqp_channel_t m_channel = 1;
    bool m_channelOpen = false;
};

} // namespace outbox
