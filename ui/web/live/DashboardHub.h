#pragma once

#include "core/metrics/MetricsSnapshot.h"
#include "core/support/PayloadMasker.h"
#include "ui/web/http/AccessControl.h"
#include "ui/web/live/SnapshotHistory.h"

#include <QElapsedTimer>
#include <QHash>
#include <QHostAddress>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QWebSocket>
#include <functional>
#include <memory>
#include <vector>

namespace outbox::web {

class ActionJobs;
class IdentityProvider;
class LatestFindings;
class LatestFleet;
class LatestSnapshot;

// Fans the one sampler's snapshots out to every dashboard over WebSockets: each snapshot is
// encoded once (masked as for viewers) and the same text goes to all clients, so clients cost no
// database work.
//
// Protocol (JSON text messages): the client sends {"type":"auth","token":"SECRET"} first
// (not needed when the dashboard is public); the server answers {"type":"welcome"}, then
// {"type":"history","points":[...]} with the last 15 minutes of chart points (SnapshotHistory)
// so a new wall screen starts with full charts, and {"type":"snapshot","snapshot":{...}} on every tick,
// {"type":"sampler_error","message":...} when a tick fails, and {"type":"findings","findings":[...]} after
// every doctor run. A client that does not authenticate within AuthTimeoutMs is closed.
//
// Bulk-action jobs (ActionJobs) are followed, not polled: a client admitted with a token sends
// {"type":"subscribe_job","id":"UUID"} and gets {"type":"job","job":{...}} at once and after every
// chunk until the job ends (then the subscription ends), or {"type":"job","id":...,"error":...} for
// an unknown id. The job is what GET /api/v1/jobs/{id} shows that token: masked for viewers;
// anonymous clients of a public dashboard get an error instead, as the API gives them 401. On a public
// dashboard an admitted client may still send an auth message to follow jobs under its token. At
// most MaxJobSubscriptions per client (the oldest is forgotten).
//
// Bounds: sockets still waiting to authenticate have their own caps (in total and per source
// address) and never take a dashboard's slot; no incoming frame or message may exceed
// MaxIncomingBytes (checked by Qt from the frame header, before the payload is buffered); a
// client whose unsent data grows past its bound (it does not read) is dropped. Fleet frames go
// only to clients that have sent everything before (latest wins), within MaxQueuedBytes for all.
class DashboardHub : public QObject
{
    Q_OBJECT

public:
    static constexpr int AuthTimeoutMs = 10000; // a busy browser or server: seconds are normal
    static constexpr int MaxClients = 1000;     // admitted dashboards
    static constexpr int MaxWaiting = 256;      // not yet authenticated
    static constexpr int MaxWaitingPerAddress = 64;
    static constexpr int MaxAnonymousPerAddress = 64; // public dashboard: admitted without a token
    static constexpr int MaxAuthCharacters = 4096;
    static constexpr qint64 MaxIncomingBytes = 16 * 1024; // the auth message in UTF-8, with room
    static constexpr qint64 MinQueueBound = 1024 * 1024;  // unsent bytes a client may have, at least…
    static constexpr int QueuedMessages = 4;              // …or this many of the current message
    static constexpr int MaxJobSubscriptions = 8;
    // Unsent bytes of all clients together before the ones most behind are dropped (fleet frames).
    static constexpr qint64 MaxQueuedBytes = 64 * 1024 * 1024;

    DashboardHub(const AccessControl& access, const LatestSnapshot& latest, bool publicDashboard,
                 int sampleIntervalMs, int relayStaleAfterMs, PayloadMasker masker = PayloadMasker(),
                 QObject* parent = nullptr);
    ~DashboardHub() override;

    // Sets the socket's limits at once (before any frame is read) and admits or refuses it.
    void adopt(std::unique_ptr<QWebSocket> socket);
    void publish(const MetricsSnapshot& snapshot);
    void publishFailure(const QString& message);
    // The doctor's findings ({"type":"findings"}): sent on every run and to each client on admission.
    void setFindings(const LatestFindings* findings) { m_findings = findings; }
    void publishFindings();
    // The fleet's tiles ({"type":"fleet"}, serve --fleet): sent after every fleet tick and to each
    // client on admission; the welcome says "fleet": true so that the page shows the wall.
    void setFleet(const LatestFleet* fleet, qint64 intervalMs)
    {
        m_fleet = fleet;
        m_fleetIntervalMs = intervalMs;
    }
    void publishFleet();
    // The jobs clients may follow; publishJob(id) after ActionJobs announced a change of `id`.
    void setJobs(ActionJobs* jobs) { m_jobs = jobs; }
    // Signed-in people: a token of a key not yet fetched waits for one bounded fetch; a socket
    // admitted with an access token is closed when the token expires (the page opens a new one
    // with its renewed token).
    void setIdentityProvider(IdentityProvider* identity) { m_identity = identity; }
    void publishJob(const QString& id);

    int clientCount() const { return int(m_clients.size()); }
    int authenticatedCount() const;
    int waitingCount() const { return clientCount() - authenticatedCount(); }
    qint64 messagesSent() const { return m_messagesSent; }
    qint64 slowClientsDropped() const { return m_slowDropped; }
    qint64 refusedCount() const { return m_refused; }
    const SnapshotHistory& history() const { return m_history; }

private:
    struct Client
    {
        QWebSocket* socket = nullptr;
        QHostAddress address;
        bool authenticated = false;
        bool anonymous = false;
        Principal principal; // valid unless anonymous
        QStringList jobs;    // the jobs it follows, at most MaxJobSubscriptions
    };

    void onMessage(QWebSocket* socket, const QString& text);
    void authenticate(QWebSocket* socket, const QByteArray& token, bool keysRefreshed);
    // A renewed access token on an open socket ({"type": "auth"} again): the same person's, valid;
    // the socket then lives until the new token expires. Anything else closes it.
    void renew(QWebSocket* socket, const QByteArray& token, bool keysRefreshed);
    // True when `check` met a signing key the identity provider may have rotated in since its keys
    // were read (and they were not read again for this token yet): they are read again, and `retry`
    // runs then with the socket, if it is still open.
    bool refreshKeysFirst(const AccessControl::Check& check, bool keysRefreshed, QWebSocket* socket,
                          const std::function<void(QWebSocket*)>& retry);
    // Closes the socket when its access token has expired (unless renewed by then).
    void watchExpiry(QWebSocket* socket);
    void onClientRequest(Client& client, const QJsonObject& request);
    // Sends unless the client's unsent data is past `bound` (then it is dropped): false if dropped.
    bool sendBounded(QWebSocket* socket, const QString& text, qint64 bound);
    QString jobMessage(const QJsonObject& job, const Principal& principal) const;
    bool admit(Client& client, bool anonymous);
    void refuse(QWebSocket* socket, const QString& reason);
    void drop(QWebSocket* socket);
    Client* find(QWebSocket* socket);
    int count(const QHostAddress& address, bool authenticated, bool anonymous) const;
    void broadcast(const QString& text);
    QString snapshotMessage(const QJsonObject& maskedSnapshot) const;

    const AccessControl& m_access;
    const LatestSnapshot& m_latest;
    bool m_public;
    int m_sampleIntervalMs;
    int m_relayStaleAfterMs;
    const LatestFindings* m_findings = nullptr;
    const LatestFleet* m_fleet = nullptr;
    qint64 m_fleetIntervalMs = 0;
    ActionJobs* m_jobs = nullptr;
    IdentityProvider* m_identity = nullptr;
    PayloadMasker m_masker;
    std::vector<Client> m_clients;
    SnapshotHistory m_history;
    QElapsedTimer m_clock; // the history's time: monotonic, whatever the database's clock does
    qint64 m_messagesSent = 0;
    qint64 m_slowDropped = 0;
    qint64 m_refused = 0;
};

} // namespace outbox::web
