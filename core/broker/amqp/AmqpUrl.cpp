#include "core/broker/amqp/AmqpUrl.h"

#include "core/broker/BrokerUrl.h"

#include <QUrl>

namespace outbox {

Result<AmqpUrl> AmqpUrl::parse(const QString& input)
{
    const QString text = input.trimmed();
    auto scheme = BrokerUrl::scheme(text);
    if (!scheme)
        return scheme.error();
    if (*scheme != QLatin1String("amqp") && *scheme != QLatin1String("amqps"))
        return BrokerUrl::invalid(text, QStringLiteral("RabbitMQ's URL is amqp:// or amqps://"));
    AmqpUrl url;
    url.tls = *scheme == QLatin1String("amqps");
    const QUrl parsed(text, QUrl::StrictMode);
    if (!parsed.isValid())
        return BrokerUrl::invalid(text, parsed.errorString());
    if (parsed.host().isEmpty())
        return BrokerUrl::invalid(text, QStringLiteral("it has no host"));
    if (parsed.hasQuery() || parsed.hasFragment())
        return BrokerUrl::invalid(text, QStringLiteral("query parameters and fragments are not supported"));
    url.host = parsed.host();
    url.port = parsed.port(url.tls ? 5671 : 5672);
    if (url.port < 1 || url.port > 65535)
        return BrokerUrl::invalid(text, QStringLiteral("port out of range"));
    url.user = parsed.userName(QUrl::FullyDecoded);
    if (url.user.isEmpty())
        url.user = QStringLiteral("guest");
    url.password = parsed.password(QUrl::FullyDecoded);
    const QString path = parsed.path(QUrl::FullyEncoded);
    url.vhost = path.isEmpty() || path == QLatin1String("/")
                    ? QStringLiteral("/")
                    : QUrl::fromPercentEncoding(path.mid(1).toUtf8());
    if (url.vhost.contains(QLatin1Char('/')) && url.vhost != QLatin1String("/") &&
        path.mid(1).contains(QLatin1Char('/')))
        return BrokerUrl::invalid(text, QStringLiteral("a vhost with / is written %2f"));
    return url;
}

QString AmqpUrl::redacted() const
{
    QUrl u;
    u.setScheme(tls ? QStringLiteral("amqps") : QStringLiteral("amqp"));
    u.setUserName(user);
    u.setHost(host);
    u.setPort(port);
    QString out = u.toString(QUrl::FullyEncoded);
    out += QLatin1Char('/') + QString::fromUtf8(QUrl::toPercentEncoding(vhost));
    return out;
}

QString AmqpUrl::address() const
{
    const QString h = host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    return QStringLiteral("%1:%2 vhost %3").arg(h).arg(port).arg(vhost);
}

} // namespace outbox
