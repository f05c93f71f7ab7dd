#pragma once

#include "core/support/Result.h"

#include <QString>

namespace outbox {

// Where RabbitMQ is ([broker] url): amqp://user@host[:5672][/vhost], amqps:// for TLS (port 5671).
// The vhost is percent-decoded ("%2f" and an empty path are "/"). A password may stand in the URL
// only where the URL is not a command-line argument; AmqpBroker takes it from [broker] password
// (OUTBOX_BROKER_PASSWORD) or [amqp] password_file otherwise.
struct AmqpUrl
{
    bool tls = false; // amqps
    QString host;
    int port = 0;
    QString user;
    QString password;
    QString vhost;

    static Result<AmqpUrl> parse(const QString& text);
    // The URL without its password (safe for logs, pages and child command lines).
    QString redacted() const;
    // Where, for people: "127.0.0.1:5672 vhost /".
    QString address() const;
};

} // namespace outbox
