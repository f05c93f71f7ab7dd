#pragma once

#include "core/broker/BrokerUrl.h"

#include <QString>

namespace outbox {

// How to reach RabbitMQ and what to publish to or read from ([broker] url, [amqp], [consumer] queue).
struct AmqpOptions
{
    BrokerUrl url; // amqp:// or amqps://, the password filled in by core/config
    // The exchange events are published to; {aggregate_type} and {event_type} are filled in as in
    // topic templates. The routing key is the event's topic.
    QString exchange = QStringLiteral("outbox");
    QString queue;     // the consumer's queue
    int window = 1000; // unconfirmed publishes in flight on the channel
    QString caFile;    // amqps: the CA certificate (PEM) that signed the broker's
    int connectTimeoutMs = 5000;
    // A publish unconfirmed for this long is reported as an unknown outcome (retried, same message_id).
    qint64 confirmTimeoutMs = 20000;
    // 0: none. rabbitmq-c answers heartbeats only inside its calls, and an idle relay or a consumer inside
    // a long handler makes none for minutes: the broker would close a healthy connection.
    int heartbeatSeconds = 0;
};

} // namespace outbox
