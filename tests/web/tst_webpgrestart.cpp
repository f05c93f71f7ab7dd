// A fleet server's member routes across a PostgreSQL restart (issue 38 item 6): the pooled
// connections the server closed fail their next statement; the API opens them again and answers
// 200 (the request retried), or 503 while the server is not back; never 500. Against a PostgreSQL
// server of this test's own (it is restarted), with the real WebServer over TCP.
#include "core/db/Migrator.h"
#include "core/fleet/Fleet.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TestPaths.h"
#include "tests/web/HttpTestClient.h"
#include "ui/web/WebConfig.h"
#include "ui/web/WebServer.h"
#include "ui/web/http/AccessControl.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTcpServer>
#include <QTest>

using namespace outbox;
using namespace outbox::test;
using namespace outbox::web;

namespace {

const QString Fixtures = outbox::test::sourcePath(QStringLiteral("tests/fixtures"));
const QByteArray ViewerSecret = "restart-viewer-secret";

bool runScript(const QStringList& args)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("bash"), QStringList{Fixtures + QStringLiteral("/postgres.sh")} + args);
    if (!p.waitForFinished(120000) || p.exitCode() != 0) {
        qWarning("postgres.sh %s: %s", qPrintable(args.join(QLatin1Char(' '))), p.readAll().constData());
        return false;
    }
    return true;
}

int freePort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        qFatal("no free port");
    return probe.serverPort();
}

} // namespace

class TestWebPgRestart : public QObject
{
    Q_OBJECT

    QString m_dir;
    DatabaseUrl m_url;

private slots:
    void initTestCase()
    {
        m_dir = QStringLiteral("/tmp/outbox-test-webpgrestart-%1").arg(QCoreApplication::applicationPid());
        const int port = freePort();
        QVERIFY(runScript({QStringLiteral("start"), m_dir, QString::number(port)}));
        m_url.kind = DatabaseKind::PostgreSql;
        m_url.host = QStringLiteral("127.0.0.1");
        m_url.port = port;
        m_url.user = QStringLiteral("outbox");
        m_url.database = QStringLiteral("postgres");
    }

    void cleanupTestCase()
    {
        if (!m_dir.isEmpty())
            runScript({QStringLiteral("stop"), m_dir});
    }

    void memberRoutesSurviveARestart()
    {
        {
            auto db = TestDatabases::open(m_url);
            QVERIFY(Migrator(*db).migrate().ok());
            forceStatus(*db, insertEvents(*db, 3), QStringLiteral("FAILED"), QStringLiteral("broker down"));
        }
        auto own = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("webpgrestart"));
        WebConfig config;
        config.port = 0;
        config.tokens = {
            ApiToken{QStringLiteral("wall"), Role::Viewer, AccessControl::hashToken(ViewerSecret)}};
        WebServer server(config, DatabaseTarget(own->url(), QString()));
        auto fleet = Fleet::parse("[fleet]\ninterval = 1s\ntimeout = 2s\n[member orders]\nurl = " +
                                      m_url.redacted().toUtf8() + "\n",
                                  QStringLiteral("fleet.ini"), QProcessEnvironment());
        QVERIFY2(fleet.ok(), fleet ? "" : qPrintable(fleet.error().message));
        server.watchFleet(*fleet);
        QVERIFY(server.start().ok());
        HttpTestClient http(server.baseUrl());
        const QStringList routes = {QStringLiteral("/api/v1/members/orders/events?status=FAILED"),
                                    QStringLiteral("/api/v1/members/orders/failure-groups"),
                                    QStringLiteral("/api/v1/members/orders/audit")};
        // Every pooled connection in use once (the requests spread over the pool's threads).
        for (int round = 0; round < 4; ++round)
            for (const QString& route : routes)
                QCOMPARE(http.get(route, ViewerSecret).status, 200);

        QVERIFY(runScript({QStringLiteral("restart"), m_dir, QStringLiteral("fast")}));
        QMap<int, int> statuses;
        for (int round = 0; round < 4; ++round) {
            for (const QString& route : routes) {
                const auto reply = http.get(route, ViewerSecret);
                ++statuses[reply.status];
                QVERIFY2(reply.status == 200 || reply.status == 503,
                         qPrintable(route + QStringLiteral(": %1 ").arg(reply.status) +
                                    QString::fromUtf8(reply.body)));
            }
        }
        qInfo("after the restart: %d x 200, %d x 503", statuses.value(200), statuses.value(503));
        // Retried on a fresh connection: the server is back, so every answer is a 200.
        QCOMPARE(statuses.value(200), 4 * int(routes.size()));
        const auto events = http.get(routes.first(), ViewerSecret);
        QCOMPARE(events.json().value(QStringLiteral("events")).toArray().size(), 3);
    }
};

QTEST_GUILESS_MAIN(TestWebPgRestart)
#include "tst_webpgrestart.moc"
