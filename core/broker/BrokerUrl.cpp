#include "core/broker/BrokerUrl.h"

#include "core/support/TypedUrl.h"

#include <QRegularExpression>
#include <QUrl>

namespace outbox {

namespace {

Error bad(const QString& text, const QString& why)
{
    // Never the password, whatever the URL's shape (a typo once echoed it twice: in the URL and in
    // QUrl's sentence quoting it).
    return Error::usage(QStringLiteral("invalid broker URL \"%1\": %2")
                            .arg(TypedUrl::shown(text).left(200), TypedUrl::scrubbed(why, text)))
        .about(QStringLiteral("broker.url"));
}

} // namespace

Result<BrokerUrl> BrokerUrl::parse(const QString& input)
{
    const QString text = input.trimmed();
    if (text.isEmpty())
        return Error::usage(
                   QStringLiteral("no broker URL given (kafka://host:port or amqp://user@host:5672/vhost)"))
            .about(QStringLiteral("broker.url"));
    const int sep = text.indexOf(QLatin1String("://"));
    if (sep <= 0)
        return bad(text,
                   QStringLiteral("it needs a scheme: kafka://host:port or amqp://user@host:5672/vhost"));
    const QString scheme = text.left(sep).toLower();
    BrokerUrl url;
    if (scheme == QLatin1String("kafka")) {
        url.kind = Kind::Kafka;
        static const QRegularExpression hostPort(
            QStringLiteral("^(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9._-]+):[0-9]{1,5}$"));
        const QStringList hosts = text.mid(sep + 3).split(QLatin1Char(','), Qt::SkipEmptyParts);
        if (hosts.isEmpty())
            return bad(text, QStringLiteral("kafka:// needs host:port[,host:port…]"));
        QStringList clean;
        for (const QString& h : hosts) {
            const QString t = h.trimmed();
            if (!hostPort.match(t).hasMatch())
                return bad(text, QStringLiteral("\"%1\" is not host:port").arg(t.left(100)));
            const int port = t.section(QLatin1Char(':'), -1).toInt();
            if (port < 1 || port > 65535)
                return bad(text, QStringLiteral("port %1 is out of range").arg(port));
            clean << t;
        }
        url.bootstrap = clean.join(QLatin1Char(','));
        return url;
    }
    if (scheme != QLatin1String("amqp") && scheme != QLatin1String("amqps"))
        return bad(text, QStringLiteral("unknown scheme \"%1\" (kafka, amqp or amqps)").arg(scheme.left(40)));
    url.kind = Kind::Amqp;
    url.tls = scheme == QLatin1String("amqps");
    const QUrl parsed(text, QUrl::StrictMode);
    if (!parsed.isValid())
        return bad(text, parsed.errorString());
    if (parsed.host().isEmpty())
        return bad(text, QStringLiteral("it has no host"));
    if (parsed.hasQuery() || parsed.hasFragment())
        return bad(text, QStringLiteral("query parameters and fragments are not supported"));
    url.host = parsed.host();
    url.port = parsed.port(url.tls ? 5671 : 5672);
    if (url.port < 1 || url.port > 65535)
        return bad(text, QStringLiteral("port out of range"));
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
        return bad(text, QStringLiteral("a vhost with / is written %2f"));
    return url;
}

QString BrokerUrl::redacted() const
{
    if (kind == Kind::Kafka)
        return QStringLiteral("kafka://") + bootstrap;
    QUrl u;
    u.setScheme(tls ? QStringLiteral("amqps") : QStringLiteral("amqp"));
    u.setUserName(user);
    u.setHost(host);
    u.setPort(port);
    QString out = u.toString(QUrl::FullyEncoded);
    out += QLatin1Char('/') + QString::fromUtf8(QUrl::toPercentEncoding(vhost));
    return out;
}

QString BrokerUrl::kindName() const
{
    return kind == Kind::Amqp ? QStringLiteral("RabbitMQ") : QStringLiteral("Kafka");
}

QString BrokerUrl::address() const
{
    if (kind == Kind::Kafka)
        return bootstrap;
    const QString h = host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    return QStringLiteral("%1:%2 vhost %3").arg(h).arg(port).arg(vhost);
}

} // namespace outbox
