#include "ui/web/WebConfig.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>
#include <QUrl>

namespace outbox::web {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("outbox::web::WebConfig", text);
}

// QSettings splits unquoted values at commas; join them back before splitting ourselves.
QStringList listValue(const QVariant& value)
{
    QStringList items;
    const QStringList raw = value.typeId() == QMetaType::QStringList
                                ? value.toStringList()
                                : value.toString().split(QLatin1Char(','));
    for (const QString& item : raw)
        if (!item.trimmed().isEmpty())
            items << item.trimmed();
    return items;
}

} // namespace

bool WebConfig::isLoopbackOnly() const
{
    return address.isLoopback();
}

Status WebConfig::setListen(const QString& text)
{
    static const QRegularExpression pattern(
        QStringLiteral("^(?:\\[([0-9a-fA-F:.]+)\\]|([^:\\[\\]]*))?:?(\\d{1,5})$"));
    const auto m = pattern.match(text.trimmed());
    bool ok = false;
    const uint number = m.hasMatch() ? m.captured(3).toUInt(&ok) : 0;
    if (!m.hasMatch() || !ok || number == 0 || number > 65535)
        return Error::usage(
            tr("invalid listen address \"%1\" (expected host:port, e.g. 127.0.0.1:8080)").arg(text));
    QString host = m.captured(1).isEmpty() ? m.captured(2) : m.captured(1);
    if (host.isEmpty() || host == QLatin1String("localhost"))
        host = QStringLiteral("127.0.0.1");
    QHostAddress parsed;
    if (!parsed.setAddress(host))
        return Error::usage(
            tr("invalid listen host \"%1\" (give an IP address such as 127.0.0.1 or 0.0.0.0)").arg(host));
    address = parsed;
    port = quint16(number);
    return {};
}

Result<QString> WebConfig::normalizeOrigin(const QString& text)
{
    const QUrl url(text.trimmed(), QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || (scheme != QLatin1String("http") && scheme != QLatin1String("https")) ||
        url.host().isEmpty() || !url.userInfo().isEmpty() || url.hasQuery() || url.hasFragment() ||
        (!url.path().isEmpty() && url.path() != QLatin1String("/")))
        return Error::usage(
            tr("invalid origin \"%1\" in allowed_origins (expected scheme://host[:port], e.g. "
               "https://noc.example.com)")
                .arg(text));
    const int defaultPort = scheme == QLatin1String("https") ? 443 : 80;
    QString host = url.host(QUrl::FullyEncoded).toLower();
    if (host.contains(QLatin1Char(':')))
        host = QLatin1Char('[') + host + QLatin1Char(']');
    QString origin = scheme + QStringLiteral("://") + host;
    if (url.port(defaultPort) != defaultPort)
        origin += QLatin1Char(':') + QString::number(url.port());
    return origin;
}

Result<ApiToken> WebConfig::parseToken(const QString& name, const QString& value)
{
    static const QRegularExpression pattern(QStringLiteral("^(viewer|operator):([0-9a-f]{64})$"));
    const auto m = pattern.match(value.trimmed().toLower());
    if (name.trimmed().isEmpty() || !m.hasMatch())
        return Error::usage(
            tr("invalid token entry \"%1\" (expected NAME = viewer:SHA256HEX or operator:SHA256HEX)")
                .arg(name));
    ApiToken t;
    t.name = name.trimmed();
    t.role = m.captured(1) == QLatin1String("operator") ? Role::Operator : Role::Viewer;
    t.sha256Hex = m.captured(2).toLatin1();
    return t;
}

Result<WebConfig> WebConfig::fromFile(const QString& path)
{
    WebConfig config;
    if (path.isEmpty())
        return config;
    if (!QFileInfo(path).isReadable())
        return Error::usage(tr("cannot read the configuration file %1").arg(path));
    QSettings settings(path, QSettings::IniFormat);
    if (settings.status() != QSettings::NoError)
        return Error::usage(tr("the configuration file %1 is malformed").arg(path));

    settings.beginGroup(QStringLiteral("web"));
    if (settings.contains(QStringLiteral("listen"))) {
        Status s =
            config.setListen(listValue(settings.value(QStringLiteral("listen"))).join(QLatin1Char(',')));
        if (!s)
            return s.error();
    }
    config.publicDashboard = settings.value(QStringLiteral("public_dashboard"), false).toBool();
    config.maskedFields = listValue(settings.value(QStringLiteral("mask_fields")));
    if (settings.contains(QStringLiteral("mask_patterns"))) {
        // Each comma-separated value is one pattern; quote a pattern that contains a comma.
        config.maskPatterns.clear();
        const QVariant raw = settings.value(QStringLiteral("mask_patterns"));
        const QStringList parts =
            raw.typeId() == QMetaType::QStringList ? raw.toStringList() : QStringList{raw.toString()};
        for (const QString& part : parts) {
            const QString pattern = part.trimmed();
            if (pattern.isEmpty())
                continue;
            if (pattern != QLatin1String("card-numbers") && !QRegularExpression(pattern).isValid())
                return Error::usage(tr("invalid regular expression \"%1\" in mask_patterns: %2")
                                        .arg(pattern, QRegularExpression(pattern).errorString()));
            config.maskPatterns << pattern;
        }
    }
    for (const QString& origin : listValue(settings.value(QStringLiteral("allowed_origins")))) {
        auto normalized = normalizeOrigin(origin);
        if (!normalized)
            return normalized.error();
        config.allowedOrigins << *normalized;
    }
    config.unconsumedConsumers = listValue(settings.value(QStringLiteral("reconcile_consumers")));
    config.tlsCertificateFile = settings.value(QStringLiteral("tls_cert")).toString();
    config.tlsKeyFile = settings.value(QStringLiteral("tls_key")).toString();
    config.chartJsFile = settings.value(QStringLiteral("chartjs")).toString();
    if (settings.contains(QStringLiteral("sample_interval_ms"))) {
        bool ok = false;
        config.sampleIntervalMs = settings.value(QStringLiteral("sample_interval_ms")).toInt(&ok);
        if (!ok || config.sampleIntervalMs < 100 || config.sampleIntervalMs > 600000)
            return Error::usage(tr("sample_interval_ms must be a number between 100 and 600000"));
    }
    settings.endGroup();

    settings.beginGroup(QStringLiteral("tokens"));
    for (const QString& name : settings.childKeys()) {
        auto token = parseToken(name, listValue(settings.value(name)).join(QLatin1Char(',')));
        if (!token)
            return token.error();
        config.tokens << *token;
    }
    settings.endGroup();
    return config;
}

} // namespace outbox::web
