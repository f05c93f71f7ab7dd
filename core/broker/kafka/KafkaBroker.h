#pragma once

#include "core/broker/Broker.h"
#include "core/broker/kafka/KafkaProperties.h"

#include <QMap>
#include <QString>

namespace outbox::config {
class Config;
}

namespace outbox {

// Kafka ([broker] url kafka://host:port,… or [kafka] bootstrap): the relay's idempotent producer
// (KafkaPublisher with KafkaProperties), the consumer's group member (KafkaSource on [consumer]
// topics) and the [kafka] librdkafka properties of both.
class KafkaBroker final : public Broker
{
public:
    // `bootstrap` may be empty: then no broker is configured, and validation says so.
    explicit KafkaBroker(QString bootstrap = {}) : m_bootstrap(std::move(bootstrap)) {}
    // [kafka] bootstrap or the kafka:// URL the registry parsed, and the [kafka] properties.
    static Result<std::unique_ptr<KafkaBroker>> fromConfig(const config::Config& config,
                                                           const QString& bootstrap);
    // The bootstrap servers of kafka://host:port[,host:port…].
    static Result<QString> parseUrl(const QString& text);
    // The broker a relay registered (its relay registry row): the URL to publish there again.
    static QString urlFromRegistryRow(const QString& address);

    QString bootstrap() const { return m_bootstrap; }
    // The producer's properties (validated as they are set) and the consumer's extra ones (checked
    // by validateForConsumer()).
    KafkaProperties& producer() { return m_producer; }
    const KafkaProperties& producer() const { return m_producer; }
    QMap<QString, QString>& consumer() { return m_consumer; }

    std::unique_ptr<Broker> clone() const override;
    QString kindName() const override;
    QString scheme() const override;
    QString address() const override;
    QString redactedUrl() const override;
    Result<std::unique_ptr<Publisher>> publisher() const override;
    qint64 deliveryDeadlineMs() const override;
    Status validateForRelay(qint64 leaseMs) const override;
    void setClientId(const QString& clientId) override;
    Result<std::unique_ptr<MessageSource>> source(const MessageSource::Settings& settings,
                                                  MessageSource::Logger log) const override;
    Status validateForConsumer(const MessageSource::Settings& settings) const override;
    QString sourceText(const MessageSource::Settings& settings) const override;
    Result<BrokerDemo> prepareDemo(const QString& route, int partitions, const QString& refusedRoute,
                                   const QString& consumerName, qint64 maxMessageBytes) const override;

private:
    QString m_bootstrap;
    KafkaProperties m_producer;
    QMap<QString, QString> m_consumer;
    // A [kafka] property the producer refuses (acks=1): the relay reports it, a consumer does not care.
    Status m_producerRefusal;
};

} // namespace outbox
