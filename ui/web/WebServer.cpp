#include "ui/web/WebServer.h"

#include "core/diagnosis/DiagnosisMonitor.h"
#include "core/fleet/FleetSampler.h"
#include "core/metrics/MetricsSampler.h"
#include "ui/web/api/Api.h"
#include "ui/web/api/DatabaseWorkerPool.h"
#include "ui/web/live/DashboardHub.h"
#include "ui/web/oidc/IdentityProvider.h"

#include <QFile>
#include <QPointer>
#include <QTcpSocket>
#include <QWebSocket>
#include <QWebSocketServer>

#if QT_CONFIG(ssl)
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslSocket>
#endif

namespace outbox::web {

namespace {

BoundedHttpServer::Limits httpLimits(const WebConfig& config)
{
    BoundedHttpServer::Limits limits;
    limits.maxBodyBytes = config.maxBodyBytes;
    limits.maxConnectionsPerAddress = config.maxConnectionsPerAddress;
    limits.maxResponseBytes = config.maxResponseBytes;
    limits.maxPendingResponseBytes = config.maxPendingResponseBytes;
    return limits;
}

// The host name of a Host header ("name", "name:port", "[v6]:port"), lower case.
QString hostName(const QByteArray& hostHeader)
{
    QString host = QString::fromLatin1(hostHeader).trimmed().toLower();
    if (host.startsWith(QLatin1Char('[')))
        return host.mid(1, host.indexOf(QLatin1Char(']')) - 1);
    const qsizetype colon = host.lastIndexOf(QLatin1Char(':'));
    return colon >= 0 ? host.left(colon) : host;
}

// The call of a request as the route table and the controllers read it.
ApiCall callOf(const HttpRequest& request)
{
    ApiCall call;
    call.method = request.method;
    call.path = request.path;
    call.query = request.query;
    call.body = request.body;
    return call;
}

} // namespace

WebServer::WebServer(WebConfig config, DatabaseUrl url, QString tablePrefix, QObject* parent)
    : WebServer(std::move(config), DatabaseTarget(std::move(url), std::move(tablePrefix)), parent)
{
}

WebServer::WebServer(WebConfig config, DatabaseTarget target, QObject* parent)
    : QObject(parent), m_config(std::move(config)), m_target(std::move(target)), m_access(m_config.tokens),
      m_findings(m_config.findingsIntervalMs)
{
    if (m_config.oidc.enabled()) {
        m_identity = std::make_unique<IdentityProvider>(m_config.oidc);
        m_access.setIdentityProvider(m_identity.get());
    }
    // What viewers, the public dashboard and /ws see; operators see everything.
    const PayloadMasker viewerMasker(m_config.maskedFields, m_config.maskPatterns);
    m_pool = std::make_unique<DatabaseWorkerPool>(m_target, m_config.databaseThreads);
    m_api = std::make_unique<Api>(*m_pool, m_latest, viewerMasker, m_config.sampleIntervalMs);
    m_hub =
        std::make_unique<DashboardHub>(m_access, m_latest, m_config.publicDashboard,
                                       m_config.sampleIntervalMs, m_config.relayStaleAfterMs, viewerMasker);
    m_sampler = std::make_unique<MetricsSampler>(m_target);
    connect(m_sampler.get(), &MetricsSampler::snapshotReady, this, [this](const MetricsSnapshot& s) {
        m_latest.update(s);
        m_hub->publish(s);
        emit snapshotPublished(m_latest.count());
    });
    connect(m_sampler.get(), &MetricsSampler::failed, this, [this](const QString& message) {
        m_latest.fail(message);
        m_hub->publishFailure(message);
    });
    // The doctor on its own thread; its prepared commands name this server's database.
    m_doctor = std::make_unique<DiagnosisMonitor>(m_target, m_config.doctor);
    m_api->context().findings = &m_findings;
    m_api->context().consumerLag = m_config.consumerLag;
    m_api->context().relayStaleAfterMs = m_config.relayStaleAfterMs;
    m_api->context().identity = m_identity.get();
    m_hub->setIdentityProvider(m_identity.get());
    m_hub->setFindings(&m_findings);
    // Job progress goes out over /ws: announced on the job's thread, read and sent on this one.
    m_hub->setJobs(&m_api->context().jobs);
    m_api->context().jobs.setListener([this](const QString& id) {
        QMetaObject::invokeMethod(
            this,
            [this, id] {
                if (m_hub)
                    m_hub->publishJob(id);
            },
            Qt::QueuedConnection);
    });
    connect(m_doctor.get(), &DiagnosisMonitor::reportReady, this, [this](const DiagnosisReport& report) {
        m_findings.update(report);
        m_hub->publishFindings();
    });
    connect(m_doctor.get(), &DiagnosisMonitor::failed, this, [this](const QString& message) {
        m_findings.fail(message);
        m_hub->publishFindings();
    });

    m_http = std::make_unique<BoundedHttpServer>(httpLimits(m_config));
    // The upgrade request passed checkHead(); Qt answers the handshake from the same bytes.
    m_webSockets =
        std::make_unique<QWebSocketServer>(QStringLiteral("outbox"), QWebSocketServer::NonSecureMode);
    m_webSockets->setMaxPendingConnections(DashboardHub::MaxWaiting);
    connect(m_webSockets.get(), &QWebSocketServer::newConnection, this, [this] {
        while (m_webSockets->hasPendingConnections())
            m_hub->adopt(std::unique_ptr<QWebSocket>(m_webSockets->nextPendingConnection()));
    });
    m_http->setHeadCheck([this](const HttpRequest& request) { return checkHead(request); });
    m_http->setHandler([this](const HttpRequest& request, const BoundedHttpServer::Responder& responder) {
        dispatch(request, responder);
    });
    // A request with a valid token frees its connection from the per-address cap of idle ones.
    m_http->setVouch([this](const HttpRequest& request) {
        return m_access.fromAuthorizationHeader(request.header(QByteArrayLiteral("Authorization")))
            .has_value();
    });
    m_http->setUpgradeHandler([this](QTcpSocket* socket) { m_webSockets->handleConnection(socket); });
}

void WebServer::watchFleet(const Fleet& fleet)
{
    m_fleetSampler = std::make_unique<FleetSampler>(fleet, m_config.doctor);
    connect(m_fleetSampler.get(), &FleetSampler::tickFinished, this,
            [this](const QVector<MemberSample>& samples) {
                m_fleet.update(samples);
                m_api->updateFleet(samples);
                m_hub->publishFleet();
            });
    m_api->context().fleet = &m_fleet;
    m_hub->setFleet(&m_fleet, fleet.intervalMs());
    m_api->watchFleet(fleet, std::min(2, m_config.databaseThreads));
    // Without a database of its own (serve --fleet FILE, no --member) it serves the wall, the fleet
    // and the members' routes only.
    m_api->setOwnDatabase(!m_target.isEmpty());
}

WebServer::~WebServer()
{
    m_fleetSampler.reset();
    m_doctor.reset();
    m_sampler.reset(); // stop ticking before the receivers go
    m_http.reset();    // no new requests or upgrades
    m_hub.reset();
    m_webSockets.reset();
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
    m_api->context().chartJs = chartJs.readAll();
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
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setLocalCertificate(certificate);
        tls.setPrivateKey(key);
        tls.setPeerVerifyMode(QSslSocket::VerifyNone);
        m_http->setTls(tls);
#else
        return Error::usage(tr("this build of Qt has no TLS support"));
#endif
    }
    m_port = m_http->listen(m_config.address, m_config.port);
    if (m_port == 0)
        return Error::runtime(tr("cannot listen on %1:%2 (is the port in use?)")
                                  .arg(m_config.address.toString())
                                  .arg(m_config.port));
    if (!m_config.unconsumedConsumers.isEmpty())
        m_sampler->setUnconsumedConsumers(m_config.unconsumedConsumers);
    if (!m_config.consumerLag.bootstrap.isEmpty())
        m_sampler->setConsumerLag(m_config.consumerLag);
    if (!m_target.isEmpty()) {
        m_sampler->start(m_config.sampleIntervalMs);
        m_doctor->start(m_config.findingsIntervalMs);
    }
    if (m_fleetSampler)
        m_fleetSampler->start();
    if (m_identity)
        m_identity->start();
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

bool WebServer::hostAllowed(const QByteArray& hostHeader) const
{
    // On loopback, a page from anywhere can have the browser reach 127.0.0.1 under the page's
    // own name (DNS rebinding) and read the answers as same-origin: such a Host is refused.
    if (hostHeader.isEmpty() || !m_config.isLoopbackOnly())
        return true;
    const QString host = hostName(hostHeader);
    if (host == QLatin1String("localhost") || host.endsWith(QLatin1String(".localhost")) ||
        !QHostAddress(host).isNull())
        return true;
    for (const QString& origin : m_config.allowedOrigins)
        if (hostName(origin.mid(origin.indexOf(QLatin1String("://")) + 3).toLatin1()) == host)
            return true;
    return false;
}

bool WebServer::originAllowed(const HttpRequest& request) const
{
    if (!request.hasHeader(QByteArrayLiteral("Origin")))
        return true; // not a browser: browsers always send Origin with a WebSocket handshake
    const auto origin =
        WebConfig::normalizeOrigin(QString::fromLatin1(request.header(QByteArrayLiteral("Origin"))));
    if (!origin)
        return false; // "null" (sandboxed pages, files) and anything malformed
    if (m_config.allowedOrigins.contains(*origin))
        return true;
    const QByteArray host = request.header(QByteArrayLiteral("Host"));
    if (host.isEmpty())
        return false;
    const auto served = WebConfig::normalizeOrigin(
        (m_config.tlsEnabled() ? QStringLiteral("https://") : QStringLiteral("http://")) +
        QString::fromLatin1(host));
    return served && *served == *origin;
}

std::optional<WebReply> WebServer::checkHead(const HttpRequest& request) const
{
    if (!hostAllowed(request.header(QByteArrayLiteral("Host"))))
        return WebReply::error(421, tr("this server does not answer to the host name %1")
                                        .arg(QString::fromLatin1(request.header(QByteArrayLiteral("Host")))));
    if (request.contentLength > m_config.maxBodyBytes)
        return WebReply::error(413,
                               tr("the request body is larger than %1 bytes").arg(m_config.maxBodyBytes));
    ApiCall call = callOf(request);
    auto resolved = ApiRoutes::resolve(call, m_identity != nullptr);
    if (request.webSocketUpgrade) {
        if (!std::holds_alternative<const ApiRoute*>(resolved) ||
            std::get<const ApiRoute*>(resolved)->access != Access::WebSocket)
            return WebReply::error(404, tr("WebSockets are served at /ws"));
        if (!originAllowed(request))
            return WebReply::error(
                403, tr("pages from %1 may not open the dashboard's WebSocket (see [web] allowed_origins)")
                         .arg(QString::fromLatin1(request.header(QByteArrayLiteral("Origin")))));
        return std::nullopt; // the token comes in the first message
    }
    // 404, or 405 with Allow: refused here (and the connection closed) only when a body would
    // follow, or for HEAD, whose answer may not carry the body every answer has; else
    // dispatch() answers and the connection stays open.
    if (auto* refusal = std::get_if<WebReply>(&resolved);
        refusal && (request.hasBody() || request.method == "HEAD"))
        return *refusal;
    if (!request.hasBody())
        return std::nullopt;
    // A body is read only for a request that may use it: an operator's POST or PATCH.
    const ApiRoute& route = *std::get<const ApiRoute*>(resolved);
    if (route.method != "POST" && route.method != "PATCH")
        return WebReply::error(400, tr("%1 takes no request body").arg(request.path));
    // The bodies anybody may send, a few fields: the identity provider's answer to a sign-in and a
    // confidential client's exchange (POST /api/v1/auth/token).
    if (route.access == Access::Anyone && (request.chunked || request.contentLength > MaxSignInAnswerBytes))
        return WebReply::error(413, tr("the request body is larger than %1 bytes").arg(MaxSignInAnswerBytes));
    const auto token = m_access.checkAuthorizationHeader(request.header(QByteArrayLiteral("Authorization")));
    if (token.unknownKey)
        return std::nullopt; // a JWT of a key fetched only now: dispatch() decides after the fetch
    const auto admitted = ApiRoutes::admit(route, token.principal, m_config.publicDashboard);
    if (auto* refusal = std::get_if<WebReply>(&admitted))
        return *refusal;
    return std::nullopt;
}

void WebServer::dispatch(const HttpRequest& request, const BoundedHttpServer::Responder& responder,
                         bool keysRefreshed)
{
    // Size, host and body rights were settled by checkHead(); the route table matches the path.
    ApiCall call = callOf(request);
    auto resolved = ApiRoutes::resolve(call, m_identity != nullptr);
    if (auto* reply = std::get_if<WebReply>(&resolved))
        return responder.send(*reply);
    const ApiRoute& route = *std::get<const ApiRoute*>(resolved);
    const auto token = m_access.checkAuthorizationHeader(request.header(QByteArrayLiteral("Authorization")));
    if (token.unknownKey && m_identity && !keysRefreshed) {
        // The provider signs with a key this server has not seen (rotation): fetch its keys once,
        // then try again; a forged kid waits for the same bounded fetch and is refused after it.
        QPointer<WebServer> self(this);
        m_identity->refreshKeys([self, request, responder] {
            if (self)
                self->dispatch(request, responder, true);
        });
        return;
    }
    auto admitted = ApiRoutes::admit(route, token.principal, m_config.publicDashboard);
    if (auto* refusal = std::get_if<WebReply>(&admitted))
        return responder.send(*refusal);
    call.principal = std::get<Principal>(admitted);
    // The answer may come from a database thread later; the responder does nothing if the
    // connection is gone by then.
    m_api->handle(route, std::move(call), [responder](const WebReply& reply) { responder.send(reply); });
}

} // namespace outbox::web
