#include "core/broker/Publisher.h"

#include "core/broker/AmqpPublisher.h"
#include "core/broker/KafkaPublisher.h"
#include "core/relay/RelayOptions.h"

namespace outbox {

Publisher::~Publisher() = default;

Result<std::unique_ptr<Publisher>> Publisher::create(const RelayOptions& options)
{
    switch (options.broker) {
    case BrokerUrl::Kind::Amqp: {
        auto p = AmqpPublisher::create(options.amqp);
        if (!p)
            return p.error();
        return std::unique_ptr<Publisher>(std::move(p).value());
    }
    case BrokerUrl::Kind::Kafka:
        break;
    }
    auto p = KafkaPublisher::create(options.bootstrap, options.kafka);
    if (!p)
        return p.error();
    return std::unique_ptr<Publisher>(std::move(p).value());
}

} // namespace outbox
