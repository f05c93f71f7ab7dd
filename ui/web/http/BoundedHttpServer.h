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
        int maxConnectionsPerAddress = 64;
        qint64 maxQueuedReplyBytes = 1024 * 1024; // no further request is read while more waits to be sent
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

    explicit BoundedHttpServer(Limits limits, QObject* parent = nullptr);
    ~BoundedHttpServer() override;

    void setHeadCheck(HeadCheck check) { m_headCheck = std::move(check); }
    void setHandler(Handler handler) { m_handler = std::move(handler); }
    void setUpgradeHandler(UpgradeHandler handler) { m_upgrade = std::move(handler); }
#if QT_CONFIG(ssl)
    void setTls(const QSslConfiguration& configuration);
#endif

    // Returns the bound port, 0 when listening failed.
    quint16 listen(const QHostAddress& address, quint16 port);
    int connectionCount() const
    {
        return int(m_connections.size());
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

    Limits m_limits;
    HeadCheck m_headCheck;
    Handler m_handler;
    UpgradeHandler m_upgrade;
    std::unique_ptr<Listener> m_listener;
    QSet<HttpConnection*> m_connections;
    QHash<QHostAddress, int> m_perAddress;
    bool m_tls = false;
    bool m_paused = false;
#if QT_CONFIG(ssl)
    QSslConfiguration m_tlsConfiguration;
#endif
};

} // namespace outbox::web
