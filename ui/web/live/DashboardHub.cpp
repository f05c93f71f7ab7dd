#include "ui/web/live/DashboardHub.h"

#include "ui/web/api/ActionJobs.h"
#include "ui/web/live/LatestFindings.h"
#include "ui/web/live/LatestFleet.h"
#include "ui/web/live/LatestSnapshot.h"
#include "ui/web/oidc/IdentityProvider.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>
#include <QUuid>
#include <algorithm>

namespace outbox::web {

namespace {

QString encode(const QJsonObject& o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

// RFC 6455 "Try Again Later" (1013), which Qt 6.4's enum does not name.
constexpr auto TryAgainLater = static_cast<QWebSocketProtocol::CloseCode>(1013);

QHostAddress normalized(QHostAddress a)
{
    bool isV4 = false;
    const quint32 v4 = a.toIPv4Address(&isV4);
    return isV4 ? QHostAddress(v4) : a;
}

} // namespace

DashboardHub::DashboardHub(const AccessControl& access, const LatestSnapshot& latest, bool publicDashboard,
                           int sampleIntervalMs, int relayStaleAfterMs, PayloadMasker masker, QObject* parent)
    : QObject(parent), m_access(access), m_latest(latest), m_public(publicDashboard),
      m_sampleIntervalMs(sampleIntervalMs), m_relayStaleAfterMs(relayStaleAfterMs),
      m_masker(std::move(masker))
{
    m_clock.start();
}

DashboardHub::~DashboardHub()
{
    for (Client& c : m_clients) {
        c.socket->disconnect(this);
        c.socket->abort();
        delete c.socket;
    }
}

int DashboardHub::authenticatedCount() const
{
    int n = 0;
    for (const Client& c : m_clients)
        n += c.authenticated ? 1 : 0;
    return n;
}

int DashboardHub::count(const QHostAddress& address, bool authenticated, bool anonymous) const
{
    int n = 0;
    for (const Client& c : m_clients)
        n += c.address == address && c.authenticated == authenticated && c.anonymous == anonymous ? 1 : 0;
    return n;
}

DashboardHub::Client* DashboardHub::find(QWebSocket* socket)
{
    for (Client& c : m_clients)
        if (c.socket == socket)
            return &c;
    return nullptr;
}

void DashboardHub::refuse(QWebSocket* socket, const QString& reason)
{
    ++m_refused;
    socket->disconnect(this);
    socket->close(TryAgainLater, reason);
    socket->deleteLater();
}

void DashboardHub::adopt(std::unique_ptr<QWebSocket> owned)
{
    QWebSocket* socket = owned.release();
    socket->setParent(this);
    // Limits first: Qt checks them against each frame's header, before buffering its payload.
    socket->setMaxAllowedIncomingFrameSize(quint64(MaxIncomingBytes));
    socket->setMaxAllowedIncomingMessageSize(quint64(MaxIncomingBytes));
    socket->setReadBufferSize(4 * MaxIncomingBytes);
    // Only /ws is upgraded: the route table's WebSocket route (WebServer::checkHead()).
    const QHostAddress address = normalized(socket->peerAddress());
    if (m_public) {
        if (authenticatedCount() >= MaxClients)
            return refuse(socket, tr("too many dashboard clients"));
        if (count(address, true, true) >= MaxAnonymousPerAddress)
            return refuse(socket, tr("too many dashboards from one address"));
    } else {
        if (waitingCount() >= MaxWaiting)
            return refuse(socket, tr("too many connections waiting to authenticate"));
        if (count(address, false, false) >= MaxWaitingPerAddress)
            return refuse(socket, tr("too many connections from one address waiting to authenticate"));
    }
    Client client;
    client.socket = socket;
    client.address = address;
    m_clients.push_back(std::move(client));
    connect(socket, &QWebSocket::textMessageReceived, this,
            [this, socket](const QString& text) { onMessage(socket, text); });
    connect(socket, &QWebSocket::disconnected, this, [this, socket] { drop(socket); });
    if (m_public) {
        admit(m_clients.back(), true);
        return;
    }
    QPointer<QWebSocket> guard(socket);
    QTimer::singleShot(AuthTimeoutMs, this, [this, guard] {
        if (!guard)
            return;
        Client* c = find(guard);
        if (c && !c->authenticated) {
            guard->close(QWebSocketProtocol::CloseCodePolicyViolated, tr("no token was presented"));
            guard->abort(); // whether or not it answers the close
        }
    });
}

void DashboardHub::onMessage(QWebSocket* socket, const QString& text)
{
    Client* client = find(socket);
    if (!client)
        return;
    if (text.size() > MaxAuthCharacters) {
        socket->close(QWebSocketProtocol::CloseCodeTooMuchData, tr("the message is too long"));
        return;
    }
    const QJsonObject o = QJsonDocument::fromJson(text.toUtf8()).object();
    if (client->authenticated)
        return onClientRequest(*client, o);
    if (o.value(QStringLiteral("type")).toString() != QLatin1String("auth")) {
        socket->close(QWebSocketProtocol::CloseCodePolicyViolated, tr("authenticate first"));
        return;
    }
    authenticate(socket, o.value(QStringLiteral("token")).toString().toUtf8(), false);
}

void DashboardHub::authenticate(QWebSocket* socket, const QByteArray& token, bool keysRefreshed)
{
    Client* client = find(socket);
    if (!client || client->authenticated)
        return;
    const AccessControl::Check check = m_access.check(token);
    if (refreshKeysFirst(check, keysRefreshed, socket,
                         [this, token](QWebSocket* s) { authenticate(s, token, true); }))
        return;
    const auto& principal = check.principal;
    if (!principal) {
        socket->sendTextMessage(encode({{QStringLiteral("type"), QStringLiteral("error")},
                                        {QStringLiteral("message"), tr("the token is not valid")}}));
        socket->close(QWebSocketProtocol::CloseCodePolicyViolated, tr("the token is not valid"));
        return;
    }
    if (authenticatedCount() >= MaxClients) {
        drop(socket);
        return refuse(socket, tr("too many dashboard clients"));
    }
    client->principal = *principal;
    if (principal->expiresAt > 0)
        watchExpiry(socket); // an access token's socket lives as long as the token (or its renewal)
    admit(*client, false);
}

bool DashboardHub::refreshKeysFirst(const AccessControl::Check& check, bool keysRefreshed, QWebSocket* socket,
                                    const std::function<void(QWebSocket*)>& retry)
{
    if (!check.unknownKey || !m_identity || keysRefreshed)
        return false;
    QPointer<QWebSocket> guard(socket);
    m_identity->refreshKeys([guard, retry] {
        if (guard)
            retry(guard);
    });
    return true;
}

void DashboardHub::watchExpiry(QWebSocket* socket)
{
    const Client* client = find(socket);
    if (!client)
        return;
    const qint64 left = client->principal.expiresAt * 1000 - QDateTime::currentMSecsSinceEpoch();
    QPointer<QWebSocket> guard(socket);
    QTimer::singleShot(std::max<qint64>(0, std::min<qint64>(left, 24LL * 3600 * 1000)), this, [this, guard] {
        const Client* c = guard ? find(guard) : nullptr;
        if (!c)
            return;
        if (c->principal.expiresAt * 1000 > QDateTime::currentMSecsSinceEpoch())
            return watchExpiry(guard); // renewed meanwhile
        guard->close(QWebSocketProtocol::CloseCodePolicyViolated, tr("the token has expired"));
    });
}

void DashboardHub::renew(QWebSocket* socket, const QByteArray& token, bool keysRefreshed)
{
    Client* client = find(socket);
    if (!client || !client->authenticated || client->anonymous || client->principal.expiresAt <= 0)
        return;
    const AccessControl::Check check = m_access.check(token);
    if (refreshKeysFirst(check, keysRefreshed, socket,
                         [this, token](QWebSocket* s) { renew(s, token, true); }))
        return;
    // Only the same person's newer token: a socket never changes hands.
    if (!check.principal || check.principal->name != client->principal.name ||
        check.principal->expiresAt <= 0) {
        socket->sendTextMessage(encode({{QStringLiteral("type"), QStringLiteral("error")},
                                        {QStringLiteral("message"), tr("the token is not valid")}}));
        socket->close(QWebSocketProtocol::CloseCodePolicyViolated, tr("the token is not valid"));
        return;
    }
    // Its groups may have changed: the next push follows them. The expiry timer started at sign-in
    // finds the later expiry when it fires and waits for that instead.
    client->principal = *check.principal;
}

void DashboardHub::onClientRequest(Client& client, const QJsonObject& request)
{
    QWebSocket* socket = client.socket;
    const QString type = request.value(QStringLiteral("type")).toString();
    if (type == QLatin1String("auth") && client.anonymous) {
        // A public dashboard admitted it without a token; a valid one lets it follow jobs. A wrong
        // one changes nothing: the wallboard sends whatever token it has.
        if (const auto principal =
                m_access.authenticate(request.value(QStringLiteral("token")).toString().toUtf8())) {
            client.principal = *principal;
            client.anonymous = false;
        }
        return;
    }
    if (type == QLatin1String("auth"))
        return renew(socket, request.value(QStringLiteral("token")).toString().toUtf8(), false);
    if (type != QLatin1String("subscribe_job"))
        return; // nothing else is asked of the server; unknown requests are ignored
    const QString id = request.value(QStringLiteral("id")).toString();
    auto answer = [&](const QString& error) {
        sendBounded(socket,
                    encode({{QStringLiteral("type"), QStringLiteral("job")},
                            {QStringLiteral("id"), id.left(64)},
                            {QStringLiteral("error"), error}}),
                    MinQueueBound);
    };
    if (client.anonymous)
        return answer(tr("a valid token is required to follow jobs"));
    if (QUuid::fromString(id).isNull() || id.size() != 36)
        return answer(tr("a job id is a UUID"));
    const auto job = m_jobs ? m_jobs->status(id) : std::nullopt;
    if (!job)
        return answer(tr("there is no job %1 (finished jobs are kept for an hour)").arg(id));
    const bool running = job->value(QStringLiteral("state")).toString() == QLatin1String("running");
    if (running && !client.jobs.contains(id)) {
        if (client.jobs.size() >= MaxJobSubscriptions)
            client.jobs.removeFirst();
        client.jobs.append(id);
    }
    sendBounded(socket, jobMessage(*job, client.principal), MinQueueBound);
}

QString DashboardHub::jobMessage(const QJsonObject& job, const Principal& principal) const
{
    // As GET /api/v1/jobs/{id} shows it to this token: reasons and filters are free text.
    return encode({{QStringLiteral("type"), QStringLiteral("job")},
                   {QStringLiteral("job"), principal.seesUnmasked() ? job : m_masker.maskRow(job)}});
}

bool DashboardHub::sendBounded(QWebSocket* socket, const QString& text, qint64 bound)
{
    if (socket->bytesToWrite() > bound) {
        ++m_slowDropped;
        drop(socket);
        socket->abort(); // a close frame would only join the queue it does not read
        return false;
    }
    socket->sendTextMessage(text);
    ++m_messagesSent;
    return true;
}

void DashboardHub::publishJob(const QString& id)
{
    if (!m_jobs)
        return;
    const auto job = m_jobs->takeUpdate(id);
    const bool ended = !job || job->value(QStringLiteral("state")).toString() != QLatin1String("running");
    std::vector<std::pair<QWebSocket*, Principal>> subscribers;
    for (Client& c : m_clients) {
        if (!c.authenticated || c.anonymous || !c.jobs.contains(id))
            continue;
        subscribers.emplace_back(c.socket, c.principal);
        if (ended)
            c.jobs.removeAll(id);
    }
    if (!job || subscribers.empty())
        return;
    // Encoded once per role, not once per client.
    QString forOperators, forViewers;
    for (const auto& [socket, principal] : subscribers) {
        QString& text = principal.seesUnmasked() ? forOperators : forViewers;
        if (text.isEmpty())
            text = jobMessage(*job, principal);
        sendBounded(socket, text, std::max(MinQueueBound, qint64(QueuedMessages) * text.size()));
    }
}

bool DashboardHub::admit(Client& client, bool anonymous)
{
    client.authenticated = true;
    client.anonymous = anonymous;
    client.socket->sendTextMessage(encode({{QStringLiteral("type"), QStringLiteral("welcome")},
                                           {QStringLiteral("interval_ms"), m_sampleIntervalMs},
                                           {QStringLiteral("relay_stale_after_ms"), m_relayStaleAfterMs},
                                           {QStringLiteral("fleet"), m_fleet != nullptr}}));
    ++m_messagesSent;
    // A token scoped to some fleet members sees nothing of the server's own database.
    const bool own = !client.principal.scope.restricted();
    if (own && m_history.size() > 0) {
        client.socket->sendTextMessage(QString::fromUtf8(m_history.message(m_clock.elapsed())));
        ++m_messagesSent;
    }
    if (own && m_latest.has()) {
        client.socket->sendTextMessage(snapshotMessage(m_masker.maskSnapshot(m_latest.snapshot().toJson())));
        ++m_messagesSent;
    }
    if (own && m_findings && m_findings->has()) {
        client.socket->sendTextMessage(m_findings->pushMessage(m_masker));
        ++m_messagesSent;
    }
    if (m_fleet && m_fleet->has()) {
        client.socket->sendTextMessage(m_fleet->pushMessage(m_masker, m_fleetIntervalMs, client.principal));
        ++m_messagesSent;
    }
    return true;
}

void DashboardHub::drop(QWebSocket* socket)
{
    for (auto it = m_clients.begin(); it != m_clients.end(); ++it) {
        if (it->socket == socket) {
            m_clients.erase(it);
            break;
        }
    }
    socket->disconnect(this);
    socket->deleteLater();
}

QString DashboardHub::snapshotMessage(const QJsonObject& maskedSnapshot) const
{
    return encode({{QStringLiteral("type"), QStringLiteral("snapshot")},
                   {QStringLiteral("interval_ms"), m_sampleIntervalMs},
                   {QStringLiteral("snapshot"), maskedSnapshot}});
}

void DashboardHub::broadcast(const QString& text)
{
    // A client may have a few messages unsent (a slow link), not an ever-growing queue.
    const qint64 bound = std::max(MinQueueBound, qint64(QueuedMessages) * text.size());
    std::vector<QWebSocket*> sockets; // sendBounded() drops slow clients from m_clients
    for (const Client& c : m_clients)
        if (c.authenticated && !c.principal.scope.restricted()) // scoped tokens: their members only
            sockets.push_back(c.socket);
    for (QWebSocket* socket : sockets)
        sendBounded(socket, text, bound);
}

void DashboardHub::publish(const MetricsSnapshot& snapshot)
{
    const QJsonObject masked = m_masker.maskSnapshot(snapshot.toJson());
    broadcast(snapshotMessage(masked));
    m_history.add(masked, m_clock.elapsed());
}

void DashboardHub::publishFindings()
{
    if (m_findings)
        broadcast(m_findings->pushMessage(m_masker));
}

void DashboardHub::publishFleet()
{
    if (!m_fleet || !m_fleet->has())
        return;
    // Encoded once per scope of members (most clients share one), not once per client.
    QHash<QString, QString> byScope;
    std::vector<std::pair<QWebSocket*, QString>> sends;
    for (const Client& c : m_clients) {
        if (!c.authenticated)
            continue;
        const QString key = c.principal.scope.members.join(QLatin1Char(','));
        auto it = byScope.find(key);
        if (it == byScope.end())
            it = byScope.insert(key, m_fleet->pushMessage(m_masker, m_fleetIntervalMs, c.principal));
        sends.emplace_back(c.socket, *it);
    }
    // A fleet frame is large (a tile per member: megabytes with 10,000 members) and each socket
    // keeps its own copy until the client reads it: 40 dashboards that never read once took the
    // server from 99 MB to 927 MB. Latest wins: a client still sending an earlier message skips
    // this frame (it gets the next tick's once it has caught up), so it holds one frame at most;
    // and all clients together hold at most MaxQueuedBytes, the most behind dropped first.
    std::vector<std::pair<qint64, QWebSocket*>> behind; // unsent bytes, socket
    qint64 queued = 0;
    for (const Client& c : m_clients) {
        const qint64 unsent = c.socket->bytesToWrite();
        queued += unsent;
        if (unsent > 0 && c.authenticated)
            behind.emplace_back(unsent, c.socket);
    }
    std::sort(behind.begin(), behind.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    qint64 frames = 0;
    for (const auto& [socket, text] : sends)
        frames += socket->bytesToWrite() > 0 ? 0 : text.size();
    for (const auto& [unsent, socket] : behind) {
        if (queued + frames <= MaxQueuedBytes)
            break;
        ++m_slowDropped;
        drop(socket);
        socket->abort();
        queued -= unsent;
    }
    for (const auto& [socket, text] : sends) {
        if (!find(socket) || socket->bytesToWrite() > 0)
            continue; // dropped above, or still sending an earlier message
        sendBounded(socket, text, std::max(MinQueueBound, qint64(QueuedMessages) * text.size()));
    }
}

void DashboardHub::publishFailure(const QString& message)
{
    broadcast(encode({{QStringLiteral("type"), QStringLiteral("sampler_error")},
                      {QStringLiteral("message"), m_masker.maskText(message)}}));
}

} // namespace outbox::web
