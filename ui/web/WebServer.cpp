#include "ui/web/WebServer.h"

#include "core/metrics/MetricsSampler.h"
#include "ui/web/ApiCall.h"
#include "ui/web/DashboardHub.h"
#include "ui/web/DatabaseWorkerPool.h"
#include "ui/web/PrometheusExposition.h"
#include "ui/web/WebApi.h"

#include <QFile>
#include <QHttpServerRequest>
#include <QHttpServerResponse>
#include <QPointer>
#include <QTcpSocket>

#if QT_CONFIG(ssl)
#include <QSslCertificate>
#include <QSslKey>
#endif

namespace outbox::web {

namespace {

QByteArray headerValue(const QHttpServerRequest& request, const QByteArray& name)
{
    for (const auto& h : request.headers())
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    return {};
}

const QByteArray ContentSecurityPolicy = QByteArrayLiteral(
    "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; style-src 'self'; "
    "frame-ancestors 'none'");

} // namespace

WebServer::WebServer(WebConfig config, DatabaseUrl url, QString tablePrefix, QObject* parent)
    : QObject(parent), m_config(std::move(config)), m_url(std::move(url)),
      m_tablePrefix(std::move(tablePrefix)), m_access(m_config.tokens)
{
    m_pool = std::make_unique<DatabaseWorkerPool>(m_url, m_tablePrefix, m_config.databaseThreads);
    m_api = std::make_unique<WebApi>(*m_pool, m_latest, PayloadMasker(m_config.maskedFields),
                                     m_config.sampleIntervalMs);
    m_hub = std::make_unique<DashboardHub>(m_access, m_latest, m_config.publicDashboard,
                                           m_config.sampleIntervalMs, m_config.relayStaleAfterMs);
    m_sampler = std::make_unique<MetricsSampler>(m_url, m_tablePrefix);
    connect(m_sampler.get(), &MetricsSampler::snapshotReady, this, [this](const MetricsSnapshot& s) {
        m_latest.update(s);
        m_hub->publish(s);
        emit snapshotPublished(m_latest.count());
    });
    connect(m_sampler.get(), &MetricsSampler::failed, this, [this](const QString& message) {
        m_latest.fail(message);
        m_hub->publishFailure(message);
    });
    connect(&m_http, &QAbstractHttpServer::newWebSocketConnection, this, [this] {
        while (m_http.hasPendingWebSocketConnections())
            m_hub->adopt(m_http.nextPendingWebSocketConnection());
    });
    // Qt 6.4 hands an upgrade request to newWebSocketConnection only when a route accepts it.
    // The route writes nothing for an upgrade (the handshake follows); a plain GET gets 426.
    m_http.route(QStringLiteral("/ws"),
                 [](QHttpServerResponder&& responder, const QHttpServerRequest& request) {
                     if (headerValue(request, QByteArrayLiteral("Upgrade"))
                             .compare(QByteArrayLiteral("websocket"), Qt::CaseInsensitive) != 0)
                         WebReply::error(426, tr("/ws is the dashboard's WebSocket"))
                             .toResponse()
                             .write(std::move(responder));
                 });
    m_http.setMissingHandler([this](const QHttpServerRequest& request, QHttpServerResponder&& responder) {
        dispatch(request, std::move(responder));
    });
}

WebServer::~WebServer()
{
    m_sampler.reset(); // stop ticking before the receivers go
    m_hub.reset();
    m_pool.reset(); // joins the database threads before the API they report to
    m_api.reset();
}

Status WebServer::loadAssets()
{
    const QString chartJsPath =
        m_config.chartJsFile.isEmpty() ? QStringLiteral(OUTBOX_CHARTJS_FILE) : m_config.chartJsFile;
    QFile chartJs(chartJsPath);
    if (!chartJs.open(QIODevice::ReadOnly))
        return Error::usage(
            tr("cannot read Chart.js at %1: install libjs-chart.js or set [web] chartjs").arg(chartJsPath));
    m_chartJs = chartJs.readAll();
    return {};
}

Result<quint16> WebServer::start()
{
    if (Status s = loadAssets(); !s)
        return s.error();
    if (m_config.tlsEnabled()) {
#if QT_CONFIG(ssl)
        QFile certFile(m_config.tlsCertificateFile);
        QFile keyFile(m_config.tlsKeyFile);
        if (!certFile.open(QIODevice::ReadOnly))
            return Error::usage(tr("cannot read the TLS certificate %1").arg(m_config.tlsCertificateFile));
        if (!keyFile.open(QIODevice::ReadOnly))
            return Error::usage(tr("cannot read the TLS key %1").arg(m_config.tlsKeyFile));
        const QSslCertificate certificate(&certFile, QSsl::Pem);
        const QByteArray keyPem = keyFile.readAll();
        QSslKey key(keyPem, QSsl::Rsa, QSsl::Pem);
        if (key.isNull())
            key = QSslKey(keyPem, QSsl::Ec, QSsl::Pem);
        if (certificate.isNull())
            return Error::usage(tr("%1 is not a PEM certificate").arg(m_config.tlsCertificateFile));
        if (key.isNull())
            return Error::usage(
                tr("%1 is not an unencrypted PEM RSA or EC private key").arg(m_config.tlsKeyFile));
        m_http.sslSetup(certificate, key);
#else
        return Error::usage(tr("this build of Qt has no TLS support"));
#endif
    }
    m_port = m_http.listen(m_config.address, m_config.port);
    if (m_port == 0)
        return Error::runtime(tr("cannot listen on %1:%2 (is the port in use?)")
                                  .arg(m_config.address.toString())
                                  .arg(m_config.port));
    if (!m_config.unconsumedConsumers.isEmpty())
        m_sampler->setUnconsumedConsumers(m_config.unconsumedConsumers);
    m_sampler->start(m_config.sampleIntervalMs);
    return m_port;
}

QUrl WebServer::baseUrl() const
{
    QUrl url;
    url.setScheme(m_config.tlsEnabled() ? QStringLiteral("https") : QStringLiteral("http"));
    url.setHost(m_config.address.toString());
    url.setPort(m_port);
    url.setPath(QStringLiteral("/"));
    return url;
}

WebReply WebServer::staticFile(const QString& path) const
{
    if (path == QLatin1String("/static/chart.js"))
        return WebReply::bytes(m_chartJs, QByteArrayLiteral("text/javascript; charset=utf-8"));
    static const QHash<QString, std::pair<QString, QByteArray>> files = {
        {QStringLiteral("/"),
         {QStringLiteral(":/web/index.html"), QByteArrayLiteral("text/html; charset=utf-8")}},
        {QStringLiteral("/static/dashboard.js"),
         {QStringLiteral(":/web/dashboard.js"), QByteArrayLiteral("text/javascript; charset=utf-8")}},
        {QStringLiteral("/static/dashboard.css"),
         {QStringLiteral(":/web/dashboard.css"), QByteArrayLiteral("text/css; charset=utf-8")}},
    };
    const auto it = files.constFind(path);
    if (it == files.constEnd())
        return WebReply::error(404, tr("there is nothing at %1").arg(path));
    QFile f(it->first);
    if (!f.open(QIODevice::ReadOnly))
        return WebReply::error(500, tr("the dashboard's file %1 is missing from this build").arg(path));
    WebReply r = WebReply::bytes(f.readAll(), it->second);
    r.headers << qMakePair(QByteArrayLiteral("Content-Security-Policy"), ContentSecurityPolicy);
    return r;
}

WebReply WebServer::metrics() const
{
    if (!m_latest.has())
        return WebReply::error(
            503, m_latest.healthy()
                     ? tr("no sample has been taken yet; try again in a moment")
                     : tr("the sampler cannot read the database: %1").arg(m_latest.lastError()));
    PrometheusExposition::Context context;
    context.sampleAgeMs = m_latest.ageMs();
    context.relayStaleAfterMs = m_config.relayStaleAfterMs;
    context.samplerHealthy = m_latest.healthy();
    return WebReply::bytes(PrometheusExposition::render(m_latest.snapshot(), context),
                           PrometheusExposition::ContentType);
}

void WebServer::dispatch(const QHttpServerRequest& request, QHttpServerResponder&& responder)
{
    const QString path = request.url().path();
    const auto method = request.method();
    auto send = [](QHttpServerResponder&& r, const WebReply& reply) {
        reply.toResponse().write(std::move(r));
    };

    // Body size: refuse by the announced length, and by what actually arrived (chunked bodies).
    const QByteArray announced = headerValue(request, QByteArrayLiteral("Content-Length"));
    if (announced.toLongLong() > m_config.maxBodyBytes || request.body().size() > m_config.maxBodyBytes)
        return send(
            std::move(responder),
            WebReply::error(413, tr("the request body is larger than %1 bytes").arg(m_config.maxBodyBytes)));

    const bool isGet =
        method == QHttpServerRequest::Method::Get; // HEAD gets 405: responses always carry a body
    const bool isPost = method == QHttpServerRequest::Method::Post;
    const bool isDelete = method == QHttpServerRequest::Method::Delete;
    const bool isApi = path.startsWith(QLatin1String("/api/"));
    if (!isGet && !((isPost || isDelete) && isApi))
        return send(std::move(responder),
                    WebReply::error(405, tr("%1 does not accept this method").arg(path)));

    if (path == QLatin1String("/") || path.startsWith(QLatin1String("/static/")))
        return send(std::move(responder), staticFile(path)); // no data in them: the data needs a token on /ws

    const auto principal =
        m_access.fromAuthorizationHeader(headerValue(request, QByteArrayLiteral("Authorization")));
    auto unauthorized = [] {
        WebReply r = WebReply::error(401, tr("a valid token is required (Authorization: Bearer TOKEN)"));
        r.headers << qMakePair(QByteArrayLiteral("WWW-Authenticate"),
                               QByteArrayLiteral("Bearer realm=\"outbox\""));
        return r;
    };
    if (path == QLatin1String("/metrics")) {
        if (!principal && !m_config.publicDashboard)
            return send(std::move(responder), unauthorized());
        return send(std::move(responder), metrics());
    }
    if (!isApi)
        return send(std::move(responder), WebReply::error(404, tr("there is nothing at %1").arg(path)));
    if (!principal)
        return send(std::move(responder), unauthorized());

    ApiCall call;
    call.post = isPost;
    call.del = isDelete;
    call.path = path;
    call.query = request.query();
    call.body = request.body();
    call.principal = *principal;
    // The answer may come from a database thread later; the connection may be gone by then.
    QPointer<QTcpSocket> socket(responder.socket());
    auto pending = std::make_shared<QHttpServerResponder>(std::move(responder));
    m_api->handle(call, [socket, pending](const WebReply& reply) {
        if (socket && socket->state() == QAbstractSocket::ConnectedState)
            reply.toResponse().write(std::move(*pending));
    });
}

} // namespace outbox::web
