// A fleet server's member routes (/api/v1/members/{name}/…) against the real `outboxctl serve
// --fleet FILE` over two PostgreSQL members (one database, different table prefixes, the same row
// ids) and one SQLite member: reads reach the member's tables, a requeue changes only that member's
// database and writes its audit row there, and the wall-only server (no --member) has no database
// of its own.
#include "core/db/Database.h"
#include "core/db/Migrator.h"
#include "tests/support/ServeProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TestFleet.h"
#include "tests/web/HttpTestClient.h"
#include "ui/web/WebConfig.h"
#include "ui/web/http/AccessControl.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QWebSocket>

using namespace outbox;
using namespace outbox::test;

namespace {

const QByteArray OperatorSecret = "fleet-operator-secret";
const QByteArray ViewerSecret = "fleet-viewer-secret";
// Scoped: an operator on the members tagged team=billing and nothing elsewhere; a viewer everywhere
// who is an operator on orders.
const QByteArray BillingSecret = "fleet-billing-secret";
const QByteArray LeadSecret = "fleet-lead-secret";

// The members' database: 3 FAILED and 2 SENT events.
void seed(Database& db)
{
    const QVector<qint64> ids = insertEvents(db, 5);
    forceStatus(db, ids.mid(0, 3), QStringLiteral("FAILED"),
                QStringLiteral("Broker: Topic authorization failed"));
    forceStatus(db, ids.mid(3), QStringLiteral("SENT"));
}

qint64 failed(Database& db)
{
    return countRows(db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'"));
}

} // namespace

class TestFleetApi : public QObject
{
    Q_OBJECT

private slots:
    void memberRoutesReachOnlyThatDatabase()
    {
        QVERIFY2(!qEnvironmentVariable("OUTBOXCTL").isEmpty(), "OUTBOXCTL must point at the binary");
        if (!TestDatabases::available(QStringLiteral("postgresql")))
            QSKIP("no PostgreSQL test server");
        const DatabaseUrl pg = TestDatabases::create(QStringLiteral("postgresql"),
                                                     TestDatabases::uniqueName(QStringLiteral("fleetapi")));
        auto orders = migratedWithPrefix(pg, QString());
        auto billing = migratedWithPrefix(pg, QStringLiteral("b_"));
        const DatabaseUrl edgeUrl = TestDatabases::create(
            QStringLiteral("sqlite"), TestDatabases::uniqueName(QStringLiteral("fleetapi")));
        auto edge = migratedWithPrefix(edgeUrl, QString());
        seed(*orders);
        seed(*billing);
        seed(*edge);

        QTemporaryDir dir;
        DatabaseUrl pgNoPassword = pg;
        pgNoPassword.password.clear();
        const QString fleet = writeTestFile(
            dir, QStringLiteral("fleet.ini"),
            "[fleet]\ninterval = 1s\ntimeout = 2s\n"
            "[member orders]\nurl = " +
                pgNoPassword.redacted().toUtf8() +
                "\ntags = team=checkout\n[member billing]\nurl = " + pgNoPassword.redacted().toUtf8() +
                "\ntable_prefix = b_\ntags = team=billing\n[member edge]\nurl = " +
                edgeUrl.redacted().toUtf8() + "\n");
        ServeProcess serve;
        OutboxctlStart options;
        options.removedVariables = {QStringLiteral("OUTBOX_DB_URL")};
        options.extraEnv.insert(QStringLiteral("OUTBOX_DB_PASSWORD_ORDERS"), pg.password);
        options.extraEnv.insert(QStringLiteral("OUTBOX_DB_PASSWORD_BILLING"), pg.password);
        QVERIFY2(serve.start("[tokens]\nalice = operator:" + web::AccessControl::hashToken(OperatorSecret) +
                                 "\nnoc = viewer:" + web::AccessControl::hashToken(ViewerSecret) +
                                 "\npay = operator:" + web::AccessControl::hashToken(BillingSecret) +
                                 " members=team=billing\nlead = viewer:" +
                                 web::AccessControl::hashToken(LeadSecret) + " operator=orders\n",
                             {QStringLiteral("--fleet"), fleet}, options),
                 serve.output.constData());
        QProcess& server = *serve.process;
        const quint16 port = serve.port;
        HttpTestClient http(QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(port)));
        HttpTestClient::Reply wall;
        QTRY_VERIFY_WITH_TIMEOUT((wall = http.get(QStringLiteral("/api/v1/fleet"), ViewerSecret)).status ==
                                         200 ||
                                     server.state() != QProcess::Running,
                                 20000);
        QVERIFY2(wall.status == 200, server.readAll().constData());

        // Reads: each member's own tables.
        for (const QString& member :
             {QStringLiteral("orders"), QStringLiteral("billing"), QStringLiteral("edge")}) {
            const auto events =
                http.get(QStringLiteral("/api/v1/members/%1/events?status=FAILED").arg(member), ViewerSecret);
            QVERIFY2(events.status == 200, events.body.constData());
            QCOMPARE(events.json().value(QStringLiteral("events")).toArray().size(), 3);
            const auto groups =
                http.get(QStringLiteral("/api/v1/members/%1/failure-groups").arg(member), ViewerSecret);
            QVERIFY2(groups.status == 200, groups.body.constData());
            QVERIFY2(groups.body.contains("Topic authorization failed"), groups.body.constData());
            QCOMPARE(
                http.get(QStringLiteral("/api/v1/members/%1/dead-letters").arg(member), ViewerSecret).status,
                200);
            const auto summary =
                http.get(QStringLiteral("/api/v1/members/%1/summary").arg(member), ViewerSecret);
            QVERIFY2(summary.status == 200, summary.body.constData());
            const auto findings =
                http.get(QStringLiteral("/api/v1/members/%1/findings").arg(member), ViewerSecret);
            QVERIFY2(findings.status == 200, findings.body.constData());
            QVERIFY2(findings.body.contains("\"failed-events\""), findings.body.constData());
        }
        const auto one =
            http.get(QStringLiteral("/api/v1/members/billing/events?status=FAILED"), ViewerSecret);
        const QString firstId = one.json()
                                    .value(QStringLiteral("events"))
                                    .toArray()
                                    .first()
                                    .toObject()
                                    .value(QStringLiteral("id"))
                                    .toVariant()
                                    .toString();
        QCOMPARE(
            http.get(QStringLiteral("/api/v1/members/billing/events/%1").arg(firstId), ViewerSecret).status,
            200);

        // A requeue on billing: only billing's events change, its audit row is in billing's tables.
        const QByteArray requeue = R"({"filter":{"status":"FAILED"},"reason":"ACL fixed for billing"})";
        QCOMPARE(
            http.post(QStringLiteral("/api/v1/members/billing/events/requeue"), requeue, ViewerSecret).status,
            403);
        const auto done =
            http.post(QStringLiteral("/api/v1/members/billing/events/requeue"), requeue, OperatorSecret);
        QVERIFY2(done.status == 200, done.body.constData());
        QCOMPARE(failed(*billing), qint64(0));
        QCOMPARE(countRows(*billing, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")),
                 qint64(3));
        QCOMPARE(failed(*orders), qint64(3));
        QCOMPARE(failed(*edge), qint64(3));
        QCOMPARE(countRows(*billing, QStringLiteral("{audit}")), qint64(1));
        QCOMPARE(countRows(*orders, QStringLiteral("{audit}")), qint64(0));
        QCOMPARE(countRows(*edge, QStringLiteral("{audit}")), qint64(0));
        const auto audit = http.get(QStringLiteral("/api/v1/members/billing/audit"), ViewerSecret);
        QVERIFY2(audit.status == 200, audit.body.constData());
        QVERIFY2(audit.body.contains("ACL fixed for billing") && audit.body.contains("alice"),
                 audit.body.constData());
        QCOMPARE(http.get(QStringLiteral("/api/v1/members/orders/audit"), ViewerSecret)
                     .json()
                     .value(QStringLiteral("entries"))
                     .toArray()
                     .size(),
                 0);

        // What is not per member, or not there.
        const auto unknown = http.get(QStringLiteral("/api/v1/members/nope/events"), ViewerSecret);
        QCOMPARE(unknown.status, 404);
        QVERIFY2(unknown.body.contains("no member nope"), unknown.body.constData());
        QCOMPARE(http.get(QStringLiteral("/api/v1/members/orders/fleet"), ViewerSecret).status, 404);
        QCOMPARE(http.get(QStringLiteral("/api/v1/members/orders/me"), ViewerSecret).status, 404);
        QCOMPARE(http.get(QStringLiteral("/api/v1/members/orders/events")).status, 401);
        const auto unscoped = http.get(QStringLiteral("/api/v1/events"), ViewerSecret);
        QCOMPARE(unscoped.status, 404);
        QCOMPARE(http.post(QStringLiteral("/api/v1/events/requeue"), requeue, OperatorSecret).status, 404);
        QCOMPARE(failed(*orders), qint64(3));

        // A token scoped to team=billing sees billing alone: the fleet, the member routes, /metrics
        // and the wall's WebSocket; the others are not there for it.
        QStringList names;
        for (const QJsonValue& m : http.get(QStringLiteral("/api/v1/fleet"), BillingSecret)
                                       .json()
                                       .value(QStringLiteral("members"))
                                       .toArray())
            names << m.toObject().value(QStringLiteral("name")).toString();
        QCOMPARE(names, QStringList{QStringLiteral("billing")});
        QCOMPARE(http.get(QStringLiteral("/api/v1/members/billing/events"), BillingSecret).status, 200);
        const auto hidden = http.get(QStringLiteral("/api/v1/members/orders/events"), BillingSecret);
        QCOMPARE(hidden.status, 404);
        QVERIFY2(hidden.body.contains("no member orders"), hidden.body.constData());
        // Its console opened on a member it does not see: /me says the member is not there for it.
        const auto hiddenMe = http.get(QStringLiteral("/api/v1/me?member=orders"), BillingSecret);
        QCOMPARE(hiddenMe.status, 404);
        QVERIFY2(hiddenMe.body.contains("no member orders"), hiddenMe.body.constData());
        QCOMPARE(http.get(QStringLiteral("/api/v1/me?member=billing"), BillingSecret).status, 200);
        QCOMPARE(
            http.post(QStringLiteral("/api/v1/members/edge/events/requeue"), requeue, BillingSecret).status,
            404);
        QCOMPARE(failed(*edge), qint64(3));
        QCOMPARE(http.get(QStringLiteral("/api/v1/events"), BillingSecret).status, 403);
        const auto metrics = http.get(QStringLiteral("/metrics"), BillingSecret);
        QCOMPARE(metrics.status, 200);
        QVERIFY(metrics.body.contains("database=\"billing\""));
        QVERIFY(!metrics.body.contains("database=\"orders\"") && !metrics.body.contains("database=\"edge\""));
        const auto all = http.get(QStringLiteral("/metrics"), ViewerSecret);
        QVERIFY(all.body.contains("database=\"orders\"") && all.body.contains("database=\"edge\""));
        {
            QWebSocket socket;
            QStringList pushed;
            connect(&socket, &QWebSocket::textMessageReceived, &socket, [&pushed](const QString& text) {
                const QJsonObject o = QJsonDocument::fromJson(text.toUtf8()).object();
                if (o.value(QStringLiteral("type")).toString() != QLatin1String("fleet"))
                    return;
                pushed.clear();
                for (const QJsonValue& m : o.value(QStringLiteral("members")).toArray())
                    pushed << m.toObject().value(QStringLiteral("name")).toString();
            });
            connect(&socket, &QWebSocket::connected, &socket, [&socket] {
                socket.sendTextMessage(QStringLiteral("{\"type\":\"auth\",\"token\":\"%1\"}")
                                           .arg(QString::fromUtf8(BillingSecret)));
            });
            socket.open(QUrl(QStringLiteral("ws://127.0.0.1:%1/ws").arg(port)));
            QTRY_COMPARE_WITH_TIMEOUT(pushed, QStringList{QStringLiteral("billing")}, 10000);
            // And again after the next tick's push.
            pushed.clear();
            QTRY_COMPARE_WITH_TIMEOUT(pushed, QStringList{QStringLiteral("billing")}, 10000);
        }

        // A viewer with operator=orders: changes orders, only reads edge; /me says so per member.
        QCOMPARE(http.post(QStringLiteral("/api/v1/members/edge/events/requeue"), requeue, LeadSecret).status,
                 403);
        QCOMPARE(failed(*edge), qint64(3));
        const auto leadRequeue =
            http.post(QStringLiteral("/api/v1/members/orders/events/requeue"), requeue, LeadSecret);
        QVERIFY2(leadRequeue.status == 200, leadRequeue.body.constData());
        QCOMPARE(failed(*orders), qint64(0));
        QCOMPARE(countRows(*orders, QStringLiteral("{audit}"), QStringLiteral("actor = 'lead'")), qint64(1));
        QCOMPARE(failed(*edge), qint64(3));
        QCOMPARE(http.get(QStringLiteral("/api/v1/me?member=orders"), LeadSecret)
                     .json()
                     .value(QStringLiteral("may_change"))
                     .toBool(),
                 true);
        QCOMPARE(http.get(QStringLiteral("/api/v1/me?member=edge"), LeadSecret)
                     .json()
                     .value(QStringLiteral("may_change"))
                     .toBool(),
                 false);

        server.terminate();
        QVERIFY(server.waitForFinished(15000));
        QCOMPARE(server.exitCode(), 0);
    }

    void scopedTokenGrammar_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("error"); // empty: valid
        const QString hex = QString::fromLatin1(web::AccessControl::hashToken("x"));
        QTest::newRow("plain") << QStringLiteral("viewer:") + hex << QString();
        QTest::newRow("members") << QStringLiteral("operator:") + hex +
                                        QStringLiteral(" members=team=payments,orders")
                                 << QString();
        QTest::newRow("operator on some")
            << QStringLiteral("viewer:") + hex + QStringLiteral(" operator=orders") << QString();
        QTest::newRow("unknown part") << QStringLiteral("viewer:") + hex + QStringLiteral(" admins=orders")
                                      << QStringLiteral("unknown part \"admins=orders\"");
        QTest::newRow("bad selector") << QStringLiteral("viewer:") + hex + QStringLiteral(" members=a;b")
                                      << QStringLiteral("\"a;b\" is not a member name or tag");
        QTest::newRow("twice") << QStringLiteral("viewer:") + hex + QStringLiteral(" members=a members=b")
                               << QStringLiteral("members= given twice");
        QTest::newRow("operator twice over")
            << QStringLiteral("operator:") + hex + QStringLiteral(" operator=a")
            << QStringLiteral("operator= is for viewer tokens");
    }

    void scopedTokenGrammar()
    {
        QFETCH(QString, value);
        QFETCH(QString, error);
        const auto token = web::WebConfig::parseToken(QStringLiteral("t"), value);
        if (error.isEmpty()) {
            QVERIFY2(bool(token), qPrintable(token ? QString() : token.message()));
            return;
        }
        QVERIFY(!token);
        QVERIFY2(token.message().contains(error), qPrintable(token.message()));
        QVERIFY(!token.message().contains(QString::fromLatin1(web::AccessControl::hashToken("x"))));
    }
};

QTEST_GUILESS_MAIN(TestFleetApi)
#include "tst_fleetapi.moc"
