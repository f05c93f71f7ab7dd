#include "core/consumer/MessageSource.h"

#include "core/consumer/AmqpSource.h"
#include "core/consumer/KafkaSource.h"

namespace outbox {

MessageSource::~MessageSource() = default;

Result<std::unique_ptr<MessageSource>> MessageSource::create(const ConsumerOptions& options, Logger log)
{
    if (!log)
        log = [](const QString&) {};
    switch (options.broker) {
    case BrokerUrl::Kind::Amqp:
        return std::unique_ptr<MessageSource>(new AmqpSource(options, std::move(log)));
    case BrokerUrl::Kind::Kafka:
        break;
    }
    return std::unique_ptr<MessageSource>(new KafkaSource(options, std::move(log)));
}

} // namespace outbox
