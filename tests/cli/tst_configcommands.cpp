// The one configuration as the real `outboxctl` sees it: `config show` (sources, redaction, --json),
// strict errors, and [database] table_prefix from the file honoured by every command against
// prefixed tables beside unprefixed ones in the same database; the demo runs twice on one database.
#include "core/broker/kafka/EmbeddedBroker.h"
#include "core/db/EventStore.h"
#include "core/db/Migrator.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/web/HttpTestClient.h"
#include "ui/web/http/AccessControl.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

namespace {

using Run = OutboxctlRun;

// The real outboxctl, without a terminal, with the OUTBOX_* variables of this process removed and
// `env` added.
Run outboxctl(const QStringList& args, const QMap<QString, QString>& env = {}, int timeoutMs = 120000)
{
    OutboxctlOptions options;
    options.withoutOutboxEnvironment = true;
    for (auto it = env.cbegin(); it != env.cend(); ++it)
        options.extraEnv.insert(it.key(), it.value());
    options.timeoutMs = timeoutMs;
    return runOutboxctl(args, options);
}

quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qFatal("cannot write %s", qPrintable(path));
    f.write(text);
    return path;
}

qint64 statusCount(Database& db, const QString& status)
{
    return countRows(db, QStringLiteral("{events}"), QStringLiteral("status = '%1'").arg(status));
}

// The settings of `config show --json`, by key.
QMap<QString, QJsonObject> settingsByKey(const QJsonObject& shown)
{
    QMap<QString, QJsonObject> byKey;
    for (const QJsonValue& v : shown.value(QStringLiteral("settings")).toArray())
        byKey.insert(v.toObject().value(QStringLiteral("key")).toString(), v.toObject());
    return byKey;
}

} // namespace

class TestConfigCommands : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("OUTBOXCTL").isEmpty(), "OUTBOXCTL must point at the binary");
    }

    // Every value with its source (default / file:path:line / env:NAME / flag), secrets redacted.
    void configShowNamesSourcesAndRedactsSecrets()
    {
        QTemporaryDir dir;
        const QString ini = writeFile(dir, QStringLiteral("outbox.ini"),
                                      "[database]\n"
                                      "url = postgresql://app:url-secret@db.internal:5432/orders\n"
                                      "[kafka]\n"
                                      "bootstrap = kafka1:9092\n"
                                      "sasl.password = sasl-secret\n"
                                      "[relay]\n"
                                      "batch_size = 42\n"
                                      "[tokens]\n"
                                      "noc = viewer:" +
                                          web::AccessControl::hashToken("token-secret") + "\n");
        const QMap<QString, QString> env{{QStringLiteral("OUTBOX_DB_PASSWORD"), QStringLiteral("env-secret")},
                                         {QStringLiteral("OUTBOX_RELAY_LEASE_MS"), QStringLiteral("45000")},
                                         {QStringLiteral("OUTBOX_RELAY_BATCH_SIZE"), QStringLiteral("43")}};
        const QStringList args{QStringLiteral("config"),
                               QStringLiteral("show"),
                               QStringLiteral("--config"),
                               ini,
                               QStringLiteral("--table-prefix"),
                               QStringLiteral("t_"),
                               QStringLiteral("--workers"),
                               QStringLiteral("3"),
                               QStringLiteral("-X"),
                               QStringLiteral("linger.ms=7")};
        const Run text = outboxctl(args, env);
        QVERIFY2(text.exitCode == 0, text.err.constData());
        const QString shown = QString::fromUtf8(text.out);
        auto lineOf = [&shown](const QString& start) {
            for (const QString& line : shown.split(QLatin1Char('\n')))
                if (line.startsWith(start))
                    return line;
            return QString();
        };
        QVERIFY2(
            lineOf(QStringLiteral("table_prefix = t_")).endsWith(QStringLiteral("; flag:--table-prefix")),
            qPrintable(shown));
        QVERIFY(lineOf(QStringLiteral("workers = 3")).endsWith(QStringLiteral("; flag:--workers")));
        QVERIFY(lineOf(QStringLiteral("batch_size = 43"))
                    .endsWith(QStringLiteral("; env:OUTBOX_RELAY_BATCH_SIZE")));
        QVERIFY(lineOf(QStringLiteral("lease_ms = 45000"))
                    .endsWith(QStringLiteral("; env:OUTBOX_RELAY_LEASE_MS")));
        QVERIFY(lineOf(QStringLiteral("bootstrap = kafka1:9092"))
                    .endsWith(QStringLiteral("; file:") + ini + QStringLiteral(":4")));
        QVERIFY(lineOf(QStringLiteral("max_attempts = 10")).endsWith(QStringLiteral("; default")));
        QVERIFY(lineOf(QStringLiteral("linger.ms = 7")).endsWith(QStringLiteral("; flag:-X linger.ms")));
        QVERIFY(lineOf(QStringLiteral("url = postgresql://app:***@db.internal:5432/orders"))
                    .endsWith(QStringLiteral(":2")));
        QVERIFY(
            lineOf(QStringLiteral("password = ***")).endsWith(QStringLiteral("; env:OUTBOX_DB_PASSWORD")));
        QVERIFY(lineOf(QStringLiteral("sasl.password = ***")).endsWith(QStringLiteral(":5")));
        QVERIFY(lineOf(QStringLiteral("noc = ***")).endsWith(QStringLiteral(":9")));

        const Run json = outboxctl(args + QStringList{QStringLiteral("--json")}, env);
        QVERIFY2(json.exitCode == 0, json.err.constData());
        QCOMPARE(json.json().value(QStringLiteral("file")).toString(), ini);
        QCOMPARE(json.json().value(QStringLiteral("precedence")).toString(),
                 QStringLiteral("flags > environment > file > defaults"));
        const auto byKey = settingsByKey(json.json());
        auto sourceOf = [&byKey](const char* key) {
            return byKey.value(QLatin1String(key)).value(QStringLiteral("source")).toString();
        };
        QCOMPARE(sourceOf("database.table_prefix"), QStringLiteral("flag:--table-prefix"));
        QCOMPARE(sourceOf("relay.batch_size"), QStringLiteral("env:OUTBOX_RELAY_BATCH_SIZE"));
        QCOMPARE(sourceOf("kafka.bootstrap"), QStringLiteral("file:") + ini + QStringLiteral(":4"));
        QCOMPARE(sourceOf("relay.poll_ms"), QStringLiteral("default"));
        QCOMPARE(byKey.value(QStringLiteral("relay.batch_size")).value(QStringLiteral("value")).toString(),
                 QStringLiteral("43"));
        QCOMPARE(byKey.value(QStringLiteral("database.password")).value(QStringLiteral("value")).toString(),
                 QStringLiteral("***"));
        QVERIFY(byKey.value(QStringLiteral("database.password")).value(QStringLiteral("secret")).toBool());
        QVERIFY(byKey.contains(QStringLiteral("doctor.backlog_age")));
        for (const Run* r : {&text, &json})
            for (const char* secret : {"url-secret", "sasl-secret", "env-secret", "token-secret"})
                QVERIFY2(!r->out.contains(secret) && !r->err.contains(secret), secret);
        QVERIFY(!json.out.contains(web::AccessControl::hashToken("token-secret")));
    }

    void badConfigurationIsOneClearUsageError_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown key") << QByteArray("[database]\nurl = sqlite:///tmp/x.db\ntable-prefx = t_\n")
                                     << QStringLiteral(":3: unknown key table-prefx in [database]");
        QTest::newRow("unknown section") << QByteArray("[databse]\nurl = sqlite:///tmp/x.db\n")
                                         << QStringLiteral(":1: unknown section [databse]");
        QTest::newRow("malformed") << QByteArray("[database]\nurl: sqlite:///tmp/x.db\n")
                                   << QStringLiteral(":2: expected [section] or key = value");
        QTest::newRow("bad value") << QByteArray("[relay]\nworkers = many\n")
                                   << QStringLiteral(
                                          ":2: [relay] workers: must be a number between 1 and 64");
    }
    void badConfigurationIsOneClearUsageError()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString ini =
            writeFile(dir, QStringLiteral("bad.ini"), text + "[kafka]\nsasl.password = hush\n");
        for (const QString& command : {QStringLiteral("status"), QStringLiteral("relay"),
                                       QStringLiteral("serve"), QStringLiteral("config")}) {
            QStringList args{command, QStringLiteral("--config"), ini};
            if (command == QLatin1String("config"))
                args << QStringLiteral("show");
            const Run r = outboxctl(args);
            QCOMPARE(r.exitCode, 2);
            QCOMPARE(r.errLines(), 1);
            QVERIFY2(r.err.contains((ini + expected).toUtf8()), r.err.constData());
            QVERIFY(!r.err.contains("hush"));
            QVERIFY(r.out.isEmpty());
        }
        const Run env = outboxctl({QStringLiteral("status")},
                                  {{QStringLiteral("OUTBOX_RELAY_WORKERS"), QStringLiteral("0")}});
        QCOMPARE(env.exitCode, 2);
        QVERIFY2(env.err.contains("OUTBOX_RELAY_WORKERS: must be a number between 1 and 64"),
                 env.err.constData());
    }

    // migrate, status, events, requeue, serve, relay, consume and reconcile with [database]
    // table_prefix from the file work on t_* and leave the unprefixed outbox of the same database
    // as it was.
    void everyCommandHonoursTheTablePrefixOfTheFile_data() { TestDatabases::addKinds(); }
    void everyCommandHonoursTheTablePrefixOfTheFile()
    {
        QFETCH(QString, kind);
        if (!TestDatabases::available(kind))
            QSKIP("server not configured");
        const DatabaseUrl url =
            TestDatabases::create(kind, TestDatabases::uniqueName(QStringLiteral("prefix")));
        const QString urlText = TestDatabases::urlText(url);
        // Another application's outbox, unprefixed, in the same database.
        const Run plainMigrate = outboxctl({QStringLiteral("migrate"), QStringLiteral("--db"), urlText});
        QVERIFY2(plainMigrate.exitCode == 0, plainMigrate.err.constData());
        auto plain = TestDatabases::open(url);
        const auto plainIds = insertEvents(*plain, 5);
        forceStatus(*plain, plainIds.mid(0, 2), QStringLiteral("FAILED"), QStringLiteral("boom"));

        auto broker = EmbeddedBroker::start(1);
        QVERIFY2(broker.ok(), qPrintable(broker.message()));
        QVERIFY((*broker)->createTopic(QStringLiteral("order"), 3).ok());
        const quint16 port = freePort();
        const QByteArray secret = "prefix-operator-secret";
        QTemporaryDir dir;
        const QString ini = writeFile(dir, QStringLiteral("p.ini"),
                                      "[database]\nurl = " + urlText.toUtf8() +
                                          "\ntable_prefix = t_\n"
                                          "[general]\nactor = prefix-test\n"
                                          "[kafka]\nbootstrap = " +
                                          (*broker)->bootstrap().toUtf8() +
                                          "\nmessage.timeout.ms = 5000\n"
                                          "[relay]\npoll_ms = 100\n"
                                          "[consumer]\nname = inventory\n"
                                          "[web]\nlisten = 127.0.0.1:" +
                                          QByteArray::number(port) + "\n[tokens]\nops = operator:" +
                                          web::AccessControl::hashToken(secret) + "\n");
        const QStringList config{QStringLiteral("--config"), ini};

        // migrate creates t_* beside the unprefixed tables.
        const Run migrate = outboxctl(QStringList{QStringLiteral("migrate")} + config);
        QVERIFY2(migrate.exitCode == 0, migrate.err.constData());
        auto prefixed =
            Database::open(url, Database::Options{QStringLiteral("test"), QStringLiteral("t_"), 5});
        QVERIFY2(prefixed.ok(), qPrintable(prefixed.message()));
        Database& t = **prefixed;
        QCOMPARE(*Migrator(t).currentVersion(), Migrator(t).latestVersion());
        const auto ids = insertEvents(t, 7, QStringLiteral("OrderPaid"), QStringLiteral("t-order-"));
        forceStatus(t, ids.mid(0, 3), QStringLiteral("FAILED"), QStringLiteral("boom"));

        // status and events read t_*.
        const Run status =
            outboxctl(QStringList{QStringLiteral("status"), QStringLiteral("--json")} + config);
        QVERIFY2(status.exitCode == 0, status.err.constData());
        const QJsonObject counts = status.json().value(QStringLiteral("events")).toObject();
        QCOMPARE(counts.value(QStringLiteral("FAILED")).toInteger(), qint64(3));
        QCOMPARE(counts.value(QStringLiteral("PENDING")).toInteger(), qint64(4));
        const Run list = outboxctl(QStringList{QStringLiteral("events"), QStringLiteral("list"),
                                               QStringLiteral("--status"), QStringLiteral("FAILED"),
                                               QStringLiteral("--json")} +
                                   config);
        QVERIFY2(list.exitCode == 0, list.err.constData());
        QCOMPARE(list.json().value(QStringLiteral("events")).toArray().size(), 3);

        // An action through the CLI changes t_* only, audited in t_audit as the configured actor.
        const Run requeue = outboxctl(QStringList{QStringLiteral("requeue"), QStringLiteral("--status"),
                                                  QStringLiteral("FAILED"), QStringLiteral("--reason"),
                                                  QStringLiteral("prefix test"), QStringLiteral("--yes"),
                                                  QStringLiteral("--json")} +
                                      config);
        QVERIFY2(requeue.exitCode == 0, requeue.err.constData());
        QCOMPARE(requeue.json().value(QStringLiteral("matched")).toInteger(), qint64(3));
        QCOMPARE(statusCount(t, QStringLiteral("FAILED")), qint64(0));
        QCOMPARE(countRows(t, QStringLiteral("{audit}"), QStringLiteral("actor = 'prefix-test'")), qint64(1));
        QCOMPARE(statusCount(*plain, QStringLiteral("FAILED")), qint64(2));
        QCOMPARE(countRows(*plain, QStringLiteral("{audit}")), qint64(0));

        // serve: the API and /metrics show t_*, its actions change t_* only.
        forceStatus(t, ids.mid(0, 2), QStringLiteral("FAILED"), QStringLiteral("boom again"));
        {
            auto server = startOutboxctl(QStringList{QStringLiteral("serve")} + config);
            HttpTestClient http(QUrl(QStringLiteral("http://127.0.0.1:%1/").arg(port)));
            QTRY_VERIFY_WITH_TIMEOUT(http.get(QStringLiteral("/api/v1/summary"), secret).status == 200 ||
                                         server->state() != QProcess::Running,
                                     20000);
            QVERIFY2(server->state() == QProcess::Running, server->readAll().constData());
            const auto events = http.get(QStringLiteral("/api/v1/events?status=FAILED"), secret);
            QCOMPARE(events.status, 200);
            QCOMPARE(events.json().value(QStringLiteral("events")).toArray().size(), 2);
            const auto reply =
                http.post(QStringLiteral("/api/v1/events/requeue"),
                          "{\"filter\":{\"status\":\"FAILED\"},\"reason\":\"prefix through serve\"}", secret);
            QCOMPARE(reply.status, 200);
            QCOMPARE(reply.json().value(QStringLiteral("affected")).toInteger(), qint64(2));
            QTRY_VERIFY_WITH_TIMEOUT(http.get(QStringLiteral("/metrics"), secret)
                                         .body.contains("outbox_events{status=\"PENDING\"} 7"),
                                     20000);
            QCOMPARE(terminateAndWait(*server), 0);
        }
        QCOMPARE(statusCount(t, QStringLiteral("PENDING")), qint64(7));
        QCOMPARE(statusCount(*plain, QStringLiteral("FAILED")), qint64(2));

        // relay delivers t_* and not the other application's outbox.
        {
            auto relay =
                startOutboxctl(QStringList{QStringLiteral("relay"), QStringLiteral("--quiet")} + config);
            QTRY_COMPARE_WITH_TIMEOUT(statusCount(t, QStringLiteral("SENT")), qint64(7), 30000);
            QCOMPARE(terminateAndWait(*relay), 0);
        }
        QCOMPARE(statusCount(*plain, QStringLiteral("PENDING")), qint64(3));
        QCOMPARE(statusCount(*plain, QStringLiteral("FAILED")), qint64(2));
        QCOMPARE(countRows(*plain, QStringLiteral("{relays}")), qint64(0));

        // consume records the messages in t_inbox_events.
        {
            auto consume =
                startOutboxctl(QStringList{QStringLiteral("consume"), QStringLiteral("--demo-inventory"),
                                           QStringLiteral("--quiet")} +
                               config);
            QTRY_COMPARE_WITH_TIMEOUT(
                countRows(t, QStringLiteral("{inbox}"),
                          QStringLiteral("consumer_name = 'inventory' AND status = 'PROCESSED'")),
                qint64(7), 60000);
            QCOMPARE(terminateAndWait(*consume), 0);
        }
        QCOMPARE(countRows(*plain, QStringLiteral("{inbox}")), qint64(0));

        // reconcile looks at t_*: two more SENT events there that nobody consumed; the unprefixed
        // outbox has three of its own, which only an unprefixed reconcile sees.
        const auto unconsumed = insertEvents(t, 2, QStringLiteral("OrderPaid"), QStringLiteral("t-late-"));
        forceStatus(t, unconsumed, QStringLiteral("SENT"));
        // A SENT event went out on a topic the relay records; the consumer recorded the topics it
        // reads, and only events of those count as unconsumed: these went where the others went.
        auto sentTopic =
            t.exec(QStringLiteral("SELECT MAX(sent_topic) FROM {events} WHERE sent_topic IS NOT NULL"));
        QVERIFY(sentTopic && sentTopic->next() && !sentTopic->value(0).toString().isEmpty());
        const QString topic = sentTopic->value(0).toString();
        for (qint64 id : unconsumed)
            QVERIFY(t.exec(QStringLiteral("UPDATE {events} SET sent_topic = :topic WHERE id = :id"),
                           {{QStringLiteral(":topic"), topic}, {QStringLiteral(":id"), id}}));
        forceStatus(*plain, plainIds.mid(2, 3), QStringLiteral("SENT"));
        const QStringList reconcileArgs{QStringLiteral("reconcile"), QStringLiteral("--older-than"),
                                        QStringLiteral("0s"), QStringLiteral("--json")};
        const Run reconcile = outboxctl(reconcileArgs + config);
        QVERIFY2(reconcile.exitCode == 0, reconcile.err.constData());
        QCOMPARE(reconcile.json().value(QStringLiteral("unconsumed")).toInteger(), qint64(2));
        const Run plainReconcile =
            outboxctl(reconcileArgs + QStringList{QStringLiteral("--db"), urlText,
                                                  QStringLiteral("--consumer"), QStringLiteral("inventory")});
        QVERIFY2(plainReconcile.exitCode == 0, plainReconcile.err.constData());
        QCOMPARE(plainReconcile.json().value(QStringLiteral("unconsumed")).toInteger(), qint64(3));
    }

    // A second demo on the same database writes orders again: order numbers continue after the
    // first run's instead of colliding with them. With [database] table_prefix the demo's outbox
    // is t_*, beside the unprefixed one.
    void demoRunsAgainOnTheSameDatabase()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("demo.db"));
        const QString url = QStringLiteral("sqlite://") + file;
        // The second run is shorter than the first: restarting at O100001 it would write nothing.
        auto demo = [](int seconds) {
            return QStringList{QStringLiteral("demo"), QStringLiteral("--duration"), QString::number(seconds),
                               QStringLiteral("--rate"), QStringLiteral("100")};
        };
        static const QRegularExpression stopped(QStringLiteral("demo stopped after \\d+ s: (\\d+) orders"));
        auto ordersOf = [](const Run& r) {
            const auto m = stopped.match(QString::fromUtf8(r.out));
            return m.hasMatch() ? m.captured(1).toLongLong() : -1;
        };

        const Run first = outboxctl(demo(4) + QStringList{QStringLiteral("--db"), url});
        QVERIFY2(first.exitCode == 0, first.err.constData());
        QVERIFY2(ordersOf(first) > 0, first.out.constData());
        auto db = TestDatabases::open(*DatabaseUrl::parse(url));
        const qint64 ordersAfterFirst = countRows(*db, QStringLiteral("demo_orders"));
        const qint64 eventsAfterFirst = countRows(*db, QStringLiteral("{events}"));
        QCOMPARE(ordersAfterFirst, ordersOf(first));

        const Run second = outboxctl(demo(2) + QStringList{QStringLiteral("--db"), url});
        QVERIFY2(second.exitCode == 0, second.err.constData());
        QVERIFY2(ordersOf(second) > 0, second.out.constData());
        QVERIFY2(!second.err.contains("order service"), second.err.constData());
        QCOMPARE(countRows(*db, QStringLiteral("demo_orders")), ordersAfterFirst + ordersOf(second));
        QCOMPARE(countRows(*db, QStringLiteral("demo_orders"), QStringLiteral("order_id = 'O100001'")),
                 qint64(1));
        QVERIFY(countRows(*db, QStringLiteral("{events}")) > eventsAfterFirst);
        const qint64 plainEvents = countRows(*db, QStringLiteral("{events}"));

        const QString ini = writeFile(dir, QStringLiteral("demo.ini"),
                                      "[database]\nurl = " + url.toUtf8() + "\ntable_prefix = demo_t_\n");
        const Run prefixed = outboxctl(demo(2) + QStringList{QStringLiteral("--config"), ini});
        QVERIFY2(prefixed.exitCode == 0, prefixed.err.constData());
        QVERIFY2(ordersOf(prefixed) > 0, prefixed.out.constData());
        auto t = Database::open(*DatabaseUrl::parse(url),
                                Database::Options{QStringLiteral("test"), QStringLiteral("demo_t_"), 5});
        QVERIFY(t.ok());
        QCOMPARE(countRows(**t, QStringLiteral("{events}"), QStringLiteral("event_type = 'OrderCreated'")),
                 ordersOf(prefixed));
        QCOMPARE(countRows(*db, QStringLiteral("{events}")), plainEvents);
    }
};

QTEST_GUILESS_MAIN(TestConfigCommands)
#include "tst_configcommands.moc"
