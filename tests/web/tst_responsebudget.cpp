// The real `outboxctl serve` over PostgreSQL holding 300 DEAD events of 1.2 MB payloads (and 20
// dead letters as large), asked by four viewers at once for every one of them (limit=1000): lists
// answer with previews cut by the database, so the server's peak resident memory (VmHWM) stays
// under 300 MiB and its memory (VmRSS) goes back under 100 MiB after the burst. The detail routes
// carry whole payloads; an answer over [web] max_response_bytes is 503 with Retry-After.
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/ServeProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/web/HttpTestClient.h"
#include "ui/web/http/AccessControl.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <memory>
#include <vector>

using namespace outbox;
using namespace outbox::test;

namespace {

const QByteArray ViewerSecret = "budget-viewer-secret";
const QByteArray OperatorSecret = "budget-operator-secret";
constexpr qint64 MiB = 1024 * 1024;
constexpr int PayloadChars = 1200000;

} // namespace

class TestResponseBudget : public QObject
{
    Q_OBJECT

private slots:
    void listsCarryPreviewsAndMemoryStaysBounded()
    {
        QVERIFY(!qEnvironmentVariable("OUTBOXCTL").isEmpty());
        if (!TestDatabases::available(QStringLiteral("postgresql")))
            QSKIP("no PostgreSQL test server configured");
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("responsebudget"));
        // One statement each: the rows are built by the server (repeat()), not sent 300 times.
        exec(*db,
             QStringLiteral("INSERT INTO {events} (event_id, event_type, aggregate_type, aggregate_id, "
                            "payload, status, last_error) SELECT 'big-' || g, 'OrderCreated', 'order', "
                            "'o-' || g, jsonb_build_object('secret', 'hunter2', 'blob', repeat('x', %1)), "
                            "'DEAD', 'too large' FROM generate_series(1, 300) g")
                 .arg(PayloadChars));
        // One event whose whole payload is larger than the server's answer budget below.
        exec(*db, QStringLiteral("INSERT INTO {events} (event_id, event_type, aggregate_type, aggregate_id, "
                                 "payload, status) VALUES ('huge', 'OrderCreated', 'order', 'o-huge', "
                                 "jsonb_build_object('blob', repeat('y', %1)), 'FAILED')")
                      .arg(3 * MiB));
        exec(*db,
             QStringLiteral("INSERT INTO {dead_letters} (consumer_name, event_id, topic, payload, error, "
                            "stacktrace) SELECT 'billing', 'big-' || g, 'order', "
                            "'{\"blob\": \"' || repeat('z', %1) || '\"}', 'handler failed', "
                            "repeat('at frame\n', 20000) FROM generate_series(1, 20) g")
                 .arg(PayloadChars));

        ServeProcess serve;
        QVERIFY2(serve.start("[database]\nurl = " + TestDatabases::urlText(db->url()).toUtf8() +
                             "\n[web]\nmax_response_bytes = " + QByteArray::number(2 * MiB) +
                             "\nmask_fields = secret\n[tokens]\nwall = viewer:" +
                             web::AccessControl::hashToken(ViewerSecret) +
                             "\nops = operator:" + web::AccessControl::hashToken(OperatorSecret) + "\n"),
                 serve.output.constData());
        auto& server = serve.process;
        const quint16 port = serve.port;
        const qint64 pid = server->processId();
        qInfo("VmRSS %lld KiB at start", procStatusKb(pid, "VmRSS"));

        // Four viewers at once, every DEAD event in one page each.
        const QUrl base(QStringLiteral("http://127.0.0.1:%1").arg(port));
        QNetworkAccessManager nam;
        std::vector<QNetworkReply*> replies;
        for (int i = 0; i < 4; ++i) {
            QNetworkRequest request(
                base.resolved(QUrl(QStringLiteral("/api/v1/events?status=DEAD&limit=1000"))));
            request.setRawHeader("Authorization", "Bearer " + ViewerSecret);
            replies.push_back(nam.get(request));
        }
        qint64 peakKb = 0;
        auto sample = [&] { peakKb = std::max(peakKb, procStatusKb(pid, "VmHWM")); };
        QElapsedTimer burst;
        burst.start();
        QTRY_VERIFY_WITH_TIMEOUT(
            (sample(), std::all_of(replies.begin(), replies.end(), [](auto* r) { return r->isFinished(); })),
            45000);
        sample();
        for (QNetworkReply* r : replies) {
            QCOMPARE(r->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
            const QByteArray body = r->readAll();
            QVERIFY2(body.size() < 2 * MiB, qPrintable(QString::number(body.size())));
            const QJsonArray events =
                QJsonDocument::fromJson(body).object().value(QStringLiteral("events")).toArray();
            QCOMPARE(events.size(), 300);
            for (const QJsonValue& v : events) {
                const QJsonObject e = v.toObject();
                QVERIFY(e.value(QStringLiteral("payload")).isNull());
                QCOMPARE(e.value(QStringLiteral("payload_truncated")).toBool(), true);
                QVERIFY(e.value(QStringLiteral("payload_size")).toInteger() > PayloadChars);
                // Masked for the viewer: cut JSON cannot be searched for fields, so hidden whole.
                QCOMPARE(e.value(QStringLiteral("payload_preview")).toString(), QStringLiteral("***"));
            }
            r->deleteLater();
        }
        qInfo("VmHWM %lld KiB after four parallel lists of 300 x 1.2 MB (%lld ms)", peakKb, burst.elapsed());
        QVERIFY2(peakKb < 300 * 1024, qPrintable(QStringLiteral("peak %1 KiB").arg(peakKb)));
        // The memory of the burst goes back.
        QTRY_VERIFY2_WITH_TIMEOUT(procStatusKb(pid, "VmRSS") < 100 * 1024,
                                  qPrintable(QStringLiteral("VmRSS %1 KiB").arg(procStatusKb(pid, "VmRSS"))),
                                  10000);

        HttpTestClient http(base);
        // An operator sees the preview as it is: the payload's first characters.
        const auto page = http.get(QStringLiteral("/api/v1/events?status=DEAD&limit=2"), OperatorSecret);
        QCOMPARE(page.status, 200);
        const QJsonObject first = page.json().value(QStringLiteral("events")).toArray().at(0).toObject();
        const QString preview = first.value(QStringLiteral("payload_preview")).toString();
        QVERIFY(preview.size() > 1000 && preview.size() <= 4096);
        QVERIFY(preview.startsWith(QStringLiteral("{\"")));
        // The detail route has all of it.
        const auto detail =
            http.get(QStringLiteral("/api/v1/events/%1").arg(first.value(QStringLiteral("id")).toInteger()),
                     OperatorSecret);
        QCOMPARE(detail.status, 200);
        QCOMPARE(detail.json()
                     .value(QStringLiteral("payload"))
                     .toObject()
                     .value(QStringLiteral("blob"))
                     .toString()
                     .size(),
                 PayloadChars);
        // Dead letters: previews of payloads and stack traces in the list, everything in the detail.
        const auto letters = http.get(QStringLiteral("/api/v1/dead-letters?limit=1000"), OperatorSecret);
        QCOMPARE(letters.status, 200);
        QVERIFY(letters.body.size() < 2 * MiB);
        const QJsonArray letterRows = letters.json().value(QStringLiteral("dead_letters")).toArray();
        QCOMPARE(letterRows.size(), 20);
        const QJsonObject letter = letterRows.at(0).toObject();
        QVERIFY(letter.value(QStringLiteral("payload")).isNull());
        QCOMPARE(letter.value(QStringLiteral("payload_truncated")).toBool(), true);
        QCOMPARE(letter.value(QStringLiteral("payload_bytes")).toInteger(), PayloadChars + 12);
        QCOMPARE(letter.value(QStringLiteral("stacktrace_truncated")).toBool(), true);
        QVERIFY(letter.value(QStringLiteral("stacktrace")).toString().size() <= 4096);
        const auto letterDetail = http.get(
            QStringLiteral("/api/v1/dead-letters/%1").arg(letter.value(QStringLiteral("id")).toInteger()),
            OperatorSecret);
        QCOMPARE(letterDetail.status, 200);
        QCOMPARE(letterDetail.json().value(QStringLiteral("payload")).toString().size(), PayloadChars + 12);

        // A whole payload over the answer budget: 503 with Retry-After, and the server goes on.
        QNetworkRequest hugeRequest(base.resolved(QUrl(QStringLiteral("/api/v1/events/huge"))));
        hugeRequest.setRawHeader("Authorization", "Bearer " + OperatorSecret);
        QNetworkReply* huge = nam.get(hugeRequest);
        QTRY_VERIFY_WITH_TIMEOUT(huge->isFinished(), 15000);
        QCOMPARE(huge->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 503);
        QVERIFY(!huge->rawHeader("Retry-After").isEmpty());
        QVERIFY(huge->readAll().contains("max_response_bytes"));
        delete huge;
        QCOMPARE(http.get(QStringLiteral("/api/v1/events?limit=5"), OperatorSecret).status, 200);
        QCOMPARE(terminateAndWait(*server), 0);
    }
};

QTEST_GUILESS_MAIN(TestResponseBudget)
#include "tst_responsebudget.moc"
