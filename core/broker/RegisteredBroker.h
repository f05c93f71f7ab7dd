#pragma once

#include <QString>

namespace outbox {

// The broker of a relay registry row (broker_kind "kafka" or "amqp", broker_address as the relay
// writes it: "127.0.0.1:9092", "mq:5672 vhost /") as a URL without credentials, for a printed
// command line (--broker=URL); empty when the kind is unknown or the address cannot be read back.
// The row keeps no user: an amqp:// URL made from it names none.
class RegisteredBroker
{
public:
    static QString url(const QString& kind, const QString& address);
};

} // namespace outbox
