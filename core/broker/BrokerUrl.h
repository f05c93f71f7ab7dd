#pragma once

#include "core/support/Result.h"

#include <QString>

namespace outbox {

// Which broker and where ([broker] url):
//   kafka://host:port[,host:port…]           Kafka bootstrap servers
//   amqp://user@host[:5672][/vhost]          RabbitMQ (AMQP 0-9-1); amqps:// for TLS (port 5671)
// The vhost is percent-decoded ("%2f" and an empty path are "/"). A password may stand in the URL
// only where the URL is not a command-line argument; core/config takes it from [broker] password
// (OUTBOX_BROKER_PASSWORD) or [amqp] password_file otherwise.
struct BrokerUrl
{
    enum class Kind { Kafka, Amqp };
    Kind kind = Kind::Kafka;
    QString bootstrap; // Kafka
    bool tls = false;  // amqps
    QString host;
    int port = 0;
    QString user;
    QString password;
    QString vhost;

    static Result<BrokerUrl> parse(const QString& text);
    // The URL without its password (safe for logs, pages and child command lines).
    QString redacted() const;
    // "Kafka" or "RabbitMQ".
    QString kindName() const;
    // Where, for people: "127.0.0.1:9092" or "127.0.0.1:5672 vhost /".
    QString address() const;
};

} // namespace outbox
