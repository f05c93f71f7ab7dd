#pragma once

#include <QString>

namespace outbox {

// Whether a broker takes a name as a destination, decided before anything is sent (docs/contract.md,
// "topic"): an event the broker cannot take ends FAILED with this sentence instead of being sent to
// some broker that accepts it anyway (the embedded one did) or refused with a code.
class TopicName
{
public:
    // Kafka: letters, digits, '.', '_', '-', 1 to 249 characters, not "." or "..". Empty when valid.
    static QString kafkaProblem(const QString& topic);
    // AMQP routing keys are a short string: at most 255 bytes of UTF-8. Empty when valid.
    static QString amqpProblem(const QString& routingKey);
};

} // namespace outbox
