// The fleet wall in a real headless Chromium over a real `outboxctl serve --fleet FILE` (no
// --member): two PostgreSQL members (one database, two table prefixes) and one SQLite member, one
// of them sick. The wall shows one tile per member, worst first, pushed over /ws; ?tag= filters;
// clicking the sick tile opens the web console on that member, and requeueing its failure group
// through the real dialog changes only that database and writes the audit row there.
#include "core/db/Database.h"
#include "core/db/Migrator.h"
#include "tests/support/ServeProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TestFleet.h"
#include "tests/web/ChromiumPage.h"
#include "tests/web/ConsoleView.h"
#include "tests/web/HttpTestClient.h"
#include "ui/web/http/AccessControl.h"

#include <QFile>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

namespace {

const QByteArray OperatorSecret = "wall-operator-secret";

} // namespace

class TestFleetWall : public QObject
{
    Q_OBJECT

private slots:
    void wallShowsTheSickMemberFirstAndActsOnItAlone()
    {
        QVERIFY2(!qEnvironmentVariable("OUTBOXCTL").isEmpty(), "OUTBOXCTL must point at the binary");
        if (!TestDatabases::available(QStringLiteral("postgresql")))
            QSKIP("no PostgreSQL test server");
        const DatabaseUrl pg = TestDatabases::create(QStringLiteral("postgresql"),
                                                     TestDatabases::uniqueName(QStringLiteral("fleetwall")));
        auto orders = migratedWithPrefix(pg, QString());
        auto billing = migratedWithPrefix(pg, QStringLiteral("b_"));
        const DatabaseUrl edgeUrl = TestDatabases::create(
            QStringLiteral("sqlite"), TestDatabases::uniqueName(QStringLiteral("fleetwall")));
        auto edge = migratedWithPrefix(edgeUrl, QString());
        // billing is sick (3 FAILED); the others have sent everything.
        const QVector<qint64> sick = insertEvents(*billing, 5);
        forceStatus(*billing, sick.mid(0, 3), QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Topic authorization failed"));
        forceStatus(*billing, sick.mid(3), QStringLiteral("SENT"));
        forceStatus(*orders, insertEvents(*orders, 4), QStringLiteral("SENT"));
        forceStatus(*edge, insertEvents(*edge, 2), QStringLiteral("SENT"));

        QTemporaryDir dir;
        DatabaseUrl pgNoPassword = pg;
        pgNoPassword.password.clear();
        const QByteArray pgUrl = pgNoPassword.redacted().toUtf8();
        const QString fleet =
            writeTestFile(dir, QStringLiteral("fleet.ini"),
                          "[fleet]\ninterval = 1s\ntimeout = 2s\n"
                          "[member orders]\nurl = " +
                              pgUrl + "\ntags = team=checkout\n[member billing]\nurl = " + pgUrl +
                              "\ntable_prefix = b_\ntags = team=checkout\n[member edge]\nurl = " +
                              edgeUrl.redacted().toUtf8() + "\ntags = team=edge\n");
        ServeProcess serve;
        OutboxctlStart options;
        options.removedVariables = {QStringLiteral("OUTBOX_DB_URL")};
        options.extraEnv.insert(QStringLiteral("OUTBOX_DB_PASSWORD_ORDERS"), pg.password);
        options.extraEnv.insert(QStringLiteral("OUTBOX_DB_PASSWORD_BILLING"), pg.password);
        QVERIFY2(serve.start("[tokens]\nalice-oncall = operator:" +
                                 web::AccessControl::hashToken(OperatorSecret) + "\n",
                             {QStringLiteral("--fleet"), fleet}, options),
                 serve.output.constData());
        QProcess& server = *serve.process;
        const quint16 port = serve.port;
        const QString base = QStringLiteral("http://127.0.0.1:%1").arg(port);
        HttpTestClient http{QUrl(base + QLatin1Char('/'))};
        QTRY_VERIFY_WITH_TIMEOUT(http.get(QStringLiteral("/api/v1/fleet"), OperatorSecret).status == 200 ||
                                     server.state() != QProcess::Running,
                                 20000);
        QVERIFY2(server.state() == QProcess::Running, server.readAll().constData());

        ChromiumPage page;
        QString error;
        if (!page.open(base + QStringLiteral("/#token=") + QString::fromUtf8(OperatorSecret), &error))
            QFAIL(qPrintable(error));
        ConsoleView view(page);
        // One tile per member, worst first, pushed over /ws (the count of pushes grows).
        QVERIFY2(
            page.waitFor(QStringLiteral("document.querySelectorAll('#wall-tiles li').length === 3"), 15000),
            qPrintable(page.evaluate(QStringLiteral("document.body.innerText"))));
        QCOMPARE(page.evaluate(QStringLiteral("[...document.querySelectorAll('#wall-tiles li')].map(li => "
                                              "li.dataset.member).join(',')"))
                     .section(QLatin1Char(','), 0, 0),
                 QStringLiteral("billing"));
        QVERIFY(page.evaluate(QStringLiteral("document.querySelector('#wall-tiles li').className")) !=
                QLatin1String("ok"));
        QCOMPARE(view.count(QStringLiteral("#wall-tiles li.ok")), 2);
        QVERIFY(view.text(QStringLiteral("#wall-tiles li[data-member=billing] .numbers"))
                    .contains(QStringLiteral("3 FAILED")));
        // A push updates the tiles in place: the element under the operator's pointer stays the same
        // (a tile rebuilt between the press and the release of a click swallowed that click).
        page.evaluate(QStringLiteral(
            "window.billingTile = document.querySelector('#wall-tiles li[data-member=billing] a'), 'kept'"));
        const int pushes = page.evaluate(QStringLiteral("document.body.dataset.fleetUpdates")).toInt();
        QVERIFY(page.waitFor(QStringLiteral("Number(document.body.dataset.fleetUpdates) > %1").arg(pushes),
                             10000));
        QCOMPARE(page.evaluate(QStringLiteral("String(document.querySelector('#wall-tiles "
                                              "li[data-member=billing] a') === window.billingTile)")),
                 QStringLiteral("true"));
        QVERIFY(page.evaluate(
                    QStringLiteral("String(document.querySelector('.charts').offsetParent === null)")) ==
                QLatin1String("true")); // the single database's charts give way to the wall
        if (const QString shot = qEnvironmentVariable("OUTBOX_WALL_SCREENSHOT"); !shot.isEmpty()) {
            QFile f(shot);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(page.screenshotPng());
        }

        // ?tag= keeps the members with that tag.
        page.navigate(base + QStringLiteral("/?tag=team%3Dedge"));
        QVERIFY(
            page.waitFor(QStringLiteral("document.querySelectorAll('#wall-tiles li').length === 1 && "
                                        "document.querySelector('#wall-tiles li').dataset.member === 'edge'"),
                         15000));
        page.navigate(base + QStringLiteral("/"));
        QVERIFY(
            page.waitFor(QStringLiteral("document.querySelectorAll('#wall-tiles li').length === 3"), 15000));

        // One click: the console on billing, signed in with the wall's token, saying which database.
        QVERIFY(page.click(QStringLiteral("#wall-tiles li[data-member=billing] a")));
        QVERIFY(page.waitFor(
            QStringLiteral("location.pathname === '/console/' && location.search === '?member=billing'"),
            15000));
        // billing is critical: its tile opens Recovery (its findings and prepared actions, issue 36).
        QVERIFY(view.ready(QStringLiteral("recovery")));
        QCOMPARE(page.evaluate(QStringLiteral("location.hash")), QStringLiteral("#/recovery"));
        QVERIFY(page.click(QStringLiteral("#nav a[data-view=events]")));
        QVERIFY(view.ready(QStringLiteral("events")));
        QVERIFY(view.text(QStringLiteral("#member-banner")).contains(QStringLiteral("billing")));
        QVERIFY(page.evaluate(QStringLiteral("document.title")).startsWith(QStringLiteral("billing")));
        QCOMPARE(view.count(QStringLiteral("#events tbody tr")), 5); // billing's events, not orders' 4
        // The counts are billing's (its summary), not another database's.
        QVERIFY(page.waitFor(
            QStringLiteral(
                "(document.querySelector('#counts [data-count=FAILED] .n') || {}).textContent === '3'"),
            15000));

        // Requeue billing's failure group through the real dialog.
        QVERIFY(page.click(QStringLiteral("#nav a[data-view=groups]")));
        QVERIFY(view.ready(QStringLiteral("groups")));
        QCOMPARE(view.count(QStringLiteral("#groups tbody tr")), 1);
        QVERIFY(page.click(QStringLiteral("#groups .act-requeue-group")));
        QVERIFY(page.waitFor(QStringLiteral("document.getElementById('action-count')")));
        QCOMPARE(view.text(QStringLiteral("#action-count")), QStringLiteral("3 row(s) will be changed."));
        QVERIFY(page.type(QStringLiteral("#action-reason"), QStringLiteral("ACL fixed for billing")));
        if (view.count(QStringLiteral("#action-confirm")) == 1)
            QVERIFY(page.type(QStringLiteral("#action-confirm"), QStringLiteral("requeue 3")));
        QVERIFY(page.waitFor(QStringLiteral("!document.getElementById('action-run').disabled")));
        QVERIFY(page.click(QStringLiteral("#action-run")));
        QVERIFY2(
            page.waitFor(QStringLiteral("(document.getElementById('action-affected') || {}).textContent === "
                                        "'3 row(s) changed'"),
                         15000),
            qPrintable(view.text(QStringLiteral("#action-body"))));
        QCOMPARE(countRows(*billing, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")),
                 qint64(0));
        QCOMPARE(countRows(*billing, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")),
                 qint64(3));
        QCOMPARE(countRows(*billing, QStringLiteral("{audit}"),
                           QStringLiteral("action = 'events.requeue' AND actor = 'alice-oncall' AND reason = "
                                          "'ACL fixed for billing'")),
                 qint64(1));
        QCOMPARE(countRows(*orders, QStringLiteral("{audit}")), qint64(0));
        QCOMPARE(countRows(*edge, QStringLiteral("{audit}")), qint64(0));
        QCOMPARE(countRows(*orders, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")),
                 qint64(4));

        server.terminate();
        QVERIFY(server.waitForFinished(15000));
    }
};

QTEST_GUILESS_MAIN(TestFleetWall)
#include "tst_fleetwall.moc"
