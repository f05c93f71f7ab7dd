// Bulk-action jobs followed over /ws: {"type":"subscribe_job"} gets the job at once and after every
// chunk until it ends, shown as GET /api/v1/jobs/{id} shows it to that token (reasons masked for
// viewers), nothing for anonymous sockets of a public dashboard, one clear error for a bad or unknown
// id, and nothing for clients that did not subscribe. A row of the last chunk is held by the test,
// so the job is seen running between chunks.
#include "tests/support/BulkEvents.h"
#include "tests/support/HeldRow.h"
#include "tests/support/TestDatabases.h"
#include "tests/web/HttpTestClient.h"
#include "ui/web/WebServer.h"
#include "ui/web/http/AccessControl.h"
#include "ui/web/live/DashboardHub.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QUuid>
#include <QWebSocket>

using namespace outbox;
using namespace outbox::test;
using namespace outbox::web;

namespace {

const QByteArray OperatorSecret = "jobpush-operator-secret";
const QByteArray ViewerSecret = "jobpush-viewer-secret";
const QString Card = QStringLiteral("4111 1111 1111 1111");
constexpr int Events = 2500; // all FAILED: three chunks

QString encode(const QJsonObject& o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

// One /ws client that records the job messages it gets.
struct Client
{
    std::unique_ptr<QWebSocket> socket = std::make_unique<QWebSocket>();
    bool welcomed = false;
    QList<QJsonObject> jobs; // {"type":"job"} messages

    void open(const QUrl& url, const QByteArray& token)
    {
        QObject::connect(socket.get(), &QWebSocket::connected, socket.get(), [this, token] {
            if (!token.isEmpty())
                socket->sendTextMessage(encode({{QStringLiteral("type"), QStringLiteral("auth")},
                                                {QStringLiteral("token"), QString::fromUtf8(token)}}));
        });
        QObject::connect(socket.get(), &QWebSocket::textMessageReceived, socket.get(),
                         [this](const QString& text) {
                             const QJsonObject o = QJsonDocument::fromJson(text.toUtf8()).object();
                             if (o.value(QStringLiteral("type")) == QLatin1String("welcome"))
                                 welcomed = true;
                             if (o.value(QStringLiteral("type")) == QLatin1String("job"))
                                 jobs.append(o);
                         });
        socket->open(url);
    }
    void subscribe(const QString& id)
    {
        socket->sendTextMessage(
            encode({{QStringLiteral("type"), QStringLiteral("subscribe_job")}, {QStringLiteral("id"), id}}));
    }
    QJsonObject lastJob() const
    {
        return jobs.isEmpty() ? QJsonObject() : jobs.last().value(QStringLiteral("job")).toObject();
    }
    int chunksSeen() const
    {
        return lastJob().value(QStringLiteral("progress")).toObject().value(QStringLiteral("chunks")).toInt();
    }
};

} // namespace

class TestJobPush : public QObject
{
    Q_OBJECT

private slots:
    void jobsAreFollowedOverTheWebSocket()
    {
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"),
                                       TestDatabases::uniqueName(QStringLiteral("jobpush")));
        insertGeneratedEvents(*db, Events, 1);
        WebConfig config;
        config.port = 0;
        config.sampleIntervalMs = 60000;
        config.findingsIntervalMs = 60000;
        config.publicDashboard = true; // anonymous sockets are admitted: they must not see jobs
        config.maskPatterns = {QStringLiteral("card-numbers")};
        config.tokens = {
            ApiToken{QStringLiteral("olga-operator"), Role::Operator,
                     AccessControl::hashToken(OperatorSecret)},
            ApiToken{QStringLiteral("vic-viewer"), Role::Viewer, AccessControl::hashToken(ViewerSecret)}};
        WebServer server(config, DatabaseTarget(db->url(), QString()));
        QVERIFY(server.start().ok());
        QUrl ws = server.baseUrl();
        ws.setScheme(QStringLiteral("ws"));
        ws.setPath(QStringLiteral("/ws"));

        Client op, viewer, anonymous, bystander;
        op.open(ws, OperatorSecret);
        viewer.open(ws, ViewerSecret);
        anonymous.open(ws, {});
        bystander.open(ws, ViewerSecret);
        QTRY_VERIFY(op.welcomed && viewer.welcomed && anonymous.welcomed && bystander.welcomed);

        // The last chunk waits for the test's row lock.
        HeldRow held(*db, QStringLiteral("{events}"), Events);
        QVERIFY(held.ok());
        HttpTestClient http(server.baseUrl());
        const auto started =
            http.post(QStringLiteral("/api/v1/events/requeue"),
                      encode({{QStringLiteral("filter"),
                               QJsonObject{{QStringLiteral("status"), QStringLiteral("FAILED")}}},
                              {QStringLiteral("reason"), QStringLiteral("refund to card %1").arg(Card)}})
                          .toUtf8(),
                      OperatorSecret);
        QVERIFY2(started.status == 202, started.body.constData());
        const QString id = started.json().value(QStringLiteral("id")).toString();

        op.subscribe(id);
        viewer.subscribe(id);
        anonymous.subscribe(id);
        // The state now, then each chunk as it commits: two of three before the held row.
        QTRY_COMPARE_WITH_TIMEOUT(op.chunksSeen(), 2, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(viewer.chunksSeen(), 2, 15000);
        QCOMPARE(op.lastJob().value(QStringLiteral("state")).toString(), QStringLiteral("running"));
        QCOMPARE(op.lastJob()
                     .value(QStringLiteral("progress"))
                     .toObject()
                     .value(QStringLiteral("processed"))
                     .toInt(),
                 2000);
        // As the API shows it to each token: the operator reads the reason, the viewer a masked one.
        QCOMPARE(op.lastJob().value(QStringLiteral("reason")).toString(),
                 QStringLiteral("refund to card %1").arg(Card));
        const QString masked = viewer.lastJob().value(QStringLiteral("reason")).toString();
        QVERIFY2(!masked.contains(QLatin1String("4111")) && masked.contains(PayloadMasker::Mask),
                 qPrintable(masked));
        QCOMPARE(http.get(QStringLiteral("/api/v1/jobs/") + id, ViewerSecret)
                     .json()
                     .value(QStringLiteral("reason"))
                     .toString(),
                 masked);
        // An anonymous socket gets an error, not the job; a client that did not subscribe gets nothing.
        QTRY_COMPARE(anonymous.jobs.size(), 1);
        QVERIFY(!anonymous.jobs.first().contains(QStringLiteral("job")));
        QVERIFY(anonymous.jobs.first()
                    .value(QStringLiteral("error"))
                    .toString()
                    .contains(QLatin1String("token")));
        QCOMPARE(bystander.jobs.size(), 0);
        // Bad and unknown ids: one clear error each, the socket stays open.
        bystander.subscribe(QStringLiteral("../../etc"));
        bystander.subscribe(QUuid::createUuid().toString(QUuid::WithoutBraces));
        QTRY_COMPARE(bystander.jobs.size(), 2);
        QVERIFY(
            bystander.jobs.at(0).value(QStringLiteral("error")).toString().contains(QLatin1String("UUID")));
        QVERIFY(
            bystander.jobs.at(1).value(QStringLiteral("error")).toString().contains(QLatin1String("no job")));
        QCOMPARE(bystander.socket->state(), QAbstractSocket::ConnectedState);

        // An anonymous socket that then presents a token follows jobs under it.
        anonymous.socket->sendTextMessage(
            encode({{QStringLiteral("type"), QStringLiteral("auth")},
                    {QStringLiteral("token"), QString::fromUtf8(ViewerSecret)}}));
        anonymous.subscribe(id);
        QTRY_COMPARE(anonymous.chunksSeen(), 2);
        QVERIFY(
            !anonymous.lastJob().value(QStringLiteral("reason")).toString().contains(QLatin1String("4111")));

        held.release();
        QTRY_COMPARE_WITH_TIMEOUT(op.lastJob().value(QStringLiteral("state")).toString(),
                                  QStringLiteral("done"), 15000);
        QTRY_COMPARE(viewer.lastJob().value(QStringLiteral("state")).toString(), QStringLiteral("done"));
        QCOMPARE(op.lastJob()
                     .value(QStringLiteral("progress"))
                     .toObject()
                     .value(QStringLiteral("processed"))
                     .toInt(),
                 Events);
        QCOMPARE(
            op.lastJob().value(QStringLiteral("result")).toObject().value(QStringLiteral("affected")).toInt(),
            Events);
        // One message per change at most: the state on subscribing, three chunks, the end.
        QVERIFY2(op.jobs.size() >= 2 && op.jobs.size() <= 5, qPrintable(QString::number(op.jobs.size())));
        // The subscription ended with the job: nothing more is sent.
        const int seen = op.jobs.size();
        QTest::qWait(300);
        QCOMPARE(op.jobs.size(), seen);
        QCOMPARE(bystander.jobs.size(), 2);
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")),
                 qint64(Events));
    }
};

QTEST_MAIN(TestJobPush)
#include "tst_jobpush.moc"
