#pragma once

#include "core/support/Result.h"

#include <QString>

namespace outbox {

// Which broker and where ([broker] url): a scheme that names the broker (BrokerRegistry), then what
// that broker reads after "://" (core/broker/<name>/): kafka://host:port[,host:port…],
// amqp://user@host[:5672][/vhost], amqps://… A password may stand in the URL only where the URL is
// not a command-line argument.
class BrokerUrl
{
public:
    // The scheme in lower case ("kafka", "amqp"); a usage error when the text has none.
    static Result<QString> scheme(const QString& text);
    // A usage error about broker.url that shows the URL without its password, whatever its shape.
    static Error invalid(const QString& text, const QString& why);
};

} // namespace outbox
