#include "core/broker/BrokerUrl.h"

#include "core/support/TypedUrl.h"

namespace outbox {

Error BrokerUrl::invalid(const QString& text, const QString& why)
{
    // Never the password, whatever the URL's shape (a typo once echoed it twice: in the URL and in
    // QUrl's sentence quoting it).
    return Error::usage(QStringLiteral("invalid broker URL \"%1\": %2")
                            .arg(TypedUrl::shown(text).left(200), TypedUrl::scrubbed(why, text)))
        .about(QStringLiteral("broker.url"));
}

Result<QString> BrokerUrl::scheme(const QString& input)
{
    const QString text = input.trimmed();
    if (text.isEmpty())
        return Error::usage(
                   QStringLiteral("no broker URL given (kafka://host:port or amqp://user@host:5672/vhost)"))
            .about(QStringLiteral("broker.url"));
    const int sep = text.indexOf(QLatin1String("://"));
    if (sep <= 0)
        return invalid(text,
                       QStringLiteral("it needs a scheme: kafka://host:port or amqp://user@host:5672/vhost"));
    return text.left(sep).toLower();
}

} // namespace outbox
