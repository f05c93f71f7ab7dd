// The fleet as the real `outboxctl` sees it: `config show --fleet` (every member, sources, secrets
// redacted), `--fleet FILE --member NAME` standing for --db on any command (two members in one
// PostgreSQL database with different table prefixes), and the usage errors around them.
#include "core/db/Database.h"
#include "core/db/Migrator.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

namespace {

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qFatal("cannot write %s", qPrintable(path));
    f.write(text);
    return path;
}

// Migrates the outbox tables with `prefix` into the database at `url` and opens them.
std::unique_ptr<Database> migrated(const DatabaseUrl& url, const QString& prefix)
{
    Database::Options options;
    options.purpose = QStringLiteral("test-") + prefix;
    options.tablePrefix = prefix;
    auto db = Database::open(url, options);
    if (!db)
        qFatal("cannot open %s: %s", qPrintable(url.redacted()), qPrintable(db.message()));
    auto report = Migrator(**db).migrate();
    if (!report)
        qFatal("migration failed: %s", qPrintable(report.message()));
    return std::move(db).value();
}

QString redactedUrl(DatabaseUrl url)
{
    url.password.clear();
    return url.redacted();
}

} // namespace

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
        const QString secret = writeFile(dir, QStringLiteral("pay.password"), "pay-secret\n");
        QFile::setPermissions(secret, QFile::ReadOwner | QFile::WriteOwner);
        const QString fleet = writeFile(dir, QStringLiteral("fleet.ini"),
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
        const QString bad = writeFile(dir, QStringLiteral("bad.ini"),
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
        auto orders = migrated(url, QString());
        auto billing = migrated(url, QStringLiteral("b_"));
        insertEvents(*orders, 1);
        insertEvents(*billing, 3);
        QTemporaryDir dir;
        const QString fleet =
            writeFile(dir, QStringLiteral("fleet.ini"),
                      "[member orders]\nurl = " + redactedUrl(url).toUtf8() +
                          "\n[member billing]\nurl = " + redactedUrl(url).toUtf8() + "\ntable_prefix = b_\n");
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
        const QString fleet = writeFile(dir, QStringLiteral("fleet.ini"),
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
