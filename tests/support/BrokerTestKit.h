#pragma once

#include "core/broker/amqp/AmqpBroker.h"
#include "core/broker/kafka/KafkaBroker.h"
#include "core/consumer/ConsumerOptions.h"
#include "core/relay/RelayOptions.h"

#include <memory>

namespace outbox::test {

// Tests set a broker's own settings directly (production reads them from the configuration).
inline std::unique_ptr<Broker> kafkaAt(const QString& bootstrap)
{
    return std::make_unique<KafkaBroker>(bootstrap);
}
inline std::unique_ptr<Broker> rabbitWith(const AmqpOptions& options)
{
    return std::make_unique<AmqpBroker>(options);
}
// The producer properties of a relay's Kafka broker (it must be one).
inline KafkaProperties& kafkaProducer(RelayOptions& o)
{
    return o.broker.as<KafkaBroker>()->producer();
}
inline const KafkaProperties& kafkaProducer(const RelayOptions& o)
{
    return o.broker.as<KafkaBroker>()->producer();
}
// The extra librdkafka properties of a consumer's Kafka broker.
inline QMap<QString, QString>& kafkaConsumer(ConsumerOptions& o)
{
    return o.broker.as<KafkaBroker>()->consumer();
}
inline AmqpOptions& amqpOf(ConsumerOptions& o)
{
    return o.broker.as<AmqpBroker>()->options();
}
inline const AmqpOptions& amqpOf(const RelayOptions& o)
{
    return o.broker.as<AmqpBroker>()->options();
}

} // namespace outbox::test
