#pragma once

#include "core/metrics/MetricsSnapshot.h"
#include "ui/web/AccessControl.h"

#include <QObject>
#include <QPointer>
#include <QWebSocket>
#include <memory>
#include <vector>

namespace outbox::web {

class LatestFindings;
class LatestSnapshot;

// Fans the one sampler's snapshots out to every dashboard over WebSockets: each snapshot is
// encoded once and the same text goes to all clients, so clients cost no database work.
//
// Protocol (JSON text messages): the client sends {"type":"auth","token":"SECRET"} first
// (not needed when the dashboard is public); the server answers {"type":"welcome"} and then
// {"type":"snapshot","snapshot":{...}} on every tick, {"type":"sampler_error","message":...}
// when a tick fails, and {"type":"findings","findings":[...]} after every doctor run. A client that does not
// authenticate within a few seconds is closed.
class DashboardHub : public QObject
{
    Q_OBJECT

public:
    static constexpr int AuthTimeoutMs = 10000;
    static constexpr int MaxClients = 1000;

    DashboardHub(const AccessControl& access, const LatestSnapshot& latest, bool publicDashboard,
                 int sampleIntervalMs, int relayStaleAfterMs, QObject* parent = nullptr);
    ~DashboardHub() override;

    void adopt(std::unique_ptr<QWebSocket> socket);
    void publish(const MetricsSnapshot& snapshot);
    void publishFailure(const QString& message);
    // The doctor's findings ({"type":"findings"}): sent on every run and to each client on admission.
    void setFindings(const LatestFindings* findings) { m_findings = findings; }
    void publishFindings();

    int clientCount() const { return int(m_clients.size()); }
    int authenticatedCount() const;
    qint64 messagesSent() const { return m_messagesSent; }

private:
    struct Client
    {
        QWebSocket* socket = nullptr;
        bool authenticated = false;
    };

    void onMessage(QWebSocket* socket, const QString& text);
    void admit(Client& client);
    void drop(QWebSocket* socket);
    Client* find(QWebSocket* socket);
    void broadcast(const QString& text);
    QString snapshotMessage(const MetricsSnapshot& snapshot) const;

    const AccessControl& m_access;
    const LatestSnapshot& m_latest;
    bool m_public;
    int m_sampleIntervalMs;
    int m_relayStaleAfterMs;
    const LatestFindings* m_findings = nullptr;
    std::vector<Client> m_clients;
    qint64 m_messagesSent = 0;
};

} // namespace outbox::web
