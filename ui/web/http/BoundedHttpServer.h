#pragma once

#include "ui/web/http/HttpRequest.h"
#include "ui/web/http/WebReply.h"

#include <QHash>
#include <QHostAddress>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <functional>
#include <memory>
#include <optional>

#if QT_CONFIG(ssl)
#include <QSslConfiguration>
#endif

class QTcpServer;
class QTcpSocket;

namespace outbox::web {

class HttpConnection;

// An HTTP/1.1 server whose memory stays bounded whatever clients send. Qt 6.4's QHttpServer
// buffers a whole request (and its WebSocket frames) before anyone can look at it; here the
// request head is parsed as it arrives by Debian's http-parser (a callback parser that keeps
// nothing), a request is refused from its head alone (size, method, path, credentials) before
// one byte of its body is read, and connections are capped in number, per address and in time.
// WebSocket upgrades that pass the head check are handed over with their request unread, for
// QWebSocketServer::handleConnection().
class BoundedHttpServer : public QObject
{
public:
    struct Limits
    {
        int maxHeadBytes = 16 * 1024; // request line and headers together
        int maxHeaderCount = 64;
        qint64 maxBodyBytes = 1024 * 1024;
        int headTimeoutMs =
            5000; // from accept (TLS handshake included) or a request's first byte to its blank line
        int bodyTimeoutMs = 30000; // from the head to the body's last byte
        int idleTimeoutMs = 30000; // a kept-alive connection between requests
        int lingerMs = 2000; // after a refusal: time the client gets to read it while its upload is discarded
        int maxConnections = 512; // HTTP connections; upgraded WebSockets are counted by their owner
        // Connections from one address that have not (yet) sent an authenticated request: idle or
        // slow ones, anonymous or not yet known. A new connection beyond it closes the oldest such
        // idle one of that address, so a client behind a shared address (a NOC behind a proxy)
        // is not locked out by anonymous sockets; connections that sent a valid token (Vouch) are
        // not counted.
        int maxConnectionsPerAddress = 64;
        qint64 maxQueuedReplyBytes = 1024 * 1024; // no further request is read while more waits to be sent
        // One answer's body; a larger one is answered 503 with Retry-After instead (ask for less).
        qint64 maxResponseBytes = 32 * 1024 * 1024;
        // All answers written but not yet taken by the clients, server-wide; an answer that would
        // go beyond is answered 503 with Retry-After instead.
        qint64 maxPendingResponseBytes = 128 * 1024 * 1024;
    };

    // Answers one request, now or later (on this thread). The first send() counts; nothing is
    // sent once the connection is gone.
    class Responder
    {
    public:
        void send(const WebReply& reply) const;

    private:
        friend class HttpConnection;
        QPointer<HttpConnection> m_connection;
        quint64 m_sequence = 0;
    };

    // From the head alone: a reply refuses the request (its body is never read, and the
    // connection closes after the answer); nothing lets it go on.
    using HeadCheck = std::function<std::optional<WebReply>(const HttpRequest&)>;
    using Handler = std::function<void(const HttpRequest&, const Responder&)>;
    // Takes over (and owns) a socket whose WebSocket upgrade passed the head check; the upgrade
    // request is still unread in it.
    using UpgradeHandler = std::function<void(QTcpSocket*)>;
    // From a request head that passed the head check: true when it carries valid credentials.
    // Its connection no longer counts against maxConnectionsPerAddress.
    using Vouch = std::function<bool(const HttpRequest&)>;

    explicit BoundedHttpServer(Limits limits, QObject* parent = nullptr);
    ~BoundedHttpServer() override;

    void setHeadCheck(HeadCheck check) { m_headCheck = std::move(check); }
    void setHandler(Handler handler) { m_handler = std::move(handler); }
    void setUpgradeHandler(UpgradeHandler handler) { m_upgrade = std::move(handler); }
    void setVouch(Vouch vouch) { m_vouch = std::move(vouch); }
#if QT_CONFIG(ssl)
    void setTls(const QSslConfiguration& configuration);
#endif

    // Returns the bound port, 0 when listening failed.
    quint16 listen(const QHostAddress& address, quint16 port);
    int connectionCount() const
    {
        return int(m_connections.size());
    }
    // Connections from `address` counted against maxConnectionsPerAddress.
    int unvouchedCount(const QHostAddress& address) const;
    // Answer bytes written and not yet taken by the clients.
    qint64 pendingResponseBytes() const
    {
        return m_pendingBytes;
    }
    const Limits& limits() const
    {
        return m_limits;
    }

private:
    friend class HttpConnection;
    class Listener;

    void accept(qintptr descriptor);
    void release(HttpConnection* connection);
    void vouched(HttpConnection* connection);
    // The answer to send instead of `reply` when it is over the response budgets; nothing: send it.
    std::optional<WebReply> overBudget(const WebReply& reply) const;
    // Gives memory freed after a large answer back to the system (once, shortly after).
    void scheduleTrim();

    Limits m_limits;
    HeadCheck m_headCheck;
    Handler m_handler;
    UpgradeHandler m_upgrade;
    Vouch m_vouch;
    std::unique_ptr<Listener> m_listener;
    QSet<HttpConnection*> m_connections;
    // Per address, its connections without a vouched request, oldest first.
    QHash<QHostAddress, QList<HttpConnection*>> m_unvouched;
    qint64 m_pendingBytes = 0;
    bool m_trimScheduled = false;
    bool m_tls = false;
    bool m_paused = false;
#if QT_CONFIG(ssl)
    QSslConfiguration m_tlsConfiguration;
#endif
};

} // namespace outbox::web
