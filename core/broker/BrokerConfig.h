#pragma once

#include "core/broker/AmqpOptions.h"
#include "core/broker/BrokerUrl.h"
#include "core/support/Result.h"

#include <QString>

namespace outbox::config {
class Config;
}

namespace outbox {

// The broker the configuration names: [broker] url (or [kafka] bootstrap, its synonym for Kafka).
// For RabbitMQ the AMQP options with the password ([broker] password or [amqp] password_file; never
// from a flag). Relay and consumer options take theirs from here.
Status brokerFromConfig(const config::Config& config, BrokerUrl::Kind& kind, QString& bootstrap,
                        AmqpOptions& amqp);

} // namespace outbox
