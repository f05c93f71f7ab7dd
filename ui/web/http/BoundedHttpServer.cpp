#include "ui/web/http/BoundedHttpServer.h"

#include <QCoreApplication>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QUrl>
#include <http_parser.h>
#include <sys/socket.h>
#include <unistd.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#if QT_CONFIG(ssl)
#include <QSslSocket>
#endif

namespace outbox::web {

namespace {

QString httpTr(const char* text)
{
    return QCoreApplication::translate("outbox::web::BoundedHttpServer", text);
}

constexpr qint64 ReadChunk = 16 * 1024;
// What the socket may hold that nobody has read yet: a little more than a request head, so that
// the head limit, not the buffer, is what refuses a long head.
constexpr qint64 SocketReadBuffer = 32 * 1024;
// An answer at least this large leaves freed memory that malloc keeps unless asked to give it back.
constexpr qint64 TrimAfterBytes = 1024 * 1024;
constexpr int TrimDelayMs = 200;

QHostAddress normalized(QHostAddress a)
{
    bool isV4 = false;
    const quint32 v4 = a.toIPv4Address(&isV4);
    return isV4 ? QHostAddress(v4) : a;
}

} // namespace

// One client connection: reads and parses requests one at a time, answers them in order, and
// reads nothing more while an answer is pending or too much of it waits to be sent.
class HttpConnection : public QObject
{
public:
    HttpConnection(BoundedHttpServer& server, QTcpSocket* socket, QHostAddress peer, bool tls)
        : QObject(&server), m_server(server), m_socket(socket), m_peer(std::move(peer)), m_tls(tls)
    {
        http_parser_init(&m_parser, HTTP_REQUEST);
        m_parser.data = this;
        m_socket->setParent(this);
        m_socket->setReadBufferSize(SocketReadBuffer);
        m_timer.setSingleShot(true);
        connect(&m_timer, &QTimer::timeout, this, [this] { destroy(); });
        connect(m_socket, &QTcpSocket::readyRead, this, [this] { onReadyRead(); });
        connect(m_socket, &QTcpSocket::bytesWritten, this, [this](qint64 n) { onBytesWritten(n); });
        connect(m_socket, &QTcpSocket::disconnected, this, [this] { destroy(); });
        m_timer.start(m_server.m_limits.headTimeoutMs); // the TLS handshake and the first head
    }

    ~HttpConnection() override
    {
        if (!m_released) // destroy() released it already, maybe long before the server went
            m_server.release(this);
    }

    const QHostAddress& peer() const { return m_peer; }
    // Idle or slow: no complete request being answered (evicted first when its address is full).
    bool idle() const { return m_state != State::Handling; }

    // Begins reading requests (for TLS: once the handshake is done).
    void start()
    {
        m_state = State::Reading;
        m_socket->startTransaction(); // a WebSocket upgrade hands the request over unread
        m_inTransaction = true;
        onReadyRead();
    }

    void send(quint64 sequence, const WebReply& reply)
    {
        if (sequence != m_sequence || m_state != State::Handling)
            return;
        if (auto refusal = m_server.overBudget(reply))
            write(refusal->toHttp(m_keepAlive));
        else
            write(reply.toHttp(m_keepAlive));
        if (!m_keepAlive)
            return linger();
        m_state = State::Reading;
        m_request = HttpRequest();
        m_timer.start(m_server.m_limits.idleTimeoutMs);
        http_parser_pause(&m_parser, 0);
        QTimer::singleShot(0, this, [this] { onReadyRead(); }); // pipelined requests, after this call returns
    }

    // Closes at once; the connection object goes away on the next turn of the event loop.
    void destroy()
    {
        if (m_state == State::Closed)
            return;
        m_state = State::Closed;
        m_timer.stop();
        m_server.release(this); // the slot is free at once
        m_released = true;
        if (m_socket) {
            m_socket->disconnect(this);
            m_socket->abort();
        }
        deleteLater();
    }

private:
    enum class State {
        Handshake, // TLS
        Reading,
        Handling,
        Lingering,
        Closed,
    };

    static HttpConnection* self(http_parser* p) { return static_cast<HttpConnection*>(p->data); }

    static const http_parser_settings& settings()
    {
        static const http_parser_settings s = [] {
            http_parser_settings t;
            http_parser_settings_init(&t);
            t.on_message_begin = [](http_parser* p) { return self(p)->onMessageBegin(); };
            t.on_url = [](http_parser* p, const char* at, size_t n) { return self(p)->onUrl(at, n); };
            t.on_header_field = [](http_parser* p, const char* at, size_t n) {
                return self(p)->onHeaderField(at, n);
            };
            t.on_header_value = [](http_parser* p, const char* at, size_t n) {
                return self(p)->onHeaderValue(at, n);
            };
            t.on_headers_complete = [](http_parser* p) { return self(p)->onHeadersComplete(); };
            t.on_body = [](http_parser* p, const char* at, size_t n) { return self(p)->onBody(at, n); };
            t.on_message_complete = [](http_parser* p) { return self(p)->onMessageComplete(); };
            return t;
        }();
        return s;
    }

    // Refuses from within a parser callback: the answer goes out once the parser has stopped.
    int refuseInCallback(WebReply reply)
    {
        m_refusal = std::move(reply);
        return -1;
    }

    bool countHead(size_t n)
    {
        m_headBytes += qint64(n);
        return m_headBytes <= m_server.m_limits.maxHeadBytes;
    }

    WebReply headTooLarge() const
    {
        return WebReply::error(431,
                               httpTr("the request head is larger than %1 bytes or has more than %2 headers")
                                   .arg(m_server.m_limits.maxHeadBytes)
                                   .arg(m_server.m_limits.maxHeaderCount));
    }

    int onMessageBegin()
    {
        m_request = HttpRequest();
        m_request.peer = m_peer;
        m_request.tls = m_tls;
        m_field.clear();
        m_value.clear();
        m_inValue = false;
        m_headBytes = 0;
        m_headDone = false;
        m_messageComplete = false;
        if (!m_firstRequest)
            m_timer.start(m_server.m_limits.headTimeoutMs);
        return 0;
    }

    int onUrl(const char* at, size_t n)
    {
        if (!countHead(n))
            return refuseInCallback(WebReply::error(
                414,
                httpTr("the request target is longer than %1 bytes").arg(m_server.m_limits.maxHeadBytes)));
        m_request.target.append(at, qsizetype(n));
        return 0;
    }

    bool commitHeader()
    {
        if (m_inValue) {
            if (m_request.headers.size() >= m_server.m_limits.maxHeaderCount)
                return false;
            m_request.headers.append(qMakePair(m_field, m_value.trimmed()));
            m_field.clear();
            m_value.clear();
            m_inValue = false;
        }
        return true;
    }

    int onHeaderField(const char* at, size_t n)
    {
        if (!countHead(n))
            return refuseInCallback(headTooLarge());
        if (m_headDone)
            return 0; // trailers of a chunked body: counted, not kept
        if (!commitHeader())
            return refuseInCallback(headTooLarge());
        m_field.append(at, qsizetype(n));
        return 0;
    }

    int onHeaderValue(const char* at, size_t n)
    {
        if (!countHead(n))
            return refuseInCallback(headTooLarge());
        if (m_headDone)
            return 0;
        m_value.append(at, qsizetype(n));
        m_inValue = true;
        return 0;
    }

    int onHeadersComplete()
    {
        if (!commitHeader())
            return refuseInCallback(headTooLarge());
        m_headDone = true;
        m_headBytes = 0; // from here on: the trailers' budget
        const auto& limits = m_server.m_limits;
        m_request.method = http_method_str(http_method(m_parser.method));
        if (!m_request.target.startsWith('/'))
            return refuseInCallback(WebReply::error(400, httpTr("the request target must be a path")));
        const QUrl url = QUrl::fromEncoded(m_request.target);
        m_request.path = url.path();
        m_request.query = QUrlQuery(url);
        m_request.chunked = (m_parser.flags & F_CHUNKED) != 0;
        m_request.contentLength = (m_parser.flags & F_CONTENTLENGTH) ? qint64(m_parser.content_length) : -1;
        if (m_parser.content_length > quint64(limits.maxBodyBytes) && (m_parser.flags & F_CONTENTLENGTH))
            m_request.contentLength =
                limits.maxBodyBytes + 1; // large enough to refuse, small enough to print
        m_request.webSocketUpgrade =
            m_parser.upgrade && m_parser.method == HTTP_GET &&
            m_request.header("Upgrade").compare(QByteArrayLiteral("websocket"), Qt::CaseInsensitive) == 0;
        if (m_parser.upgrade && !m_request.webSocketUpgrade)
            m_parser.upgrade = 0; // another protocol (h2c, CONNECT…): answered as a plain request
        m_keepAlive = http_should_keep_alive(&m_parser) != 0;

        if (m_request.contentLength > limits.maxBodyBytes)
            return refuseInCallback(WebReply::error(
                413, httpTr("the request body is larger than %1 bytes").arg(limits.maxBodyBytes)));
        if (m_request.webSocketUpgrade && m_request.hasBody())
            return refuseInCallback(WebReply::error(400, httpTr("a WebSocket upgrade carries no body")));
        if (m_request.webSocketUpgrade && !m_inTransaction)
            return refuseInCallback(WebReply::error(
                400, httpTr("open a new connection for the WebSocket (it must be its first request)")));
        if (m_server.m_headCheck) {
            if (auto refusal = m_server.m_headCheck(m_request))
                return refuseInCallback(std::move(*refusal));
        }
        if (!m_vouched && m_server.m_vouch && m_server.m_vouch(m_request)) {
            m_vouched = true;
            m_server.vouched(this);
        }
        if (m_request.hasBody()) {
            if (m_request.header("Expect").compare(QByteArrayLiteral("100-continue"), Qt::CaseInsensitive) ==
                0)
                write(QByteArrayLiteral("HTTP/1.1 100 Continue\r\n\r\n"));
            m_timer.start(limits.bodyTimeoutMs);
        }
        return 0;
    }

    int onBody(const char* at, size_t n)
    {
        if (m_request.body.size() + qint64(n) > m_server.m_limits.maxBodyBytes)
            return refuseInCallback(WebReply::error(
                413, httpTr("the request body is larger than %1 bytes").arg(m_server.m_limits.maxBodyBytes)));
        m_request.body.append(at, qsizetype(n));
        return 0;
    }

    int onMessageComplete()
    {
        m_messageComplete = true;
        http_parser_pause(&m_parser, 1); // one request at a time; the rest waits for the answer
        return 0;
    }

    void onReadyRead()
    {
        if (m_state == State::Lingering) {
            m_socket->skip(m_socket->bytesAvailable()); // the refused upload, discarded unread
            return;
        }
        while (m_state == State::Reading) {
            if (m_socket->bytesToWrite() > m_server.m_limits.maxQueuedReplyBytes)
                return; // resumed by onBytesWritten()
            QByteArray chunk;
            if (!m_unparsed.isEmpty()) {
                chunk.swap(m_unparsed);
            } else {
                if (m_socket->bytesAvailable() <= 0)
                    return;
                chunk = m_socket->read(ReadChunk);
                if (chunk.isEmpty())
                    return;
            }
            const size_t parsed =
                http_parser_execute(&m_parser, &settings(), chunk.constData(), size_t(chunk.size()));
            const http_errno error = HTTP_PARSER_ERRNO(&m_parser);
            if (m_refusal)
                return refuse(*std::exchange(m_refusal, std::nullopt));
            if (error != HPE_OK && error != HPE_PAUSED)
                return refuse(WebReply::error(
                    400,
                    httpTr("malformed request: %1").arg(QString::fromLatin1(http_errno_description(error)))));
            if (m_headDone && m_inTransaction && !m_request.webSocketUpgrade) {
                m_socket->commitTransaction();
                m_inTransaction = false;
            }
            if (!m_messageComplete)
                continue;
            if (m_request.webSocketUpgrade)
                return handOver();
            if (parsed < size_t(chunk.size()))
                m_unparsed = chunk.mid(qsizetype(parsed));
            dispatch();
        }
    }

    // Everything written to the socket goes through here: the server counts what waits.
    void write(const QByteArray& data)
    {
        m_socket->write(data);
        m_pending += data.size();
        m_server.m_pendingBytes += data.size();
        if (data.size() >= TrimAfterBytes)
            m_trimWhenSent = true;
    }

    void onBytesWritten(qint64 n)
    {
        n = qMin(n, m_pending);
        m_pending -= n;
        m_server.m_pendingBytes -= n;
        if (m_pending == 0 && m_trimWhenSent) {
            m_trimWhenSent = false;
            m_server.scheduleTrim();
        }
        if (m_state == State::Reading && m_socket->bytesToWrite() <= m_server.m_limits.maxQueuedReplyBytes)
            onReadyRead();
        if (m_state == State::Lingering && m_socket->bytesToWrite() == 0)
            halfClose();
    }

    void dispatch()
    {
        m_state = State::Handling;
        m_timer.stop(); // the answer may take a database round trip
        m_firstRequest = false;
        BoundedHttpServer::Responder responder;
        responder.m_connection = this;
        responder.m_sequence = ++m_sequence;
        if (m_server.m_handler)
            m_server.m_handler(m_request, responder);
        else
            send(m_sequence, WebReply::error(404, httpTr("there is nothing here")));
    }

    void handOver()
    {
        m_socket->rollbackTransaction(); // the upgrade request is read again by its new owner
        m_inTransaction = false;
        QTcpSocket* socket = std::exchange(m_socket, nullptr);
        socket->disconnect(this);
        socket->setParent(nullptr);
        destroy();
        if (m_server.m_upgrade)
            m_server.m_upgrade(socket);
        else
            socket->deleteLater();
    }

    // Answers and closes; the client's upload (if any) is read and thrown away for a moment so
    // that the client sees the answer rather than a reset.
    void refuse(const WebReply& reply)
    {
        if (m_inTransaction) {
            m_socket->commitTransaction();
            m_inTransaction = false;
        }
        m_keepAlive = false;
        m_state = State::Handling;
        write(reply.toHttp(false));
        linger();
    }

    void linger()
    {
        m_state = State::Lingering;
        m_unparsed.clear();
        m_request = HttpRequest();
        m_timer.start(m_server.m_limits.lingerMs);
        m_socket->skip(m_socket->bytesAvailable());
        if (m_socket->bytesToWrite() == 0)
            halfClose();
    }

    // All of the answer is with the kernel: say so to the client (FIN) and wait for it to close.
    void halfClose()
    {
        if (m_halfClosed)
            return;
        m_halfClosed = true;
        if (!m_tls && m_socket->socketDescriptor() >= 0)
            ::shutdown(int(m_socket->socketDescriptor()), SHUT_WR);
    }

    BoundedHttpServer& m_server;
    QTcpSocket* m_socket;
    QHostAddress m_peer;
    bool m_tls;
    http_parser m_parser;
    State m_state = State::Handshake;
    QTimer m_timer;
    HttpRequest m_request;
    QByteArray m_field;
    QByteArray m_value;
    QByteArray m_unparsed; // read but not yet parsed: the next pipelined request
    std::optional<WebReply> m_refusal;
    qint64 m_headBytes = 0;
    quint64 m_sequence = 0;
    bool m_inValue = false;
    bool m_headDone = false;
    bool m_messageComplete = false;
    bool m_keepAlive = true;
    bool m_firstRequest = true;
    bool m_inTransaction = false;
    bool m_halfClosed = false;
    bool m_released = false;
    bool m_vouched = false;
    bool m_trimWhenSent = false;
    qint64 m_pending = 0; // written, not yet taken by the kernel

    friend class BoundedHttpServer;
};

class BoundedHttpServer::Listener : public QTcpServer
{
public:
    explicit Listener(BoundedHttpServer& owner) : m_owner(owner) {}

protected:
    void incomingConnection(qintptr descriptor) override { m_owner.accept(descriptor); }

private:
    BoundedHttpServer& m_owner;
};

void BoundedHttpServer::Responder::send(const WebReply& reply) const
{
    if (m_connection)
        m_connection->send(m_sequence, reply);
}

BoundedHttpServer::BoundedHttpServer(Limits limits, QObject* parent)
    : QObject(parent), m_limits(limits), m_listener(std::make_unique<Listener>(*this))
{
}

BoundedHttpServer::~BoundedHttpServer()
{
    m_listener->close();
    const auto connections = m_connections;
    for (HttpConnection* c : connections)
        delete c; // aborts its socket; release() forgets it
    // Connections closed earlier and still waiting for deleteLater() are children: QObject
    // deletes them, and they no longer touch this server.
}

#if QT_CONFIG(ssl)
void BoundedHttpServer::setTls(const QSslConfiguration& configuration)
{
    m_tls = true;
    m_tlsConfiguration = configuration;
}
#endif

quint16 BoundedHttpServer::listen(const QHostAddress& address, quint16 port)
{
    if (!m_listener->listen(address, port))
        return 0;
    return m_listener->serverPort();
}

void BoundedHttpServer::accept(qintptr descriptor)
{
    QTcpSocket* socket = nullptr;
#if QT_CONFIG(ssl)
    if (m_tls)
        socket = new QSslSocket;
#endif
    if (!socket)
        socket = new QTcpSocket;
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        ::close(int(descriptor));
        return;
    }
    const QHostAddress peer = normalized(socket->peerAddress());
    // The address is full of connections nobody vouched for: the oldest idle one makes room (a
    // client that authenticates is served whatever anonymous sockets share its address); when
    // all of them are busy answering, the new one is refused.
    while (m_unvouched.value(peer).size() >= m_limits.maxConnectionsPerAddress) {
        HttpConnection* oldest = nullptr;
        for (HttpConnection* c : m_unvouched.value(peer)) {
            if (c->idle()) {
                oldest = c;
                break;
            }
        }
        if (!oldest) {
            socket->abort();
            delete socket;
            return;
        }
        oldest->destroy(); // release() takes it off the list
    }
    auto* connection = new HttpConnection(*this, socket, peer, m_tls);
    m_connections.insert(connection);
    m_unvouched[peer].append(connection);
    if (int(m_connections.size()) >= m_limits.maxConnections && !m_paused) {
        m_listener->pauseAccepting(); // the rest wait in the kernel's backlog
        m_paused = true;
    }
#if QT_CONFIG(ssl)
    if (m_tls) {
        auto* ssl = static_cast<QSslSocket*>(socket);
        ssl->setSslConfiguration(m_tlsConfiguration);
        QObject::connect(ssl, &QSslSocket::encrypted, connection, [connection] { connection->start(); });
        QObject::connect(ssl, &QSslSocket::sslErrors, connection, [connection] { connection->destroy(); });
        ssl->startServerEncryption();
        return;
    }
#endif
    connection->start();
}

void BoundedHttpServer::release(HttpConnection* connection)
{
    if (!m_connections.remove(connection))
        return;
    m_pendingBytes -= std::exchange(connection->m_pending, 0);
    auto it = m_unvouched.find(connection->peer());
    if (it != m_unvouched.end()) {
        it->removeOne(connection);
        if (it->isEmpty())
            m_unvouched.erase(it);
    }
    if (m_paused && int(m_connections.size()) < m_limits.maxConnections && m_listener->isListening()) {
        m_listener->resumeAccepting();
        m_paused = false;
    }
}

void BoundedHttpServer::vouched(HttpConnection* connection)
{
    auto it = m_unvouched.find(connection->peer());
    if (it == m_unvouched.end())
        return;
    it->removeOne(connection);
    if (it->isEmpty())
        m_unvouched.erase(it);
}

int BoundedHttpServer::unvouchedCount(const QHostAddress& address) const
{
    return int(m_unvouched.value(normalized(address)).size());
}

std::optional<WebReply> BoundedHttpServer::overBudget(const WebReply& reply) const
{
    const qint64 size = reply.body.size();
    std::optional<WebReply> refusal;
    if (size > m_limits.maxResponseBytes)
        refusal =
            WebReply::error(503, httpTr("the answer would be %1 bytes, more than the server sends at once "
                                        "(%2, [web] max_response_bytes): ask for fewer rows (limit)")
                                     .arg(size)
                                     .arg(m_limits.maxResponseBytes));
    else if (m_pendingBytes + size > m_limits.maxPendingResponseBytes)
        refusal = WebReply::error(503, httpTr("the server is busy sending %1 bytes of answers "
                                              "([web] max_pending_response_bytes is %2): try again shortly")
                                           .arg(m_pendingBytes)
                                           .arg(m_limits.maxPendingResponseBytes));
    if (refusal)
        refusal->headers.append({QByteArrayLiteral("Retry-After"), QByteArrayLiteral("2")});
    return refusal;
}

void BoundedHttpServer::scheduleTrim()
{
    if (m_trimScheduled)
        return;
    m_trimScheduled = true;
    QTimer::singleShot(TrimDelayMs, this, [this] {
        m_trimScheduled = false;
#if defined(__GLIBC__)
        malloc_trim(0); // the freed answers (and the database threads' arenas) back to the system
#endif
    });
}

} // namespace outbox::web
