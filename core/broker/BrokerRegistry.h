#pragma once

#include "core/broker/Broker.h"
#include "core/support/Result.h"

#include <QString>
#include <QStringList>
#include <memory>

namespace outbox::config {
class Config;
}

namespace outbox {

// The brokers this build knows, one entry each (docs/architecture.md, "How a broker plugs in"),
// chosen by the scheme of [broker] url: kafka:// (KafkaBroker; [kafka] bootstrap is its synonym) or
// amqp:// and amqps:// (AmqpBroker). Nothing else names a broker kind: the relay's and the consumer's
// options hold the Broker this returns, and a relay registry row is read back through it.
class BrokerRegistry
{
public:
    // The broker the configuration names ([broker] url, or [kafka] bootstrap, its synonym for Kafka,
    // whichever was given with more weight), with its own sections read; with neither, a Kafka broker
    // without bootstrap servers (validation says what is missing).
    static Result<std::unique_ptr<Broker>> fromConfig(const config::Config& config);
    // The broker a URL names, with its own defaults for everything else (no password but the URL's).
    static Result<std::unique_ptr<Broker>> fromUrl(const QString& url);
    // The configured broker's URL without its password, for a printed command line (the password
    // comes from the configuration or the environment); empty when none is configured or it is invalid.
    static QString configuredUrl(const config::Config& config);
    // What options hold until a broker is set: the first broker (Kafka) without an address.
    static std::unique_ptr<Broker> unconfigured();

    // A relay registry row (broker_kind, broker_address) for people: "Kafka 127.0.0.1:9092",
    // "RabbitMQ mq:5672 vhost /"; an unknown kind as it is.
    static QString describe(const QString& kind, const QString& address);
    // The URL a relay registered, to publish there again: empty when the row cannot tell (RabbitMQ
    // rows record where, not the user to log in as).
    static QString urlFromRegistryRow(const QString& kind, const QString& address);
};

} // namespace outbox
