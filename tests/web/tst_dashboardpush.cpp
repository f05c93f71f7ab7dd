// The dashboard's WebSocket: 50 real clients fed by one sampler, one query set per tick.
#include "core/metrics/MetricsSampler.h"
#include "tests/support/TestDatabases.h"
#include "ui/web/WebServer.h"
#include "ui/web/http/AccessControl.h"
#include "ui/web/live/DashboardHub.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>
#include <QWebSocket>

using namespace outbox;
using namespace outbox::test;
using namespace outbox::web;

namespace {

const QByteArray ViewerSecret = "push-viewer-secret";

WebConfig pushConfig(int intervalMs, bool publicDashboard = false)
{
    WebConfig c;
    c.port = 0;
    c.sampleIntervalMs = intervalMs;
    c.publicDashboard = publicDashboard;
    c.tokens = {ApiToken{QStringLiteral("wallboard"), Role::Viewer, AccessControl::hashToken(ViewerSecret)}};
    return c;
}

QUrl wsUrl(const WebServer& server, const QString& path = QStringLiteral("/ws"))
{
    QUrl u = server.baseUrl();
    u.setScheme(QStringLiteral("ws"));
    u.setPath(path);
    return u;
}

// One dashboard client: counts the snapshots it receives and remembers the last one.
struct Client
{
    std::unique_ptr<QWebSocket> socket = std::make_unique<QWebSocket>();
    int snapshots = 0;
    bool welcomed = false;
    bool closed = false;
    QJsonObject last;

    void open(const QUrl& url, const QByteArray& token)
    {
        QObject::connect(socket.get(), &QWebSocket::connected, socket.get(), [this, token] {
            socket->sendTextMessage(QString::fromUtf8(
                QJsonDocument(QJsonObject{{QStringLiteral("type"), QStringLiteral("auth")},
                                          {QStringLiteral("token"), QString::fromUtf8(token)}})
                    .toJson(QJsonDocument::Compact)));
        });
        QObject::connect(socket.get(), &QWebSocket::textMessageReceived, socket.get(),
                         [this](const QString& text) {
                             const QJsonObject o = QJsonDocument::fromJson(text.toUtf8()).object();
                             const QString type = o.value(QStringLiteral("type")).toString();
                             if (type == QLatin1String("welcome"))
                                 welcomed = true;
                             if (type == QLatin1String("snapshot")) {
                                 ++snapshots;
                                 last = o.value(QStringLiteral("snapshot")).toObject();
                             }
                         });
        QObject::connect(socket.get(), &QWebSocket::disconnected, socket.get(), [this] { closed = true; });
        socket->open(url);
    }
};

} // namespace

class TestDashboardPush : public QObject
{
    Q_OBJECT

private slots:
    void fiftyClientsShareOneSampler_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("postgresql") << QStringLiteral("postgresql");
        QTest::newRow("sqlite") << QStringLiteral("sqlite");
    }
    void fiftyClientsShareOneSampler()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("push")));
        insertEvents(*db, 4);
        constexpr int IntervalMs = 250;
        WebServer server(pushConfig(IntervalMs), DatabaseTarget(db->url(), QString()));
        QVERIFY(server.start().ok());

        std::vector<std::unique_ptr<Client>> clients;
        for (int i = 0; i < 50; ++i) {
            clients.push_back(std::make_unique<Client>());
            clients.back()->open(wsUrl(server), ViewerSecret);
        }
        QTRY_COMPARE_WITH_TIMEOUT(server.hub().authenticatedCount(), 50, 15000);

        // Count the sampler's ticks (each tick is one query set) over a fixed window.
        QSignalSpy ticks(&server, &WebServer::snapshotPublished);
        std::vector<int> before;
        for (const auto& c : clients)
            before.push_back(c->snapshots);
        QElapsedTimer window;
        window.start();
        QTest::qWait(3000);
        const qint64 elapsed = window.elapsed();
        const int tickCount = int(ticks.count());
        QTRY_VERIFY_WITH_TIMEOUT(
            std::all_of(clients.begin(), clients.end(), [&](const auto& c) { return !c->closed; }), 100);

        // One query set per tick whatever the number of clients: the tick count follows the
        // interval, not 50 x the interval.
        QVERIFY2(tickCount >= 3 && tickCount <= elapsed / IntervalMs + 2,
                 qPrintable(QStringLiteral("%1 ticks in %2 ms").arg(tickCount).arg(elapsed)));
        // And every client saw (about) every tick: each snapshot went to all 50.
        for (size_t i = 0; i < clients.size(); ++i) {
            const int got = clients[i]->snapshots - before[i];
            QVERIFY2(
                got >= tickCount - 1 && got <= tickCount + 1,
                qPrintable(QStringLiteral("client %1 got %2 of %3 ticks").arg(i).arg(got).arg(tickCount)));
        }
        QCOMPARE(clients.front()
                     ->last.value(QStringLiteral("events"))
                     .toObject()
                     .value(QStringLiteral("PENDING"))
                     .toInteger(),
                 4);

        // New rows show up in the next push.
        insertEvents(*db, 3, QStringLiteral("OrderPaid"), QStringLiteral("later-"));
        QTRY_VERIFY_WITH_TIMEOUT(std::all_of(clients.begin(), clients.end(),
                                             [](const auto& c) {
                                                 return c->last.value(QStringLiteral("events"))
                                                            .toObject()
                                                            .value(QStringLiteral("PENDING"))
                                                            .toInteger() == 7;
                                             }),
                                 10000);
    }

    void clientsWithoutAValidTokenAreClosed()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("wsauth"));
        WebServer server(pushConfig(200), DatabaseTarget(db->url(), QString()));
        QVERIFY(server.start().ok());
        Client wrong;
        wrong.open(wsUrl(server), "not-the-token");
        Client right;
        right.open(wsUrl(server), ViewerSecret);
        Client elsewhere;
        elsewhere.open(wsUrl(server, QStringLiteral("/api/v1/events")), ViewerSecret);
        QTRY_VERIFY_WITH_TIMEOUT(wrong.closed, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(elsewhere.closed, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(right.snapshots >= 2, 10000);
        QCOMPARE(wrong.snapshots, 0);
        QVERIFY(!wrong.welcomed);
        QCOMPARE(elsewhere.snapshots, 0);
        QVERIFY(!right.closed);
    }

    void publicDashboardNeedsNoToken()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("wspublic"));
        WebServer server(pushConfig(200, true), DatabaseTarget(db->url(), QString()));
        QVERIFY(server.start().ok());
        Client anonymous;
        anonymous.open(wsUrl(server), QByteArray());
        QTRY_VERIFY_WITH_TIMEOUT(anonymous.snapshots >= 2, 10000);
        QVERIFY(!anonymous.closed);
    }

    void samplerFailureIsPushed()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("wsfail"));
        WebServer server(pushConfig(200), DatabaseTarget(db->url(), QString()));
        QVERIFY(server.start().ok());
        QWebSocket socket;
        QStringList types;
        connect(&socket, &QWebSocket::textMessageReceived, this, [&](const QString& text) {
            types << QJsonDocument::fromJson(text.toUtf8()).object().value(QStringLiteral("type")).toString();
        });
        connect(&socket, &QWebSocket::connected, this, [&] {
            socket.sendTextMessage(
                QStringLiteral("{\"type\":\"auth\",\"token\":\"%1\"}").arg(QString::fromUtf8(ViewerSecret)));
        });
        socket.open(wsUrl(server));
        QTRY_VERIFY_WITH_TIMEOUT(types.contains(QStringLiteral("snapshot")), 10000);
        // Break the schema under the sampler: the page must hear about it, not just go quiet.
        QVERIFY(db->exec(QStringLiteral("ALTER TABLE {events} RENAME TO broken_events")).ok());
        QTRY_VERIFY_WITH_TIMEOUT(types.contains(QStringLiteral("sampler_error")), 10000);
        QVERIFY(!server.latest().healthy());
    }
};

QTEST_GUILESS_MAIN(TestDashboardPush)
#include "tst_dashboardpush.moc"
