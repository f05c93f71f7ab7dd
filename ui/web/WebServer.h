#pragma once

#include "core/db/DatabaseTarget.h"
#include "core/db/DatabaseUrl.h"
#include "core/support/Result.h"
#include "ui/web/WebConfig.h"
#include "ui/web/http/AccessControl.h"
#include "ui/web/http/BoundedHttpServer.h"
#include "ui/web/http/WebReply.h"
#include "ui/web/live/LatestFindings.h"
#include "ui/web/live/LatestFleet.h"
#include "ui/web/live/LatestSnapshot.h"

#include <QObject>
#include <QUrl>
#include <memory>
#include <optional>

class QWebSocketServer;

namespace outbox {
class DiagnosisMonitor;
class Fleet;
class FleetSampler;
class MetricsSampler;
} // namespace outbox

namespace outbox::web {

class DashboardHub;
class DatabaseWorkerPool;
class IdentityProvider;
class Api;

// The NOC server: the dashboard at /, the web admin console at /console/ (static files from the
// binary's resources; its data comes from the API and /ws), the WebSocket at /ws, /metrics and the
// JSON API, all fed by one MetricsSampler and a small pool of database threads. Runs on the thread
// that creates it and never waits for the database there. HTTP goes through BoundedHttpServer (limits hold
// before anything is buffered), WebSockets through QWebSocketServer after the same head check
// (Host, Origin, caps).
class WebServer : public QObject
{
    Q_OBJECT

public:
    // Serves `target`'s database; the doctor's prepared commands name it as the target says (the same
    // --config file, --db without the password, --table-prefix).
    WebServer(WebConfig config, DatabaseTarget target, QObject* parent = nullptr);
    ~WebServer() override;

    // Also watches every member of `fleet` (before start()): GET /api/v1/fleet, outbox_member_up on
    // /metrics. Prepared commands name a member as --fleet FILE --member NAME.
    void watchFleet(const Fleet& fleet);
    const LatestFleet& fleet() const { return m_fleet; }

    // Listens and starts sampling; returns the bound port (useful with port 0).
    Result<quint16> start();
    QUrl baseUrl() const;
    const WebConfig& config() const { return m_config; }

    MetricsSampler& sampler() { return *m_sampler; }
    const LatestSnapshot& latest() const { return m_latest; }
    const LatestFindings& findings() const { return m_findings; }
    DashboardHub& hub() { return *m_hub; }
    int httpConnectionCount() const { return m_http->connectionCount(); }

signals:
    // After each snapshot has been handed to every dashboard client.
    void snapshotPublished(int count);

private:
    static constexpr qint64 MaxSignInAnswerBytes = 16 * 1024;
    // Everything that can be decided from the head: refusals come back before a body is read.
    std::optional<WebReply> checkHead(const HttpRequest& request) const;
    // keysRefreshed: the second try of a request whose token named a key the cached set lacked.
    void dispatch(const HttpRequest& request, const BoundedHttpServer::Responder& responder,
                  bool keysRefreshed = false);
    bool hostAllowed(const QByteArray& hostHeader) const;
    bool originAllowed(const HttpRequest& request) const;
    Status loadAssets();

    WebConfig m_config;
    DatabaseTarget m_target;
    std::unique_ptr<IdentityProvider> m_identity; // [oidc] set: before m_access, which points to it
    AccessControl m_access;
    LatestSnapshot m_latest;
    LatestFindings m_findings;
    LatestFleet m_fleet;
    std::unique_ptr<FleetSampler> m_fleetSampler;
    std::unique_ptr<BoundedHttpServer> m_http;
    std::unique_ptr<QWebSocketServer> m_webSockets;
    quint16 m_port = 0;
    std::unique_ptr<MetricsSampler> m_sampler;
    std::unique_ptr<DiagnosisMonitor> m_doctor;
    std::unique_ptr<DatabaseWorkerPool> m_pool;
    std::unique_ptr<Api> m_api;
    std::unique_ptr<DashboardHub> m_hub;
};

} // namespace outbox::web
