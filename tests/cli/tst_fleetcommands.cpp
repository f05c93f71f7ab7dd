// The fleet as the real `outboxctl` sees it: `config show --fleet` (every member, sources, secrets
// redacted), `--fleet FILE --member NAME` standing for --db on any command (two members in one
// PostgreSQL database with different table prefixes), the usage errors around them, and
// `doctor --fleet` / `status --fleet` / `serve --fleet` (API, /metrics) over issue 27's "Done when"
// fleet: three PostgreSQL members (two in one database with different table prefixes), MariaDB,
// SQLite and a port that accepts TCP and never answers, with one member made sick.
#include "core/db/Database.h"
#include "core/db/Migrator.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/ServeProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TestFleet.h"
#include "tests/web/HttpTestClient.h"
#include "ui/web/http/AccessControl.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

class TestFleetCommands : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("OUTBOXCTL").isEmpty(), "OUTBOXCTL must point at the binary");
        if (!TestDatabases::available(QStringLiteral("postgresql")))
            QSKIP("no PostgreSQL test server");
    }

    void configShowListsEveryMemberWithSources()
    {
        QTemporaryDir dir;
        const QString secret = writeTestFile(dir, QStringLiteral("pay.password"), "pay-secret\n");
        QFile::setPermissions(secret, QFile::ReadOwner | QFile::WriteOwner);
        const QString fleet = writeTestFile(dir, QStringLiteral("fleet.ini"),
                                            "[fleet]\n"
                                            "timeout = 2s\n"
                                            "[member orders]\n"
                                            "url = postgresql://outbox@db-orders:5432/orders\n"
                                            "tags = team=checkout, env=prod\n"
                                            "[member payments]\n"
                                            "url = mysql://outbox@db-pay:3306/payments\n"
                                            "password_file = " +
                                                secret.toUtf8() + "\n");
        QProcessEnvironment env;
        env.insert(QStringLiteral("OUTBOX_DB_PASSWORD_ORDERS"), QStringLiteral("orders-secret"));
        const OutboxctlRun text = runOutboxctl(
            {QStringLiteral("config"), QStringLiteral("show"), QStringLiteral("--fleet"), fleet}, env);
        QVERIFY2(text.exitCode == 0, text.err.constData());
        const QString shown = QString::fromUtf8(text.out);
        QVERIFY2(shown.contains(QStringLiteral("fleet = ") + fleet), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("[member orders]")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("; file:") + fleet + QStringLiteral(":4")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("; env:OUTBOX_DB_PASSWORD_ORDERS")), qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("; file:") + secret + QStringLiteral(":1")),
                 qPrintable(shown));
        QVERIFY(!shown.contains(QStringLiteral("orders-secret")));
        QVERIFY(!shown.contains(QStringLiteral("pay-secret")));

        const OutboxctlRun json = runOutboxctl({QStringLiteral("config"), QStringLiteral("show"),
                                                QStringLiteral("--json"), QStringLiteral("--fleet"), fleet},
                                               env);
        QVERIFY2(json.exitCode == 0, json.err.constData());
        const QJsonArray members =
            json.json().value(QStringLiteral("fleet")).toObject().value(QStringLiteral("members")).toArray();
        QCOMPARE(members.size(), 2);
        QCOMPARE(members.at(1).toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("payments"));
        QVERIFY(!json.out.contains("orders-secret") && !json.out.contains("pay-secret"));

        // A bad member: one usage error naming the file, the line and the member; nothing shown.
        const QString bad =
            writeTestFile(dir, QStringLiteral("bad.ini"),
                          "[member orders]\nurl = postgresql://outbox@db:5432/orders\n"
                          "[member pay]\nurl = mysql://outbox@db-pay/payments\ncolour = red\n");
        const OutboxctlRun refused = runOutboxctl(
            {QStringLiteral("config"), QStringLiteral("show"), QStringLiteral("--fleet"), bad}, env);
        QCOMPARE(refused.exitCode, 2);
        QVERIFY(refused.out.isEmpty());
        QVERIFY2(refused.err.contains(QByteArray(bad.toUtf8() + ":5: member pay: unknown key colour")),
                 refused.err.constData());
    }

    // Two members in one PostgreSQL database, told apart by their table prefix: --member reaches the
    // right tables for any command, with the member's password from its variable.
    void memberStandsForDbOnEveryCommand()
    {
        const DatabaseUrl url = TestDatabases::create(
            QStringLiteral("postgresql"), TestDatabases::uniqueName(QStringLiteral("fleetmember")));
        auto orders = migratedWithPrefix(url, QString());
        auto billing = migratedWithPrefix(url, QStringLiteral("b_"));
        insertEvents(*orders, 1);
        insertEvents(*billing, 3);
        QTemporaryDir dir;
        const QString fleet = writeTestFile(
            dir, QStringLiteral("fleet.ini"),
            "[member orders]\nurl = " + urlWithoutPassword(url).toUtf8() +
                "\n[member billing]\nurl = " + urlWithoutPassword(url).toUtf8() + "\ntable_prefix = b_\n");
        const auto pending = [&](const QString& member) {
            const OutboxctlRun run =
                runOutboxctl({QStringLiteral("status"), QStringLiteral("--json"), QStringLiteral("--fleet"),
                              fleet, QStringLiteral("--member"), member});
            if (run.exitCode != 0)
                qWarning("%s", run.err.constData());
            return run.json()
                .value(QStringLiteral("events"))
                .toObject()
                .value(QStringLiteral("PENDING"))
                .toInt(-1);
        };
        QCOMPARE(pending(QStringLiteral("orders")), 1);
        QCOMPARE(pending(QStringLiteral("billing")), 3);

        // A listing command and a writing one go to the member's tables too.
        const OutboxctlRun dead = runOutboxctl(
            {QStringLiteral("dead"), QStringLiteral("--fleet"), fleet, QStringLiteral("--member"),
             QStringLiteral("billing"), QStringLiteral("--status"), QStringLiteral("PENDING"),
             QStringLiteral("--reason"), QStringLiteral("fleet test"), QStringLiteral("--yes")});
        QVERIFY2(dead.exitCode == 0, dead.err.constData());
        QCOMPARE(countRows(*billing, QStringLiteral("{events}"), QStringLiteral("status = 'DEAD'")),
                 qint64(3));
        QCOMPARE(countRows(*orders, QStringLiteral("{events}"), QStringLiteral("status = 'DEAD'")),
                 qint64(0));
        QCOMPARE(countRows(*billing, QStringLiteral("{audit}")), qint64(1));
        QCOMPARE(countRows(*orders, QStringLiteral("{audit}")), qint64(0));

        // The doctor on one member prepares commands that name it as the fleet's doctor does
        // (--fleet FILE --member NAME), never --db (issue 39 item 1).
        forceStatus(*billing, insertEvents(*billing, 2), QStringLiteral("FAILED"),
                    QStringLiteral("no route"));
        const OutboxctlRun doctor =
            runOutboxctl({QStringLiteral("doctor"), QStringLiteral("--json"), QStringLiteral("--fleet"),
                          fleet, QStringLiteral("--member"), QStringLiteral("billing")});
        int commands = 0;
        for (const QJsonValue& f : doctor.json().value(QStringLiteral("findings")).toArray())
            for (const QJsonValue& a : f.toObject().value(QStringLiteral("actions")).toArray()) {
                const QString command = a.toObject().value(QStringLiteral("command")).toString();
                if (command.isEmpty())
                    continue;
                ++commands;
                QVERIFY2(command.contains(QStringLiteral("--fleet ") + fleet +
                                          QStringLiteral(" --member billing")) &&
                             !command.contains(QLatin1String("--db")),
                         qPrintable(command));
            }
        QVERIFY2(commands > 0, doctor.out.constData());
    }

    // Issue 27's "Done when" fleet (tests/support/TestFleet.h): three PostgreSQL members (orders and
    // billing in one database, told apart by their table prefix; inventory), MariaDB, SQLite and a black
    // hole; billing sick (relay stopped with a backlog, FAILED events).
    void doctorAndStatusShowExactlyTheSickMember()
    {
        if (!SickFleet::available())
            QSKIP("no MariaDB test server");
        QTemporaryDir dir;
        SickFleet sickFleet;
        sickFleet.build(dir, "timeout = 2s\nmax_connections = 3\n");
        const QString fleet = sickFleet.file;
        Database& billing = *sickFleet.billing;
        Database& orders = *sickFleet.orders;
        const QProcessEnvironment env = sickFleet.passwords;

        QElapsedTimer clock;
        clock.start();
        const OutboxctlRun doctor = runOutboxctl(
            {QStringLiteral("doctor"), QStringLiteral("--fleet"), fleet, QStringLiteral("--json")}, env);
        const qint64 doctorMs = clock.elapsed();
        QCOMPARE(doctor.exitCode, 4); // a member was unreachable
        QVERIFY2(doctor.err.contains("member black-hole is unreachable: did not answer within 2 s"),
                 doctor.err.constData());
        // Given up at the timeout (2 s); the process ends once the connect timeout ends the thread.
        QVERIFY2(doctorMs < 6000, qPrintable(QString::number(doctorMs)));
        QMap<QString, QString> states;
        for (const QJsonValue& m : doctor.json().value(QStringLiteral("members")).toArray())
            states.insert(m.toObject().value(QStringLiteral("name")).toString(),
                          m.toObject().value(QStringLiteral("state")).toString());
        QCOMPARE(states,
                 (QMap<QString, QString>{{QStringLiteral("orders"), QStringLiteral("ok")},
                                         {QStringLiteral("billing"), QStringLiteral("critical")},
                                         {QStringLiteral("inventory"), QStringLiteral("ok")},
                                         {QStringLiteral("payments"), QStringLiteral("ok")},
                                         {QStringLiteral("edge"), QStringLiteral("ok")},
                                         {QStringLiteral("black-hole"), QStringLiteral("unreachable")}}));
        QCOMPARE(doctor.json()
                     .value(QStringLiteral("members"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("name"))
                     .toString(),
                 QStringLiteral("black-hole")); // worst first
        const QJsonArray findings = doctor.json().value(QStringLiteral("findings")).toArray();
        QVERIFY(!findings.isEmpty());
        QString requeue;
        for (const QJsonValue& v : findings) {
            const QJsonObject f = v.toObject();
            QCOMPARE(f.value(QStringLiteral("member")).toString(), QStringLiteral("billing"));
            if (f.value(QStringLiteral("id")).toString() == QLatin1String("failed-events"))
                requeue = f.value(QStringLiteral("actions"))
                              .toArray()
                              .first()
                              .toObject()
                              .value(QStringLiteral("command"))
                              .toString();
        }
        // The prepared command names the member, not a URL, and runs as printed.
        QVERIFY2(requeue.startsWith(QLatin1String("outboxctl requeue ")), qPrintable(requeue));
        QVERIFY2(requeue.contains(QStringLiteral("--fleet ") + fleet + QStringLiteral(" --member billing")),
                 qPrintable(requeue));
        QVERIFY2(!requeue.contains(QLatin1String("--db")), qPrintable(requeue));
        // Pasted with what the operator adds (the reason and --yes go before the `--` of the ids).
        QString line = requeue;
        const qsizetype end = line.indexOf(QLatin1String(" -- "));
        const QString extra = QStringLiteral(" --reason 'failed-events: ACL fixed' --yes");
        if (end < 0)
            line += extra;
        else
            line.insert(end, extra);
        OutboxctlOptions pasted;
        pasted.extraEnv = env;
        const OutboxctlRun ran = runPrintedCommand(line, pasted);
        QVERIFY2(ran.exitCode == 0, ran.err.constData());
        // Only billing changed: orders shares its database (no table prefix), the rest are elsewhere.
        QCOMPARE(countRows(billing, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")),
                 qint64(0));
        QCOMPARE(countRows(billing, QStringLiteral("{audit}")), qint64(1));
        QCOMPARE(countRows(orders, QStringLiteral("{audit}")), qint64(0));
        QCOMPARE(countRows(orders, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(5));
        for (Database* other : {sickFleet.inventory.get(), sickFleet.payments.get(), sickFleet.edge.get()}) {
            QCOMPARE(countRows(*other, QStringLiteral("{audit}")), qint64(0));
            QCOMPARE(countRows(*other, QStringLiteral("{events}"), QStringLiteral("status <> 'SENT'")),
                     qint64(0));
        }

        // status --fleet: one line per member, worst first.
        const OutboxctlRun status =
            runOutboxctl({QStringLiteral("status"), QStringLiteral("--fleet"), fleet}, env);
        QVERIFY2(status.exitCode == 0, status.err.constData());
        const QList<QByteArray> lines = status.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 7);
        QVERIFY2(lines.at(0).startsWith("MEMBER"), status.out.constData());
        QVERIFY2(lines.at(1).startsWith("black-hole") && lines.at(1).contains("unreachable") &&
                     lines.at(1).contains("did not answer within 2 s"),
                 status.out.constData());
        QVERIFY2(lines.at(2).startsWith("billing") && lines.at(2).contains("critical"),
                 status.out.constData());
        for (int i = 3; i < 7; ++i)
            QVERIFY2(lines.at(i).contains(" ok "), status.out.constData());
        const OutboxctlRun statusJson = runOutboxctl(
            {QStringLiteral("status"), QStringLiteral("--fleet"), fleet, QStringLiteral("--json")}, env);
        const QJsonObject first =
            statusJson.json().value(QStringLiteral("members")).toArray().first().toObject();
        QCOMPARE(first.value(QStringLiteral("name")).toString(), QStringLiteral("black-hole"));
        QCOMPARE(first.value(QStringLiteral("state")).toString(), QStringLiteral("unreachable"));

        // serve --fleet: GET /api/v1/fleet (worst first, ?tag=) and outbox_member_up on /metrics; the
        // console works on the member given with --member.
        const QByteArray ini = "[tokens]\nnoc = viewer:" + web::AccessControl::hashToken("noc-secret") + "\n";
        OutboxctlStart serverStart;
        serverStart.removedVariables = {QStringLiteral("OUTBOX_DB_URL")};
        serverStart.extraEnv = env;
        ServeProcess server;
        QVERIFY2(server.start(ini,
                              {QStringLiteral("--fleet"), fleet, QStringLiteral("--member"),
                               QStringLiteral("payments")},
                              serverStart),
                 server.output.constData());
        HttpTestClient http(server.baseUrl());
        HttpTestClient::Reply wall;
        QTRY_VERIFY_WITH_TIMEOUT((wall = http.get(QStringLiteral("/api/v1/fleet"), "noc-secret")).status ==
                                         200 ||
                                     server.process->state() != QProcess::Running,
                                 20000);
        QVERIFY2(wall.status == 200, server.process->readAll().constData());
        const QJsonArray tiles = wall.json().value(QStringLiteral("members")).toArray();
        QCOMPARE(tiles.size(), 6);
        QCOMPARE(tiles.at(0).toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("black-hole"));
        QCOMPARE(tiles.at(0).toObject().value(QStringLiteral("state")).toString(),
                 QStringLiteral("unreachable"));
        QCOMPARE(tiles.at(1).toObject().value(QStringLiteral("name")).toString(), QStringLiteral("billing"));
        QCOMPARE(tiles.at(1).toObject().value(QStringLiteral("state")).toString(),
                 QStringLiteral("critical"));
        QCOMPARE(tiles.at(1).toObject().value(QStringLiteral("backlog")).toInt(), 6);
        for (int i = 2; i < 6; ++i)
            QCOMPARE(tiles.at(i).toObject().value(QStringLiteral("state")).toString(), QStringLiteral("ok"));
        const HttpTestClient::Reply checkout =
            http.get(QStringLiteral("/api/v1/fleet?tag=team%3Dcheckout"), "noc-secret");
        QCOMPARE(checkout.status, 200);
        QStringList names;
        for (const QJsonValue& v : checkout.json().value(QStringLiteral("members")).toArray())
            names << v.toObject().value(QStringLiteral("name")).toString();
        QCOMPARE(names, (QStringList{QStringLiteral("black-hole"), QStringLiteral("orders")}));
        QCOMPARE(http.get(QStringLiteral("/api/v1/fleet")).status, 401);
        HttpTestClient::Reply metrics;
        QTRY_VERIFY_WITH_TIMEOUT((metrics = http.get(QStringLiteral("/metrics"), "noc-secret")).status == 200,
                                 10000);
        // Every series of a member carries database= (and team=, env= from its tags); one HELP/TYPE
        // per family; the unreachable member has outbox_member_up 0, its missed ticks and nothing else.
        const auto has = [&metrics](const QByteArray& sample) {
            return metrics.body.contains(QByteArray('\n' + sample + '\n'));
        };
        QVERIFY2(has("outbox_member_up{database=\"black-hole\",team=\"checkout\"} 0"),
                 metrics.body.constData());
        QVERIFY2(has("outbox_member_up{database=\"orders\",team=\"checkout\",env=\"prod\"} 1"),
                 metrics.body.constData());
        QVERIFY2(has("outbox_member_up{database=\"edge\",team=\"edge\"} 1"), metrics.body.constData());
        // billing's 4 PENDING and the 2 FAILED the pasted requeue above made PENDING again.
        QVERIFY2(
            has("outbox_events{database=\"billing\",team=\"payments\",env=\"prod\",status=\"PENDING\"} 6"),
            metrics.body.constData());
        QVERIFY2(has("outbox_events{database=\"orders\",team=\"checkout\",env=\"prod\",status=\"SENT\"} 5"),
                 metrics.body.constData());
        QVERIFY2(has("outbox_events{database=\"inventory\",team=\"warehouse\",status=\"SENT\"} 3"),
                 metrics.body.constData());
        QVERIFY2(has("outbox_events{database=\"payments\",team=\"payments\",env=\"prod\",status=\"SENT\"} 4"),
                 metrics.body.constData());
        // billing has critical findings, orders (same database, other prefix) none.
        QVERIFY2(
            QString::fromUtf8(metrics.body)
                .contains(QRegularExpression(QStringLiteral(
                    "\\noutbox_findings\\{database=\"billing\",team=\"payments\",env=\"prod\",id=\"[a-z-]+\","
                    "severity=\"critical\"\\} [1-9]\\n"))),
            metrics.body.constData());
        QVERIFY2(
            !QString::fromUtf8(metrics.body)
                 .contains(QRegularExpression(QStringLiteral(
                     "\\noutbox_findings\\{database=\"(orders|inventory|payments|edge)\"[^}]*\\} [1-9]"))),
            metrics.body.constData());
        QVERIFY2(has("outbox_diagnosis_up{database=\"payments\",team=\"payments\",env=\"prod\"} 1"),
                 metrics.body.constData());
        QCOMPARE(metrics.body.count("# TYPE outbox_events gauge\n"), 1);
        // An unreachable member: whether it answers (outbox_member_up) and how many ticks it missed.
        QCOMPARE(metrics.body.count("database=\"black-hole\""), 2);
        QVERIFY2(
            metrics.body.contains("outbox_member_missed_samples{database=\"black-hole\",team=\"checkout\"} "),
            metrics.body.constData());
        for (const QByteArray& sample : metrics.body.split('\n'))
            QVERIFY2(sample.isEmpty() || sample.startsWith('#') || sample.contains("{database=\""),
                     sample.constData());
        QCOMPARE(terminateAndWait(*server.process), 0);

        // Without --member: the wall alone, even with a member down; no database of its own (the
        // per-database routes point at /api/v1/members/{name}/…).
        ServeProcess wallOnly;
        QVERIFY2(wallOnly.start(ini, {QStringLiteral("--fleet"), fleet}, serverStart),
                 wallOnly.output.constData());
        HttpTestClient wallHttp(wallOnly.baseUrl());
        QTRY_VERIFY_WITH_TIMEOUT(
            (wall = wallHttp.get(QStringLiteral("/api/v1/fleet"), "noc-secret")).status == 200 ||
                wallOnly.process->state() != QProcess::Running,
            20000);
        QVERIFY2(wall.status == 200, wallOnly.process->readAll().constData());
        QCOMPARE(wall.json().value(QStringLiteral("members")).toArray().size(), 6);
        const HttpTestClient::Reply unscoped = wallHttp.get(QStringLiteral("/api/v1/events"), "noc-secret");
        QCOMPARE(unscoped.status, 404);
        QVERIFY2(unscoped.body.contains("/api/v1/members/{name}/events"), unscoped.body.constData());
        const HttpTestClient::Reply billingEvents =
            wallHttp.get(QStringLiteral("/api/v1/members/billing/events"), "noc-secret");
        QVERIFY2(billingEvents.status == 200, billingEvents.body.constData());
        QCOMPARE(billingEvents.json().value(QStringLiteral("events")).toArray().size(), 6);
        QCOMPARE(wallHttp.get(QStringLiteral("/metrics"), "noc-secret").status, 200);
        QCOMPARE(terminateAndWait(*wallOnly.process), 0);
        QVERIFY2(wallOnly.output.contains(QByteArray("serving the fleet " + fleet.toUtf8() + " (6 members)")),
                 "the wall names its fleet");

        // Without the black hole: findings only, exit 3; healthy members alone: exit 0.
        QFile whole(fleet);
        QVERIFY(whole.open(QIODevice::ReadOnly));
        const QByteArray text = whole.readAll();
        const QString reachable = writeTestFile(dir, QStringLiteral("reachable.ini"),
                                                text.left(text.indexOf("[member black-hole]")));
        QCOMPARE(runOutboxctl({QStringLiteral("doctor"), QStringLiteral("--fleet"), reachable}, env).exitCode,
                 3);
        const QString healthy = writeTestFile(
            dir, QStringLiteral("healthy.ini"),
            "[member payments]\nurl = " + urlWithoutPassword(sickFleet.mysql).toUtf8() +
                "\n[member edge]\nurl = " + urlWithoutPassword(sickFleet.sqlite).toUtf8() + "\n");
        const OutboxctlRun fine =
            runOutboxctl({QStringLiteral("doctor"), QStringLiteral("--fleet"), healthy}, env);
        QVERIFY2(fine.exitCode == 0, fine.out.constData());
        QVERIFY(fine.out.contains("== payments: ok"));
    }

    void memberUsageErrors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("expected");
        QTest::newRow("member without fleet")
            << QStringList{QStringLiteral("status"), QStringLiteral("--member"), QStringLiteral("orders")}
            << QStringLiteral("--member orders needs a fleet file");
        QTest::newRow("db and member") << QStringList{QStringLiteral("status"),
                                                      QStringLiteral("--fleet"),
                                                      QStringLiteral("FLEET"),
                                                      QStringLiteral("--member"),
                                                      QStringLiteral("orders"),
                                                      QStringLiteral("--db"),
                                                      QStringLiteral("sqlite:///tmp/x.db")}
                                       << QStringLiteral("--db and --member both name the database");
        QTest::newRow("unknown member")
            << QStringList{QStringLiteral("status"), QStringLiteral("--fleet"), QStringLiteral("FLEET"),
                           QStringLiteral("--member"), QStringLiteral("billing")}
            << QStringLiteral("no member billing in FLEET (members: orders, edge)");
        QTest::newRow("one-database command with a fleet")
            << QStringList{QStringLiteral("events"), QStringLiteral("list"), QStringLiteral("--fleet"),
                           QStringLiteral("FLEET")}
            << QStringLiteral("events works on one database: add --member NAME");
    }

    void memberUsageErrors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString fleet = writeTestFile(dir, QStringLiteral("fleet.ini"),
                                            "[member orders]\nurl = postgresql://outbox@db:5432/orders\n"
                                            "[member edge]\nurl = sqlite:///tmp/edge.db\n");
        arguments.replaceInStrings(QStringLiteral("FLEET"), fleet);
        expected.replace(QStringLiteral("FLEET"), fleet);
        const OutboxctlRun run = runOutboxctl(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(expected.toUtf8()), run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestFleetCommands)
#include "tst_fleetcommands.moc"
