// The web server against hostile clients and curious viewers: WebSocket origins and host names
// (cross-site reads of the dashboard), slots held by sockets that never authenticate, clients
// that never read, and masking of every text a viewer sees (headers, errors, stack traces, keys,
// audit reasons, relay errors), over the API and /ws.
#include "core/db/DeadLetterStore.h"
#include "core/db/EventWriter.h"
#include "core/metrics/MetricsSampler.h"
#include "tests/support/TestDatabases.h"
#include "tests/web/HttpTestClient.h"
#include "ui/web/WebServer.h"
#include "ui/web/http/AccessControl.h"
#include "ui/web/live/DashboardHub.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QWebSocket>

using namespace outbox;
using namespace outbox::test;
using namespace outbox::web;

namespace {

const QByteArray ViewerSecret = "hardening-viewer-secret";
const QByteArray OperatorSecret = "hardening-operator-secret";
const QByteArray Card = "4111111111111111";
const QByteArray SpacedCard = "4111 1111 1111 1111";
const QByteArray Email = "bob@example.com";

WebConfig hardeningConfig(bool publicDashboard = false, int intervalMs = 200)
{
    WebConfig c;
    c.port = 0;
    c.sampleIntervalMs = intervalMs;
    c.publicDashboard = publicDashboard;
    c.tokens = {
        ApiToken{QStringLiteral("wallboard"), Role::Viewer, AccessControl::hashToken(ViewerSecret)},
        ApiToken{QStringLiteral("alice-ops"), Role::Operator, AccessControl::hashToken(OperatorSecret)}};
    c.maskedFields = {QStringLiteral("card.number"), QStringLiteral("customer_email")};
    return c;
}

QUrl wsUrl(const WebServer& server)
{
    QUrl u = server.baseUrl();
    u.setScheme(QStringLiteral("ws"));
    u.setPath(QStringLiteral("/ws"));
    return u;
}

QString authMessage(const QByteArray& token)
{
    return QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("type"), QStringLiteral("auth")},
                                                       {QStringLiteral("token"), QString::fromUtf8(token)}})
                                 .toJson(QJsonDocument::Compact));
}

// A dashboard client on Qt's QWebSocket, optionally from a web page's origin.
struct WsClient
{
    std::unique_ptr<QWebSocket> socket;
    int snapshots = 0;
    bool closed = false;
    bool keepLast = true; // false: count snapshots without parsing them (big ones)
    QJsonObject last;

    explicit WsClient(const QString& origin = {}) : socket(std::make_unique<QWebSocket>(origin)) {}

    void open(const QUrl& url, const QByteArray& token)
    {
        QObject::connect(socket.get(), &QWebSocket::connected, socket.get(),
                         [this, token] { socket->sendTextMessage(authMessage(token)); });
        QObject::connect(socket.get(), &QWebSocket::textMessageReceived, socket.get(),
                         [this](const QString& t) {
                             if (!keepLast) {
                                 snapshots += t.contains(QLatin1String("\"type\":\"snapshot\"")) ? 1 : 0;
                                 return;
                             }
                             const QJsonObject o = QJsonDocument::fromJson(t.toUtf8()).object();
                             if (o.value(QStringLiteral("type")).toString() == QLatin1String("snapshot")) {
                                 ++snapshots;
                                 last = o.value(QStringLiteral("snapshot")).toObject();
                             }
                         });
        QObject::connect(socket.get(), &QWebSocket::disconnected, socket.get(), [this] { closed = true; });
        socket->open(url);
    }
};

// A raw TCP client that speaks just enough HTTP and WebSocket framing to misbehave: from any
// loopback source address, with any Host and Origin, reading only when told to.
class RawClient
{
public:
    explicit RawClient(const QHostAddress& from = QHostAddress::LocalHost)
    {
        m_socket.bind(from);
        QObject::connect(&m_socket, &QTcpSocket::disconnected, &m_socket, [this] { m_closed = true; });
        QObject::connect(&m_socket, &QTcpSocket::readyRead, &m_socket, [this] {
            if (m_reading)
                m_received += m_socket.readAll();
        });
    }

    // Connects without blocking (the server runs on this thread); writes wait for the connection.
    void connectTo(quint16 port)
    {
        QObject::connect(&m_socket, &QTcpSocket::connected, &m_socket,
                         [this] { m_socket.write(std::exchange(m_pending, {})); });
        m_socket.connectToHost(QHostAddress::LocalHost, port);
    }
    void write(const QByteArray& bytes)
    {
        if (m_socket.state() == QAbstractSocket::ConnectedState)
            m_socket.write(bytes);
        else
            m_pending += bytes;
    }
    // A small kernel receive buffer (before connecting): a client that stops reading stalls fast.
    void shrinkReceiveBuffer()
    {
        m_socket.setSocketOption(QAbstractSocket::ReceiveBufferSizeSocketOption, 4096);
    }
    // From now on nothing is read: the kernel's buffers fill and the server's queue grows.
    void stopReading()
    {
        m_reading = false;
        m_socket.setReadBufferSize(1024);
    }
    bool closed() const { return m_closed; }
    const QByteArray& received() const { return m_received; }
    // Status code of the first answer, 0 before it arrived.
    int status() const { return m_received.startsWith("HTTP/1.1 ") ? m_received.mid(9, 3).toInt() : 0; }

    static QByteArray handshake(quint16 port, const QByteArray& host = {}, const QByteArray& origin = {})
    {
        QByteArray h =
            "GET /ws HTTP/1.1\r\nHost: " + (host.isEmpty() ? "127.0.0.1:" + QByteArray::number(port) : host) +
            "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n";
        if (!origin.isEmpty())
            h += "Origin: " + origin + "\r\n";
        return h + "\r\n";
    }
    // A masked text frame, as a client must send it.
    static QByteArray textFrame(const QByteArray& payload)
    {
        QByteArray f;
        f += char(0x81);
        f += char(0x80 | payload.size()); // payloads under 126 bytes here
        const QByteArray mask("\x11\x22\x33\x44", 4);
        f += mask;
        for (int i = 0; i < payload.size(); ++i)
            f += char(payload[i] ^ mask[i % 4]);
        return f;
    }

private:
    QTcpSocket m_socket;
    QByteArray m_pending;
    QByteArray m_received;
    bool m_reading = true;
    bool m_closed = false;
};

qint64 insertSensitiveEvent(Database& db)
{
    NewEvent e;
    e.eventType = QStringLiteral("CardCharged");
    e.aggregateType = QStringLiteral("Payment");
    e.aggregateId = QStringLiteral("pay-7");
    e.payload = "{\"amount\":12,\"card\":{\"number\":\"" + Card +
                "\",\"brand\":\"visa\"},\"note\":\"paid with " + SpacedCard + "\"}";
    e.headers = QJsonObject{{QStringLiteral("customer_email"), QString::fromUtf8(Email)},
                            {QStringLiteral("trace_id"), QStringLiteral("trace-7")}};
    if (!db.beginWrite())
        qFatal("begin failed");
    if (!EventWriter(db).append(e) || !db.commit())
        qFatal("insert failed");
    const qint64 id = db.scalar(QStringLiteral("SELECT MAX(id) FROM {events}")).value().toLongLong();
    forceStatus(db, {id}, QStringLiteral("FAILED"),
                QStringLiteral("card ") + QString::fromUtf8(Card) +
                    QStringLiteral(" declined for customer_email=") + QString::fromUtf8(Email));
    return id;
}

qint64 insertSensitiveDeadLetter(Database& db)
{
    DeadLetter l;
    l.consumerName = QStringLiteral("billing");
    l.eventId = QStringLiteral("evt-7");
    l.topic = QStringLiteral("payments");
    l.messageKey = QString::fromUtf8(Card);
    l.headers = "{\"customer_email\":\"" + Email + "\",\"trace_id\":\"trace-7\"}";
    l.payload = "{\"card\":{\"number\":\"" + Card + "\"},\"amount\":12}";
    l.error = QStringLiteral("gateway refused card ") + QString::fromUtf8(SpacedCard);
    l.stacktrace = QStringLiteral("PaymentError: card_number=%1\n  at charge (billing.js:12)")
                       .arg(QString::fromUtf8(Card));
    l.attempts = 3;
    auto id = DeadLetterStore(db).insert(l);
    if (!id)
        qFatal("dead letter insert failed: %s", qPrintable(id.message()));
    return *id;
}

// Like QTRY_VERIFY, but by the wall clock: a busy event loop cannot stretch the timeout.
template <typename Pred> bool waitUntil(Pred pred, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!pred()) {
        if (t.elapsed() > timeoutMs)
            return false;
        QTest::qWait(50);
    }
    return true;
}

bool leaks(const QByteArray& body)
{
    return body.contains(Card) || body.contains(SpacedCard) || body.contains(Email);
}

} // namespace

class TestWebHardening : public QObject
{
    Q_OBJECT

private slots:
    // Item: cross-site reads of the public dashboard.
    void webSocketOriginMustBeTheServedHost()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("origin"));
        WebConfig config = hardeningConfig(true);
        config.allowedOrigins = {QStringLiteral("https://noc.example.com")};
        WebServer server(config, DatabaseTarget(db->url(), QString()));
        QVERIFY(server.start().ok());
        const QString self = QStringLiteral("http://127.0.0.1:%1").arg(server.baseUrl().port());

        WsClient evil(QStringLiteral("http://evil.example"));
        evil.open(wsUrl(server), {});
        WsClient sameOrigin(self);
        sameOrigin.open(wsUrl(server), {});
        WsClient allowed(QStringLiteral("https://noc.example.com"));
        allowed.open(wsUrl(server), {});
        WsClient otherPort(QStringLiteral("http://127.0.0.1:1"));
        otherPort.open(wsUrl(server), {});
        QTRY_VERIFY_WITH_TIMEOUT(sameOrigin.snapshots >= 1 && allowed.snapshots >= 1, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(evil.closed && otherPort.closed, 10000);
        QCOMPARE(evil.snapshots, 0);
        QCOMPARE(otherPort.snapshots, 0);

        // The refusal is an HTTP answer to the handshake, not a socket that opened.
        RawClient raw;
        raw.connectTo(server.baseUrl().port());
        raw.write(RawClient::handshake(server.baseUrl().port(), {}, "http://evil.example"));
        QTRY_COMPARE_WITH_TIMEOUT(raw.status(), 403, 5000);

        // DNS rebinding: the attacker's name resolving to 127.0.0.1. Origin and Host agree, but
        // a loopback server answers to loopback names and the allowed origins only.
        RawClient rebound;
        rebound.connectTo(server.baseUrl().port());
        rebound.write(RawClient::handshake(
            server.baseUrl().port(), "evil.example:" + QByteArray::number(server.baseUrl().port()),
            "http://evil.example:" + QByteArray::number(server.baseUrl().port())));
        QTRY_COMPARE_WITH_TIMEOUT(rebound.status(), 421, 5000);
        RawClient metrics;
        metrics.connectTo(server.baseUrl().port());
        metrics.write("GET /metrics HTTP/1.1\r\nHost: evil.example\r\n\r\n");
        QTRY_COMPARE_WITH_TIMEOUT(metrics.status(), 421, 5000);
        RawClient localhost;
        localhost.connectTo(server.baseUrl().port());
        localhost.write("GET /metrics HTTP/1.1\r\nHost: localhost:" +
                        QByteArray::number(server.baseUrl().port()) + "\r\n\r\n");
        QTRY_COMPARE_WITH_TIMEOUT(localhost.status(), 200, 5000);
    }

    // Item: slot exhaustion by sockets that never authenticate.
    void waitingSocketsHaveTheirOwnCapsAndAShortWindow()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("slots"));
        WebServer server(hardeningConfig(), DatabaseTarget(db->url(), QString()));
        QVERIFY(server.start().ok());
        const quint16 port = server.baseUrl().port();

        // 100 anonymous sockets from one address (127.0.0.2) that never send a token.
        std::vector<std::unique_ptr<RawClient>> idle;
        for (int i = 0; i < 100; ++i) {
            idle.push_back(std::make_unique<RawClient>(QHostAddress(QStringLiteral("127.0.0.2"))));
            idle.back()->connectTo(port);
            idle.back()->write(RawClient::handshake(port));
        }
        QElapsedTimer sinceOpened;
        sinceOpened.start();
        auto closedCount = [&] {
            return int(std::count_if(idle.begin(), idle.end(), [](const auto& c) { return c->closed(); }));
        };
        // Those over the per-address cap are refused at once; the others wait their turn.
        QTRY_VERIFY_WITH_TIMEOUT(closedCount() >= 100 - DashboardHub::MaxWaitingPerAddress, 2500);
        QVERIFY2(closedCount() == 100 - DashboardHub::MaxWaitingPerAddress,
                 qPrintable(QString::number(closedCount())));
        QTRY_COMPARE_WITH_TIMEOUT(server.hub().waitingCount(), DashboardHub::MaxWaitingPerAddress, 2000);

        // A real dashboard from another address gets in while they wait.
        WsClient real;
        real.open(wsUrl(server), ViewerSecret);
        QTRY_VERIFY_WITH_TIMEOUT(real.snapshots >= 1, 5000);
        QCOMPARE(server.hub().authenticatedCount(), 1);

        // And the waiting ones are gone after the short authentication window.
        QTRY_VERIFY_WITH_TIMEOUT(closedCount() == 100, DashboardHub::AuthTimeoutMs + 3000);
        QVERIFY2(sinceOpened.elapsed() < DashboardHub::AuthTimeoutMs + 3000,
                 qPrintable(QString::number(sinceOpened.elapsed())));
        QCOMPARE(server.hub().waitingCount(), 0);
        QVERIFY(!real.closed);
    }

    // Item: a client that never reads must not grow the server's queue without bound.
    void aClientThatDoesNotReadIsDropped()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("slowreader"));
        // Large snapshots: 300 relays with long errors make each push about 200 KB.
        QVERIFY(db->beginWrite());
        for (int i = 0; i < 300; ++i)
            QVERIFY(
                db->exec(
                      QStringLiteral(
                          "INSERT INTO {relays} (worker_id, host, pid, last_error) VALUES (:w, 'h', 1, :e)"),
                      {{QStringLiteral(":w"), QStringLiteral("relay-%1").arg(i)},
                       {QStringLiteral(":e"), QString(500, QLatin1Char('e'))}})
                    .ok());
        QVERIFY(db->commit());
        WebServer server(hardeningConfig(false, 200), DatabaseTarget(db->url(), QString()));
        QVERIFY(server.start().ok());
        const quint16 port = server.baseUrl().port();

        WsClient reader;
        reader.keepLast = false;
        reader.open(wsUrl(server), ViewerSecret);
        RawClient stuck;
        stuck.shrinkReceiveBuffer();
        stuck.connectTo(port);
        stuck.write(RawClient::handshake(port));
        QTRY_VERIFY_WITH_TIMEOUT(stuck.received().contains("\r\n\r\n"), 5000);
        QVERIFY(stuck.received().startsWith("HTTP/1.1 101"));
        stuck.write(RawClient::textFrame(authMessage(ViewerSecret).toUtf8()));
        QTRY_COMPARE_WITH_TIMEOUT(server.hub().authenticatedCount(), 2, 5000);
        stuck.stopReading();

        QVERIFY2(
            waitUntil([&] { return server.hub().authenticatedCount() == 1; }, 30000),
            qPrintable(QStringLiteral("%1 clients still connected").arg(server.hub().authenticatedCount())));
        QCOMPARE(server.hub().slowClientsDropped(), qint64(1));
        // The one dropped is the one that does not read: the reader is still served.
        QVERIFY(!reader.closed);
        const int before = reader.snapshots;
        QVERIFY2(waitUntil([&] { return reader.snapshots > before + 2; }, 10000),
                 qPrintable(QStringLiteral("reader got %1 more, closed %2")
                                .arg(reader.snapshots - before)
                                .arg(reader.closed)));
    }

    // Item: masking covers headers, error texts, dead-letter errors and stack traces, keys, audit
    // reasons and relay errors, over the API and /ws; operators still see everything.
    void viewersSeeNoSensitiveText_data() { TestDatabases::addKinds(); }
    void viewersSeeNoSensitiveText()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("maskall")));
        const qint64 eventId = insertSensitiveEvent(*db);
        const qint64 letterId = insertSensitiveDeadLetter(*db);
        QVERIFY(db->exec(QStringLiteral("INSERT INTO {relays} (worker_id, host, pid, last_error) VALUES "
                                        "('relay-a', 'h', 1, :e)"),
                         {{QStringLiteral(":e"),
                           QStringLiteral("produce failed for card %1").arg(QString::fromUtf8(Card))}})
                    .ok());
        WebServer server(hardeningConfig(), DatabaseTarget(db->url(), QString()));
        QVERIFY(server.start().ok());
        HttpTestClient http(server.baseUrl());
        // An operator's action whose reason carries a card number, for the audit log.
        QCOMPARE(http.post(QStringLiteral("/api/v1/events/requeue"),
                           "{\"ids\":[" + QByteArray::number(eventId) +
                               "],\"dry_run\":false,\"reason\":\"refund card " + Card + "\"}",
                           OperatorSecret)
                     .status,
                 200);
        QSignalSpy published(&server, &WebServer::snapshotPublished);
        QVERIFY(published.wait(10000));

        const QStringList paths = {
            QStringLiteral("/api/v1/events"),       QStringLiteral("/api/v1/events/%1").arg(eventId),
            QStringLiteral("/api/v1/dead-letters"), QStringLiteral("/api/v1/dead-letters/%1").arg(letterId),
            QStringLiteral("/api/v1/audit"),        QStringLiteral("/api/v1/summary")};
        for (const QString& path : paths) {
            const auto viewer = http.get(path, ViewerSecret);
            QCOMPARE(viewer.status, 200);
            QVERIFY2(!leaks(viewer.body),
                     qPrintable(path + QStringLiteral(": ") + QString::fromUtf8(viewer.body)));
            const auto op = http.get(path, OperatorSecret);
            QCOMPARE(op.status, 200);
            QVERIFY2(leaks(op.body),
                     qPrintable(path + QStringLiteral(" (operator): ") + QString::fromUtf8(op.body)));
        }

        // What is masked is replaced, and what is not sensitive is left alone.
        const QJsonObject event =
            http.get(QStringLiteral("/api/v1/events/%1").arg(eventId), ViewerSecret).json();
        QCOMPARE(event.value(QStringLiteral("headers"))
                     .toObject()
                     .value(QStringLiteral("customer_email"))
                     .toString(),
                 QStringLiteral("***"));
        QCOMPARE(
            event.value(QStringLiteral("headers")).toObject().value(QStringLiteral("trace_id")).toString(),
            QStringLiteral("trace-7"));
        QCOMPARE(event.value(QStringLiteral("payload")).toObject().value(QStringLiteral("note")).toString(),
                 QStringLiteral("paid with ***"));
        const QJsonObject letter =
            http.get(QStringLiteral("/api/v1/dead-letters/%1").arg(letterId), ViewerSecret).json();
        QCOMPARE(letter.value(QStringLiteral("message_key")).toString(), QStringLiteral("***"));
        QCOMPARE(letter.value(QStringLiteral("error")).toString(),
                 QStringLiteral("gateway refused card ***"));
        QVERIFY(letter.value(QStringLiteral("stacktrace"))
                    .toString()
                    .startsWith(QStringLiteral("PaymentError: card_number=***\n")));

        // The dashboard's pushed snapshot too.
        WsClient dashboard;
        dashboard.open(wsUrl(server), ViewerSecret);
        QTRY_VERIFY_WITH_TIMEOUT(dashboard.snapshots >= 1, 10000);
        const QByteArray pushed = QJsonDocument(dashboard.last).toJson(QJsonDocument::Compact);
        QVERIFY2(pushed.contains("relay-a") && !leaks(pushed), pushed.constData());
        QVERIFY(pushed.contains("produce failed for card ***"));
    }

    // The bounded HTTP layer speaks HTTP/1.1 as clients expect: pipelining in order, keep-alive,
    // HTTP/1.0, 100-continue, and one clear 400 for what it cannot accept.
    void httpLayerBasics()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("httpbasics"));
        forceStatus(*db, insertEvents(*db, 2), QStringLiteral("FAILED"), QStringLiteral("x"));
        WebServer server(hardeningConfig(), DatabaseTarget(db->url(), QString()));
        QVERIFY(server.start().ok());
        const quint16 port = server.baseUrl().port();
        const QByteArray host = "Host: 127.0.0.1:" + QByteArray::number(port) + "\r\n";
        const QByteArray viewer = "Authorization: Bearer " + ViewerSecret + "\r\n";
        const QByteArray op = "Authorization: Bearer " + OperatorSecret + "\r\n";
        const QByteArray dryRun = "{\"filter\":{\"status\":\"FAILED\"},\"dry_run\":true}";
        const QByteArray dryRunLength = "Content-Length: " + QByteArray::number(dryRun.size()) + "\r\n";

        // Three pipelined requests in one write: three answers, in order, on one connection.
        RawClient pipelined;
        pipelined.connectTo(port);
        pipelined.write("GET /api/v1/events?limit=1 HTTP/1.1\r\n" + host + viewer + "\r\n" +
                        "GET /api/v1/nothing HTTP/1.1\r\n" + host + viewer + "\r\n" +
                        "POST /api/v1/events/requeue HTTP/1.1\r\n" + host + op + dryRunLength +
                        "Connection: close\r\n\r\n" + dryRun);
        QTRY_VERIFY_WITH_TIMEOUT(pipelined.closed(), 10000);
        const QList<QByteArray> answers = pipelined.received().split('\n');
        QStringList statuses;
        for (const QByteArray& line : answers)
            if (line.contains("HTTP/1.1 "))
                statuses << QString::fromLatin1(line.mid(line.indexOf("HTTP/1.1 ") + 9, 3));
        QVERIFY2(statuses ==
                     (QStringList{QStringLiteral("200"), QStringLiteral("404"), QStringLiteral("200")}),
                 pipelined.received().right(300).constData());
        QVERIFY(pipelined.received().contains("\"matched\":2"));

        // HTTP/1.0 without keep-alive: answered, then closed.
        RawClient old;
        old.connectTo(port);
        old.write("GET / HTTP/1.0\r\n\r\n");
        QTRY_VERIFY_WITH_TIMEOUT(old.closed(), 10000);
        QCOMPARE(old.status(), 200);

        // Expect: 100-continue is answered only once the head has passed.
        RawClient expect;
        expect.connectTo(port);
        expect.write("POST /api/v1/events/requeue HTTP/1.1\r\n" + host + op + dryRunLength +
                     "Expect: 100-continue\r\n\r\n");
        QTRY_VERIFY_WITH_TIMEOUT(expect.received().startsWith("HTTP/1.1 100 Continue\r\n\r\n"), 5000);
        expect.write(dryRun);
        QTRY_VERIFY_WITH_TIMEOUT(expect.received().contains("HTTP/1.1 200 OK"), 5000);
        RawClient expectRefused;
        expectRefused.connectTo(port);
        expectRefused.write("POST /api/v1/events/requeue HTTP/1.1\r\n" + host + viewer +
                            "Content-Length: 16\r\nExpect: 100-continue\r\n\r\n");
        QTRY_COMPARE_WITH_TIMEOUT(expectRefused.status(), 403, 5000);

        // One 400 for requests it cannot take, then the connection closes.
        const QList<QByteArray> malformed = {
            QByteArray("NONSENSE\r\n\r\n"),
            QByteArray("POST /api/v1/events/requeue HTTP/1.1\r\n" + host + op +
                       "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n"),
            QByteArray("GET /ws HTTP/1.1\r\n" + host +
                       "Upgrade: websocket\r\nConnection: Upgrade\r\nContent-Length: 3\r\n\r\nabc"),
            QByteArray("GET /api/v1/events HTTP/1.1\r\n" + host + viewer + "Content-Length: 3\r\n\r\nabc")};
        for (const QByteArray& bad : malformed) {
            RawClient c;
            c.connectTo(port);
            c.write(bad);
            QTRY_VERIFY_WITH_TIMEOUT(c.closed(), 10000);
            QVERIFY2(c.status() == 400, c.received().constData());
        }
        // Closed connections are released; only the kept-alive 100-continue client remains.
        QTRY_COMPARE_WITH_TIMEOUT(server.httpConnectionCount(), 1, 3000);
    }

    // The bounded front keeps TLS: HTTPS, and the WebSocket handed over inside TLS (wss).
    void tlsCarriesApiAndWebSocket()
    {
        QTemporaryDir dir;
        const QString cert = dir.filePath(QStringLiteral("web.crt"));
        const QString key = dir.filePath(QStringLiteral("web.key"));
        QProcess openssl;
        openssl.start(
            QStringLiteral("openssl"),
            {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
             QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"),
             QStringLiteral("-nodes"), QStringLiteral("-days"), QStringLiteral("1"), QStringLiteral("-subj"),
             QStringLiteral("/CN=127.0.0.1"), QStringLiteral("-keyout"), key, QStringLiteral("-out"), cert});
        QVERIFY(openssl.waitForFinished(60000) && openssl.exitCode() == 0);
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("wss"));
        WebConfig config = hardeningConfig();
        config.tlsCertificateFile = cert;
        config.tlsKeyFile = key;
        WebServer server(config, DatabaseTarget(db->url(), QString()));
        QVERIFY(server.start().ok());
        HttpTestClient https(server.baseUrl());
        https.setIgnoreSslErrors(true);
        QCOMPARE(https.get(QStringLiteral("/api/v1/events"), ViewerSecret).status, 200);
        QCOMPARE(https
                     .post(QStringLiteral("/api/v1/events/requeue"), QByteArray(2 * 1024 * 1024, ' '),
                           OperatorSecret)
                     .status,
                 413);

        QUrl url = server.baseUrl();
        url.setScheme(QStringLiteral("wss"));
        url.setPath(QStringLiteral("/ws"));
        WsClient secure(QStringLiteral("https://127.0.0.1:%1").arg(server.baseUrl().port()));
        QObject::connect(secure.socket.get(), &QWebSocket::sslErrors, secure.socket.get(),
                         [&secure](const QList<QSslError>&) { secure.socket->ignoreSslErrors(); });
        secure.open(url, ViewerSecret);
        QTRY_VERIFY_WITH_TIMEOUT(secure.snapshots >= 1, 10000);
        QVERIFY(!secure.closed);
    }

    void configReadsOriginsAndPatterns()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("web.ini"));
        auto load = [&](const QByteArray& text) {
            QFile f(path);
            if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
                qFatal("cannot write %s", qPrintable(path));
            f.write(text);
            f.close();
            return WebConfig::fromFile(path);
        };
        auto defaults = load("[web]\n");
        QVERIFY(defaults.ok());
        QCOMPARE(defaults->maskPatterns, QStringList{PayloadMasker::CardNumbers});
        QVERIFY(defaults->allowedOrigins.isEmpty());

        auto c = load("[web]\nallowed_origins = https://NOC.example.com:443, http://wall.example.com:8080/\n"
                      "mask_patterns = card-numbers, \\bIBAN [A-Z0-9 ]+\n");
        QVERIFY2(c.ok(), qPrintable(c.message()));
        QCOMPARE(c->allowedOrigins, (QStringList{QStringLiteral("https://noc.example.com"),
                                                 QStringLiteral("http://wall.example.com:8080")}));
        QCOMPARE(c->maskPatterns,
                 (QStringList{PayloadMasker::CardNumbers, QStringLiteral("\\bIBAN [A-Z0-9 ]+")}));
        QCOMPARE(PayloadMasker({}, c->maskPatterns).maskText(QStringLiteral("IBAN DE44 5001")),
                 QStringLiteral("***"));

        auto off = load("[web]\nmask_patterns =\n");
        QVERIFY(off.ok());
        QVERIFY(off->maskPatterns.isEmpty());
        for (const QByteArray& bad : {QByteArray("[web]\nallowed_origins = noc.example.com\n"),
                                      QByteArray("[web]\nallowed_origins = https://noc.example.com/path\n"),
                                      QByteArray("[web]\nmask_patterns = (unclosed\n")}) {
            auto r = load(bad);
            QVERIFY2(!r.ok(), bad.constData());
            QCOMPARE(r.error().kind, ErrorKind::Usage);
        }
    }

    void maskPatternsAreConfigurable()
    {
        const PayloadMasker cards({}, {PayloadMasker::CardNumbers});
        QCOMPARE(cards.maskText(QStringLiteral("card 4111-1111-1111-1111 and 4111111111111111.")),
                 QStringLiteral("card *** and ***."));
        // Numbers that fail the Luhn check (order ids, timestamps) stay readable.
        QCOMPARE(cards.maskText(QStringLiteral("order 1706702400123 at 20240131120000")),
                 QStringLiteral("order 1706702400123 at 20240131120000"));
        const PayloadMasker custom({QStringLiteral("headers.token")}, {QStringLiteral("\\bIBAN [A-Z0-9 ]+")});
        QCOMPARE(custom.maskText(QStringLiteral("pay to IBAN DE44 5001 0517 5407 3249 31")),
                 QStringLiteral("pay to ***"));
        QCOMPARE(custom.maskText(QStringLiteral("{\"token\": \"abc def\", \"x\": 1} token=xyz")),
                 QStringLiteral("{\"token\": ***, \"x\": 1} token=***"));
        QCOMPARE(custom.maskRow(
                     QJsonObject{{QStringLiteral("headers"), QJsonObject{{QStringLiteral("token"), 5}}},
                                 {QStringLiteral("payload"), QJsonObject{{QStringLiteral("token"), 5}}}}),
                 (QJsonObject{{QStringLiteral("headers"),
                               QJsonObject{{QStringLiteral("token"), QStringLiteral("***")}}},
                              {QStringLiteral("payload"), QJsonObject{{QStringLiteral("token"), 5}}}}));
        QVERIFY(PayloadMasker().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestWebHardening)
#include "tst_webhardening.moc"
