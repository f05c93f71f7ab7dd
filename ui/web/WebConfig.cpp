#include "ui/web/WebConfig.h"

#include "ui/web/http/MemberScopeWords.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QUrl>

namespace outbox::web {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("outbox::web::WebConfig", text);
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
    // ROLE:SHA256HEX, then optionally members=SELECTORS and operator=SELECTORS (fleet members by
    // name or tag, comma-separated).
    static const QRegularExpression pattern(QStringLiteral("^(viewer|operator):([0-9a-f]{64})$"));
    const QStringList words =
        value.trimmed().split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    const auto m = pattern.match(words.value(0).toLower());
    const auto invalid = [&name](const QString& why) {
        return Error::usage(tr("invalid token entry \"%1\": %2 (expected NAME = viewer:SHA256HEX or "
                               "operator:SHA256HEX, then optionally members=SELECTORS and operator=SELECTORS "
                               "of fleet members by name or tag)")
                                .arg(name, why));
    };
    if (name.trimmed().isEmpty() || !m.hasMatch())
        return invalid(tr("no role and hash"));
    ApiToken t;
    t.name = name.trimmed();
    t.role = m.captured(1) == QLatin1String("operator") ? Role::Operator : Role::Viewer;
    t.sha256Hex = m.captured(2).toLatin1();
    auto scope = MemberScopeWords::parse(words.mid(1), t.role);
    if (!scope)
        return invalid(scope.message());
    t.scope = *scope;
    return t;
}

Result<WebConfig> WebConfig::fromFile(const QString& path)
{
    config::ConfigInputs inputs;
    inputs.file = path;
    auto loaded = config::Config::load(inputs);
    if (!loaded)
        return loaded.error();
    return fromConfig(*loaded);
}

Result<WebConfig> WebConfig::fromConfig(const config::Config& c)
{
    WebConfig config;
    const QString listen = QStringLiteral("web.listen");
    if (Status s = config.setListen(c.value(listen)); !s)
        return c.located(listen, s.error());
    config.publicDashboard = c.boolean(QStringLiteral("web.public_dashboard"));
    config.maskedFields = c.list(QStringLiteral("web.mask_fields"));
    const QString patterns = QStringLiteral("web.mask_patterns");
    config.maskPatterns = c.list(patterns);
    for (const QString& pattern : config.maskPatterns) {
        const QRegularExpression re(pattern);
        if (pattern != QLatin1String("card-numbers") && !re.isValid())
            return c.located(
                patterns,
                Error::usage(tr("invalid regular expression \"%1\": %2").arg(pattern, re.errorString())));
    }
    const QString origins = QStringLiteral("web.allowed_origins");
    for (const QString& origin : c.list(origins)) {
        auto normalized = normalizeOrigin(origin);
        if (!normalized)
            return c.located(origins, normalized.error());
        config.allowedOrigins << *normalized;
    }
    config.unconsumedConsumers = c.list(QStringLiteral("web.reconcile_consumers"));
    config.consumerLag.bootstrap = c.value(QStringLiteral("kafka.bootstrap"));
    if (c.isSet(QStringLiteral("consumer.topics")))
        config.consumerLag.topics = c.list(QStringLiteral("consumer.topics"));
    for (const config::Setting& p : c.kafkaProperties())
        config.consumerLag.kafka.insert(p.key, p.value);
    config.tlsCertificateFile = c.value(QStringLiteral("web.tls_cert"));
    config.tlsKeyFile = c.value(QStringLiteral("web.tls_key"));
    config.chartJsFile = c.value(QStringLiteral("web.chartjs"));
    config.sampleIntervalMs = int(c.integer(QStringLiteral("web.sample_interval_ms")));
    for (const config::Setting& entry : c.tokens()) {
        auto token = parseToken(entry.key, entry.value);
        if (!token) // the message names the entry, never its value
            return c.located(QStringLiteral("tokens.") + entry.key, token.error());
        config.tokens << *token;
    }
    config.findingsIntervalMs = int(c.integer(QStringLiteral("web.findings_interval_ms")));
    config.maxConnectionsPerAddress = int(c.integer(QStringLiteral("web.max_connections_per_address")));
    config.maxResponseBytes = c.integer(QStringLiteral("web.max_response_bytes"));
    config.maxPendingResponseBytes = c.integer(QStringLiteral("web.max_pending_response_bytes"));
    auto oidc = OidcSettings::fromConfig(c);
    if (!oidc)
        return oidc.error();
    config.oidc = *oidc;
    config.doctor = DiagnosisOptions::fromConfig(c);
    if (Status s = config.doctor.validate(); !s)
        return s.error();
    return config;
}

} // namespace outbox::web
