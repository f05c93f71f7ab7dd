#pragma once

#include "core/broker/BrokerDemo.h"
#include "core/broker/MessageSource.h"
#include "core/broker/Publisher.h"
#include "core/support/Result.h"

#include <QString>
#include <QStringList>
#include <memory>

namespace outbox {

// One broker as the configuration names it (docs/architecture.md, "How a broker plugs in"): where
// it is, how to publish to it and read from it, and what its own settings allow. Each broker is a
// room of its own, core/broker/<name>/ (KafkaBroker, AmqpBroker), and BrokerRegistry picks one by
// the URL's scheme. RelayOptions and ConsumerOptions hold one; the relay, the replayer, the consumer
// and the front ends never ask which it is: what differs is answered here.
class Broker
{
public:
    virtual ~Broker();
    // Options are values: a copy of the options is a copy of their broker.
    virtual std::unique_ptr<Broker> clone() const = 0;

    // "Kafka", "RabbitMQ": for logs, relay pages and the doctor.
    virtual QString kindName() const = 0;
    // "kafka", "amqp": the relay registry's broker_kind (BrokerRegistry reads it back).
    virtual QString scheme() const = 0;
    // Where, for people and the relay registry, never credentials: "127.0.0.1:9092" or
    // "127.0.0.1:5672 vhost /"; empty when the configuration names no broker.
    virtual QString address() const = 0;
    // The URL without its password (for printed command lines); empty when none is configured.
    virtual QString redactedUrl() const = 0;
    // "Kafka 127.0.0.1:9092" or "RabbitMQ 127.0.0.1:5672 vhost /".
    QString text() const;

    // The relay's side: a new publisher (it does not wait for the broker: Publisher::probe() does),
    // the longest a published message may wait for its answer, and whether the broker's settings
    // keep every answer inside a lease of `leaseMs`.
    virtual Result<std::unique_ptr<Publisher>> publisher() const = 0;
    virtual qint64 deliveryDeadlineMs() const = 0;
    virtual Status validateForRelay(qint64 leaseMs) const = 0;
    // A second routing level after the topic, filled in like topic templates (RabbitMQ: the
    // exchange); empty when the broker has none.
    virtual QString exchangeTemplate() const { return {}; }
    // How the broker's client names itself to the broker (Kafka client.id); brokers without such a
    // name ignore it.
    virtual void setClientId(const QString& clientId) { (void)clientId; }

    // The consumer's side: a new source reading what the configuration names (Kafka: the settings'
    // topics; RabbitMQ: [consumer] queue), whether that is complete and safe, and where it reads, for logs.
    virtual Result<std::unique_ptr<MessageSource>> source(const MessageSource::Settings& settings,
                                                          MessageSource::Logger log) const = 0;
    virtual Status validateForConsumer(const MessageSource::Settings& settings) const = 0;
    virtual QString sourceText(const MessageSource::Settings& settings) const = 0;

    // Whether exchanges are declared by hand before the relay publishes (RabbitMQ: the relay declares
    // nothing by itself), and declaring one: what was declared, for people.
    virtual bool declaresExchanges() const { return false; }
    virtual Result<QString> declareExchange(const QString& exchange) const;

    // `outboxctl demo`: the broker ready for the demonstration. Events on `route` reach the consumer
    // `consumerName` (Kafka: a topic of `partitions` partitions), events on `refusedRoute` are refused
    // by the broker (FAILED), and where the broker can be told, messages over `maxMessageBytes` too.
    // Kafka starts an embedded broker for it; RabbitMQ declares the exchange and the consumer's queue.
    virtual Result<BrokerDemo> prepareDemo(const QString& route, int partitions, const QString& refusedRoute,
                                           const QString& consumerName, qint64 maxMessageBytes) const = 0;
};

} // namespace outbox
