#pragma once

#include "core/broker/Broker.h"
#include "core/broker/amqp/AmqpOptions.h"

#include <QString>

namespace outbox::config {
class Config;
}

namespace outbox {

// RabbitMQ ([broker] url amqp://user@host:5672/vhost or amqps://…): the relay's confirming
// publisher (AmqpPublisher on [amqp] exchange and window), the consumer's queue (AmqpSource on
// [consumer] queue) and the declarations an operator asks for (AmqpAdmin).
class AmqpBroker final : public Broker
{
public:
    explicit AmqpBroker(AmqpOptions options) : m_options(std::move(options)) {}
    // `url` is the amqp:// URL the registry parsed; the password comes from [broker] password or
    // [amqp] password_file, never from a URL given as a flag.
    static Result<std::unique_ptr<AmqpBroker>> fromConfig(const config::Config& config, AmqpUrl url);

    AmqpOptions& options() { return m_options; }
    const AmqpOptions& options() const { return m_options; }

    std::unique_ptr<Broker> clone() const override;
    QString kindName() const override;
    QString scheme() const override;
    QString address() const override;
    QString redactedUrl() const override;
    Result<std::unique_ptr<Publisher>> publisher() const override;
    qint64 deliveryDeadlineMs() const override;
    Status validateForRelay(qint64 leaseMs) const override;
    QString exchangeTemplate() const override;
    Result<std::unique_ptr<MessageSource>> source(const MessageSource::Settings& settings,
                                                  MessageSource::Logger log) const override;
    Status validateForConsumer(const MessageSource::Settings& settings) const override;
    QString sourceText(const MessageSource::Settings& settings) const override;
    Result<BrokerDemo> prepareDemo(const QString& route, int partitions, const QString& refusedRoute,
                                   const QString& consumerName, qint64 maxMessageBytes) const override;
    bool declaresExchanges() const override { return true; }
    Result<QString> declareExchange(const QString& exchange) const override;

private:
    Status validateUrl() const;

    AmqpOptions m_options;
};

} // namespace outbox
