// The server-wide answer budget ([web] max_pending_response_bytes) of the real `outboxctl serve`:
// clients that ask for large answers and then stop reading hold those answers in the server. Once
// what waits for them reaches the budget, the next large answer is 503 with Retry-After (naming the
// key) instead of more memory; small answers still go out, and when the stalled clients go, large
// answers are served again.
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/ServeProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/web/HttpTestClient.h"
#include "ui/web/http/AccessControl.h"

#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <arpa/inet.h>
#include <memory>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace outbox;
using namespace outbox::test;

namespace {

const QByteArray OperatorSecret = "pending-operator-secret";
constexpr qint64 MiB = 1024 * 1024;

// A client with a tiny receive window: it sends its request, reads the status line and then
// stops reading, so nearly all of its answer stays with the server.
class StalledClient
{
public:
    StalledClient(quint16 port, const QByteArray& path)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        int small = 4096;
        ::setsockopt(m_fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small); // before connect: the window
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(m_fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0)
            return;
        const QByteArray request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " +
                                   OperatorSecret + "\r\n\r\n";
        if (::send(m_fd, request.constData(), size_t(request.size()), 0) != request.size())
            return;
        timeval wait{15, 0};
        ::setsockopt(m_fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
        char head[12] = {};
        if (::recv(m_fd, head, sizeof head, MSG_WAITALL) == sizeof head)
            m_status = QByteArray(head, sizeof head).mid(9, 3).toInt();
    }
    ~StalledClient() { close(); }
    StalledClient(const StalledClient&) = delete;
    StalledClient& operator=(const StalledClient&) = delete;

    int status() const { return m_status; }
    void close()
    {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
    }

private:
    int m_fd = -1;
    int m_status = 0;
};

} // namespace

class TestPendingBudget : public QObject
{
    Q_OBJECT

private slots:
    void stalledClientsCannotHoldMoreThanTheBudget()
    {
        QVERIFY(!qEnvironmentVariable("OUTBOXCTL").isEmpty());
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("pendingbudget"));
        // Four events of 16 MiB payloads each, built by SQLite (hex of a zeroblob: '0' × 16 MiB).
        exec(*db,
             QStringLiteral("WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 4) "
                            "INSERT INTO {events} (event_id, event_type, aggregate_type, aggregate_id, "
                            "payload, status) SELECT 'big-' || n, 'OrderCreated', 'order', 'o-' || n, "
                            "'{\"blob\": \"' || hex(zeroblob(8388608)) || '\"}', 'FAILED' FROM g"));
        const QString url = TestDatabases::urlText(db->url());
        db.reset();

        // One answer may be 20 MiB; all answers waiting for their clients together 36 MiB. The kernel
        // takes up to 4 MiB of each answer into the socket's send buffer, so two stalled answers leave
        // 24 to 32 MiB in the server: both fit, and a third answer of 16 MiB does not.
        ServeProcess serve;
        QVERIFY2(serve.start("[database]\nurl = " + url.toUtf8() +
                             "\n[web]\nmax_response_bytes = " + QByteArray::number(20 * MiB) +
                             "\nmax_pending_response_bytes = " + QByteArray::number(36 * MiB) +
                             "\n[tokens]\nops = operator:" + web::AccessControl::hashToken(OperatorSecret) +
                             "\n"),
                 serve.output.constData());
        auto& server = serve.process;
        const quint16 port = serve.port;
        HttpTestClient http(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port)));

        // Alone, a 16 MiB answer is within both budgets.
        const auto alone = http.get(QStringLiteral("/api/v1/events/big-1"), OperatorSecret);
        QCOMPARE(alone.status, 200);
        QVERIFY(alone.body.size() > 16 * MiB && alone.body.size() < 20 * MiB);

        // Two clients take their 16 MiB answers and stop reading.
        StalledClient first(port, "/api/v1/events/big-2");
        StalledClient second(port, "/api/v1/events/big-3");
        QCOMPARE(first.status(), 200);
        QCOMPARE(second.status(), 200);

        // The next large answer would pass the server-wide budget: refused, the server goes on.
        QNetworkAccessManager nam;
        QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1/api/v1/events/big-4").arg(port)));
        request.setRawHeader("Authorization", "Bearer " + OperatorSecret);
        std::unique_ptr<QNetworkReply> refused(nam.get(request));
        QTRY_VERIFY_WITH_TIMEOUT(refused->isFinished(), 15000);
        QCOMPARE(refused->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 503);
        QVERIFY(!refused->rawHeader("Retry-After").isEmpty());
        const QByteArray why = refused->readAll();
        QVERIFY2(why.contains("max_pending_response_bytes"), why.constData());
        // Small answers still fit.
        QCOMPARE(http.get(QStringLiteral("/api/v1/summary"), OperatorSecret).status, 200);

        // The stalled clients go: their answers are dropped and large answers are served again.
        first.close();
        second.close();
        QTRY_COMPARE_WITH_TIMEOUT(http.get(QStringLiteral("/api/v1/events/big-4"), OperatorSecret).status,
                                  200, 10000);
        QCOMPARE(terminateAndWait(*server), 0);
    }
};

QTEST_GUILESS_MAIN(TestPendingBudget)
#include "tst_pendingbudget.moc"
