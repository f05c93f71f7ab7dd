#include "core/broker/RegisteredBroker.h"

#include "core/broker/BrokerUrl.h"

#include <QRegularExpression>

namespace outbox {

QString RegisteredBroker::url(const QString& kind, const QString& address)
{
    const QString where = address.trimmed();
    if (where.isEmpty())
        return {};
    if (kind == QLatin1String("kafka")) {
        auto url = BrokerUrl::parse(QStringLiteral("kafka://") + where);
        return url ? url->redacted() : QString();
    }
    if (kind != QLatin1String("amqp"))
        return {};
    // BrokerUrl::address() of an amqp:// URL: "host:port vhost V" (an IPv6 host in brackets).
    static const QRegularExpression form(
        QStringLiteral("^(\\[[^\\]]+\\]|[^\\s:\\[\\]]+):([0-9]{1,5}) vhost (.+)$"));
    const QRegularExpressionMatch m = form.match(where);
    if (!m.hasMatch())
        return {};
    BrokerUrl url;
    url.kind = BrokerUrl::Kind::Amqp;
    url.host = m.captured(1);
    if (url.host.startsWith(QLatin1Char('[')))
        url.host = url.host.mid(1, url.host.size() - 2);
    url.port = m.captured(2).toInt();
    url.vhost = m.captured(3);
    return url.port < 1 || url.port > 65535 ? QString() : url.redacted();
}

} // namespace outbox
