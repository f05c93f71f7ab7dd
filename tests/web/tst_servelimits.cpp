// The real `outboxctl serve` under memory attacks from clients without a token: huge announced
// bodies, chunked bodies, a huge WebSocket frame, slow headers and a huge header block, all at
// once. The server's peak resident memory (VmHWM) must stay under 100 MiB, every attacker must be
// refused or cut off, and real clients must still be served afterwards.
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/ServeProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/web/HttpTestClient.h"
#include "ui/web/http/AccessControl.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <memory>
#include <vector>

using namespace outbox;
using namespace outbox::test;

namespace {

const QByteArray OperatorSecret = "limits-operator-secret";
constexpr qint64 MiB = 1024 * 1024;
// Each attacker streams at most this much; the server before the fix buffered all of it.
constexpr qint64 StreamCap = 160 * MiB;

// One raw TCP attacker: sends `head`, then streams filler (optionally framed) until the server
// closes the connection or StreamCap is reached, whatever the server answers meanwhile.
class Attacker : public QObject
{
public:
    enum class Filler {
        Raw,     // body bytes or a WebSocket frame's payload
        Chunked, // HTTP chunks of 1 MiB
        Headers, // header lines without end
        Slow,    // one short header line every 500 ms
    };

    Attacker(quint16 port, QByteArray head, Filler filler, QByteArray afterHandshake = {})
        : m_head(std::move(head)), m_filler(filler), m_afterHandshake(std::move(afterHandshake))
    {
        m_chunk = QByteArray(int(MiB), 'x');
        if (m_filler == Filler::Chunked)
            m_chunk = QByteArray::number(MiB, 16) + "\r\n" + QByteArray(int(MiB), 'x') + "\r\n";
        if (m_filler == Filler::Headers) {
            m_chunk.clear();
            while (m_chunk.size() < MiB)
                m_chunk +=
                    "X-Padding-" + QByteArray::number(m_chunk.size()) + ": " + QByteArray(1000, 'p') + "\r\n";
        }
        connect(&m_socket, &QTcpSocket::connected, this, [this] {
            m_socket.write(m_head);
            if (!m_afterHandshake.isEmpty())
                return; // wait for the 101 first
            pump();
        });
        connect(&m_socket, &QTcpSocket::bytesWritten, this, [this] { pump(); });
        connect(&m_socket, &QTcpSocket::readyRead, this, [this] {
            m_answer += m_socket.readAll();
            if (!m_afterHandshake.isEmpty() && !m_upgraded && m_answer.contains("\r\n\r\n")) {
                m_upgraded = m_answer.startsWith("HTTP/1.1 101");
                m_answer.clear();
                if (!m_upgraded) {
                    m_done = true;
                    return;
                }
                m_socket.write(m_afterHandshake);
                pump();
                return;
            }
        });
        connect(&m_socket, &QTcpSocket::disconnected, this, [this] {
            m_closed = true;
            m_done = true;
        });
        connect(&m_socket, &QTcpSocket::errorOccurred, this, [this] {
            m_closed = true;
            m_done = true;
        });
        m_socket.setReadBufferSize(64 * 1024);
        m_socket.connectToHost(QHostAddress::LocalHost, port);
        if (m_filler == Filler::Slow) {
            m_slow.setInterval(500);
            connect(&m_slow, &QTimer::timeout, this, [this] {
                if (m_socket.state() == QAbstractSocket::ConnectedState)
                    m_socket.write("X-Slow-" + QByteArray::number(++m_slowLines) + ": a\r\n");
            });
            m_slow.start();
        }
    }

    bool done() const { return m_done || (m_sent >= StreamCap && m_socket.bytesToWrite() == 0); }
    bool closed() const { return m_closed; }
    const QByteArray& answer() const { return m_answer; }
    qint64 sent() const { return m_sent; }

private:
    void pump()
    {
        if (m_filler == Filler::Slow || m_done || (!m_afterHandshake.isEmpty() && !m_upgraded))
            return;
        while (m_sent < StreamCap && m_socket.bytesToWrite() < 4 * MiB &&
               m_socket.state() == QAbstractSocket::ConnectedState) {
            m_socket.write(m_chunk);
            m_sent += m_chunk.size();
        }
    }

    QTcpSocket m_socket;
    QByteArray m_head;
    Filler m_filler;
    QByteArray m_afterHandshake;
    QByteArray m_chunk;
    QByteArray m_answer;
    QTimer m_slow;
    int m_slowLines = 0;
    qint64 m_sent = 0;
    bool m_upgraded = false;
    bool m_done = false;
    bool m_closed = false;
};

QByteArray webSocketHandshake(quint16 port)
{
    return "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(port) +
           "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
           "Sec-WebSocket-Version: 13\r\n\r\n";
}

// A masked text frame header announcing `length` payload bytes (64-bit length form).
QByteArray hugeFrameHeader(quint64 length)
{
    QByteArray h;
    h += char(0x81);       // FIN, text
    h += char(0x80 | 127); // masked, 64-bit length follows
    for (int i = 7; i >= 0; --i)
        h += char((length >> (8 * i)) & 0xff);
    h += QByteArray("\x01\x02\x03\x04", 4); // mask key
    return h;
}

} // namespace

class TestServeLimits : public QObject
{
    Q_OBJECT

private slots:
    void memoryStaysBoundedUnderAttack()
    {
        QVERIFY(!qEnvironmentVariable("OUTBOXCTL").isEmpty());
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("servelimits"));
        forceStatus(*db, insertEvents(*db, 3), QStringLiteral("FAILED"), QStringLiteral("x"));
        ServeProcess serve;
        QVERIFY2(serve.start(
                     "[database]\nurl = " + TestDatabases::urlText(db->url()).toUtf8() +
                         "\n[tokens]\nops = operator:" + web::AccessControl::hashToken(OperatorSecret) + "\n",
                     {QStringLiteral("--sample-interval"), QStringLiteral("500")}),
                 serve.output.constData());
        auto& server = serve.process;
        const quint16 port = serve.port;
        const qint64 pid = server->processId();
        const qint64 startKb = procStatusKb(pid, "VmHWM");
        QVERIFY(startKb > 0);

        const QByteArray host = "Host: 127.0.0.1:" + QByteArray::number(port) + "\r\n";
        std::vector<std::unique_ptr<Attacker>> attackers;
        auto add = [&](QByteArray head, Attacker::Filler filler, QByteArray after = {}) {
            attackers.push_back(std::make_unique<Attacker>(port, std::move(head), filler, std::move(after)));
        };
        // Four 400 MiB bodies announced by Content-Length, without a token.
        for (int i = 0; i < 4; ++i)
            add("POST /api/v1/events/requeue HTTP/1.1\r\n" + host +
                    "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(400 * MiB) +
                    "\r\n\r\n",
                Attacker::Filler::Raw);
        // Chunked bodies: two without a token, one with an operator token (the body limit must
        // hold for operators too).
        for (int i = 0; i < 3; ++i)
            add("POST /api/v1/events/requeue HTTP/1.1\r\n" + host +
                    (i == 2 ? "Authorization: Bearer " + OperatorSecret + "\r\n" : QByteArray()) +
                    "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
                Attacker::Filler::Chunked);
        // Two 300 MiB WebSocket text frames before authenticating.
        for (int i = 0; i < 2; ++i)
            add(webSocketHandshake(port), Attacker::Filler::Raw, hugeFrameHeader(300 * MiB));
        // A header block that never ends.
        add("GET /metrics HTTP/1.1\r\n" + host, Attacker::Filler::Headers);
        // Slowloris: 50 connections that send one header line every 500 ms.
        const int firstSlow = int(attackers.size());
        for (int i = 0; i < 50; ++i)
            add("GET /metrics HTTP/1.1\r\n" + host, Attacker::Filler::Slow);

        QElapsedTimer attack;
        attack.start();
        qint64 peakKb = 0;
        auto sample = [&] { peakKb = std::max(peakKb, procStatusKb(pid, "VmHWM")); };
        // The streaming attackers end (cut off, or at their cap) well within a minute.
        QTRY_VERIFY_WITH_TIMEOUT((sample(), std::all_of(attackers.begin(), attackers.begin() + firstSlow,
                                                        [](const auto& a) { return a->done(); })),
                                 60000);
        sample();
        qInfo("VmHWM %lld KiB before, %lld KiB peak after %lld ms of attack", startKb, peakKb,
              attack.elapsed());
        QVERIFY2(peakKb < 100 * 1024, qPrintable(QStringLiteral("peak %1 KiB").arg(peakKb)));
        // Slow headers are cut off after the head timeout, not kept open for ever.
        QTRY_VERIFY_WITH_TIMEOUT((sample(), std::all_of(attackers.begin() + firstSlow, attackers.end(),
                                                        [](const auto& a) { return a->closed(); })),
                                 15000);
        QVERIFY2(peakKb < 100 * 1024, qPrintable(QStringLiteral("peak %1 KiB").arg(peakKb)));

        // Every body attacker was refused with 413 or 401 before its body was read, the header
        // block with 431, and all of them were cut off (after a moment to read the answer).
        for (int i = 0; i < firstSlow; ++i) {
            const QByteArray& a = attackers[size_t(i)]->answer();
            if (i < 6)
                QVERIFY2(a.startsWith("HTTP/1.1 413") || a.startsWith("HTTP/1.1 401"),
                         a.left(200).constData());
            if (i == 6) // the operator's chunked body: read up to the limit, then refused
                QVERIFY2(a.startsWith("HTTP/1.1 413"), a.left(200).constData());
            if (i == firstSlow - 1)
                QVERIFY2(a.startsWith("HTTP/1.1 431"), a.left(200).constData());
            QVERIFY2(attackers[size_t(i)]->closed(),
                     qPrintable(QStringLiteral("attacker %1 was not cut off").arg(i)));
        }
        attackers.clear();

        // Real clients are still served.
        HttpTestClient http(QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(port)));
        const auto reply = http.post(QStringLiteral("/api/v1/events/requeue"),
                                     "{\"filter\":{\"status\":\"FAILED\"},\"dry_run\":true}", OperatorSecret);
        QCOMPARE(reply.status, 200);
        QCOMPARE(reply.json().value(QStringLiteral("matched")).toInteger(), 3);
        QCOMPARE(terminateAndWait(*server), 0);
    }

    // A NOC behind one proxy address: idle anonymous sockets from 127.0.0.1 fill the per-address
    // cap ([web] max_connections_per_address), yet an authenticated request from the same address
    // is served, and the cap still holds for the idle ones (the oldest are closed).
    void idleSocketsDoNotLockOutAuthenticatedClients()
    {
        QVERIFY(!qEnvironmentVariable("OUTBOXCTL").isEmpty());
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("servecap"));
        insertEvents(*db, 2);
        ServeProcess serve;
        QVERIFY2(serve.start("[database]\nurl = " + TestDatabases::urlText(db->url()).toUtf8() +
                             "\n[web]\nmax_connections_per_address = 8\n[tokens]\nops = operator:" +
                             web::AccessControl::hashToken(OperatorSecret) + "\n"),
                 serve.output.constData());
        auto& server = serve.process;
        const quint16 port = serve.port;

        // 30 idle sockets (connected, nothing sent) and 10 with a never-finished anonymous head.
        std::vector<std::unique_ptr<QTcpSocket>> idle;
        for (int i = 0; i < 40; ++i) {
            auto socket = std::make_unique<QTcpSocket>();
            socket->connectToHost(QHostAddress::LocalHost, port);
            QVERIFY(socket->waitForConnected(5000));
            if (i >= 30)
                socket->write("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n");
            idle.push_back(std::move(socket));
        }
        auto openCount = [&] {
            QCoreApplication::processEvents();
            return std::count_if(idle.begin(), idle.end(),
                                 [](const auto& s) { return s->state() == QAbstractSocket::ConnectedState; });
        };
        // The server closed all but the 8 newest.
        QTRY_COMPARE_WITH_TIMEOUT(openCount(), 8, 5000);
        for (size_t i = 32; i < idle.size(); ++i)
            QCOMPARE(idle[i]->state(), QAbstractSocket::ConnectedState);

        // Authenticated requests from the same address are served, one after another on new
        // connections, while anonymous sockets keep coming.
        HttpTestClient http(QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(port)));
        for (int round = 0; round < 3; ++round) {
            const auto reply = http.get(QStringLiteral("/api/v1/events?limit=5"), OperatorSecret);
            QCOMPARE(reply.status, 200);
            QCOMPARE(reply.json().value(QStringLiteral("events")).toArray().size(), 2);
            for (int i = 0; i < 10; ++i) {
                auto socket = std::make_unique<QTcpSocket>();
                socket->connectToHost(QHostAddress::LocalHost, port);
                QVERIFY(socket->waitForConnected(5000));
                idle.push_back(std::move(socket));
            }
        }
        // The cap held for the idle ones throughout: the authenticated connection is not counted.
        QTRY_COMPARE_WITH_TIMEOUT(openCount(), 8, 5000);
        // An anonymous request on a fresh connection is answered too (it gets its 401).
        QCOMPARE(http.get(QStringLiteral("/api/v1/events")).status, 401);
        idle.clear();
        QCOMPARE(terminateAndWait(*server), 0);
    }
};

QTEST_GUILESS_MAIN(TestServeLimits)
#include "tst_servelimits.moc"
