#pragma once

#include "core/broker/BrokerUrl.h"
#include "core/broker/amqp/AmqpOptions.h"
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

// The broker the configuration names as a URL without its password (kafka://HOST:PORT or
// amqp://user@host:port/vhost), for a printed command line (the password comes from the
// configuration or the environment); empty when no broker is configured or its URL is invalid.
QString configuredBrokerUrl(const config::Config& config);

} // namespace outbox
