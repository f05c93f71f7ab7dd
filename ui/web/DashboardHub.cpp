#include "ui/web/DashboardHub.h"

#include "ui/web/LatestFindings.h"
#include "ui/web/LatestSnapshot.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

namespace outbox::web {

namespace {

QString encode(const QJsonObject& o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

} // namespace

DashboardHub::DashboardHub(const AccessControl& access, const LatestSnapshot& latest, bool publicDashboard,
                           int sampleIntervalMs, int relayStaleAfterMs, QObject* parent)
    : QObject(parent), m_access(access), m_latest(latest), m_public(publicDashboard),
      m_sampleIntervalMs(sampleIntervalMs), m_relayStaleAfterMs(relayStaleAfterMs)
{
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

DashboardHub::Client* DashboardHub::find(QWebSocket* socket)
{
    for (Client& c : m_clients)
        if (c.socket == socket)
            return &c;
    return nullptr;
}

void DashboardHub::adopt(std::unique_ptr<QWebSocket> owned)
{
    QWebSocket* socket = owned.release();
    socket->setParent(this);
    if (socket->requestUrl().path() != QLatin1String("/ws")) {
        socket->close(QWebSocketProtocol::CloseCodeBadOperation, tr("WebSockets are served at /ws"));
        socket->deleteLater();
        return;
    }
    if (int(m_clients.size()) >= MaxClients) {
        socket->close(QWebSocketProtocol::CloseCodeTooMuchData, tr("too many dashboard clients"));
        socket->deleteLater();
        return;
    }
    m_clients.push_back(Client{socket, false});
    connect(socket, &QWebSocket::textMessageReceived, this,
            [this, socket](const QString& text) { onMessage(socket, text); });
    connect(socket, &QWebSocket::disconnected, this, [this, socket] { drop(socket); });
    if (m_public) {
        admit(m_clients.back());
        return;
    }
    QPointer<QWebSocket> guard(socket);
    QTimer::singleShot(AuthTimeoutMs, this, [this, guard] {
        if (!guard)
            return;
        Client* c = find(guard);
        if (c && !c->authenticated)
            guard->close(QWebSocketProtocol::CloseCodePolicyViolated, tr("no token was presented"));
    });
}

void DashboardHub::onMessage(QWebSocket* socket, const QString& text)
{
    Client* client = find(socket);
    if (!client || client->authenticated || text.size() > 4096)
        return; // after authentication the page only listens
    const QJsonObject o = QJsonDocument::fromJson(text.toUtf8()).object();
    if (o.value(QStringLiteral("type")).toString() != QLatin1String("auth")) {
        socket->close(QWebSocketProtocol::CloseCodePolicyViolated, tr("authenticate first"));
        return;
    }
    if (!m_access.authenticate(o.value(QStringLiteral("token")).toString().toUtf8())) {
        socket->sendTextMessage(encode({{QStringLiteral("type"), QStringLiteral("error")},
                                        {QStringLiteral("message"), tr("the token is not valid")}}));
        socket->close(QWebSocketProtocol::CloseCodePolicyViolated, tr("the token is not valid"));
        return;
    }
    admit(*client);
}

void DashboardHub::admit(Client& client)
{
    client.authenticated = true;
    client.socket->sendTextMessage(encode({{QStringLiteral("type"), QStringLiteral("welcome")},
                                           {QStringLiteral("interval_ms"), m_sampleIntervalMs},
                                           {QStringLiteral("relay_stale_after_ms"), m_relayStaleAfterMs}}));
    ++m_messagesSent;
    if (m_latest.has()) {
        client.socket->sendTextMessage(snapshotMessage(m_latest.snapshot()));
        ++m_messagesSent;
    }
    if (m_findings && m_findings->has()) {
        client.socket->sendTextMessage(m_findings->pushMessage());
        ++m_messagesSent;
    }
}

void DashboardHub::drop(QWebSocket* socket)
{
    for (auto it = m_clients.begin(); it != m_clients.end(); ++it) {
        if (it->socket == socket) {
            m_clients.erase(it);
            break;
        }
    }
    socket->deleteLater();
}

QString DashboardHub::snapshotMessage(const MetricsSnapshot& snapshot) const
{
    return encode({{QStringLiteral("type"), QStringLiteral("snapshot")},
                   {QStringLiteral("interval_ms"), m_sampleIntervalMs},
                   {QStringLiteral("snapshot"), snapshot.toJson()}});
}

void DashboardHub::broadcast(const QString& text)
{
    for (Client& c : m_clients) {
        if (!c.authenticated)
            continue;
        c.socket->sendTextMessage(text);
        ++m_messagesSent;
    }
}

void DashboardHub::publish(const MetricsSnapshot& snapshot)
{
    broadcast(snapshotMessage(snapshot));
}

void DashboardHub::publishFindings()
{
    if (m_findings)
        broadcast(m_findings->pushMessage());
}

void DashboardHub::publishFailure(const QString& message)
{
    broadcast(encode(
        {{QStringLiteral("type"), QStringLiteral("sampler_error")}, {QStringLiteral("message"), message}}));
}

} // namespace outbox::web
