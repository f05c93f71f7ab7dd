#include "core/broker/Publisher.h"

#include "core/broker/amqp/AmqpPublisher.h"
#include "core/broker/kafka/KafkaPublisher.h"

namespace outbox {

Publisher::~Publisher() = default;

Result<std::unique_ptr<Publisher>> Publisher::create(BrokerUrl::Kind kind, const QString& bootstrap,
                                                     const KafkaProperties& kafka, const AmqpOptions& amqp)
{
    switch (kind) {
    case BrokerUrl::Kind::Amqp: {
        auto p = AmqpPublisher::create(amqp);
        if (!p)
            return p.error();
        return std::unique_ptr<Publisher>(std::move(p).value());
    }
    case BrokerUrl::Kind::Kafka:
        break;
    }
    auto p = KafkaPublisher::create(bootstrap, kafka);
    if (!p)
        return p.error();
    return std::unique_ptr<Publisher>(std::move(p).value());
}

} // namespace outbox
