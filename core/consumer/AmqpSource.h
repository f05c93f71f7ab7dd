#pragma once

#include "core/broker/amqp/AmqpConnection.h"
#include "core/consumer/MessageSource.h"

#include <QElapsedTimer>
#include <memory>

namespace outbox {

// Consumes a RabbitMQ queue ([consumer] queue) with manual acknowledgements: basic.qos sized to the
// consumer's batch, basic.ack (multiple) only after the inbox transaction committed, basic.reject
// without requeue for a message the consumer dead-lettered (so a queue's own x-dead-letter-exchange
// takes it as well). A lost connection is opened again on the next poll; what was delivered and
// not acknowledged on the old one comes again, flagged redelivered, and the inbox counts it as a
// duplicate.
class AmqpSource final : public MessageSource
{
public:
    AmqpSource(ConsumerOptions options, Logger log) : m_options(std::move(options)), m_log(std::move(log)) {}
    ~AmqpSource() override;

    Status open() override;
    QVector<InboxMessage> poll(int max, int firstWaitMs, int moreWaitMs) override;
    Status acknowledge(const QVector<InboxMessage>& messages, int from, int to) override;
    Status deadLettered(const InboxMessage& message) override;
    void close() override;

private:
    InboxMessage decode(const amqp_envelope_t& envelope) const;
    void lost(const QString& why);

    ConsumerOptions m_options;
    Logger m_log;
    std::unique_ptr<AmqpConnection> m_connection;
    quint64 m_epoch = 0;
    QString m_lastError;
    QElapsedTimer m_sinceAttempt;
};

} // namespace outbox
