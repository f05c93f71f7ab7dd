#include "core/broker/amqp/AmqpOptions.h"
#include "core/config/Config.h"
#include "core/config/IniFile.h"
#include "core/consumer/ConsumerOptions.h"
#include "core/db/DatabaseTarget.h"
#include "core/diagnosis/DiagnosisOptions.h"
#include "core/diagnosis/MemberBroker.h"
#include "core/relay/RelayOptions.h"
#include "tests/support/BrokerTestKit.h"
#include "tests/support/TestPaths.h"
#include "ui/web/WebConfig.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace outbox;
using namespace outbox::config;

// The one configuration: INI file, environment and flags over defaults, with sources, strict
// errors that name file and line, and secrets that never show.
class TestConfig : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString write(const QByteArray& text, const QString& name = QStringLiteral("outbox.ini"))
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            qFatal("cannot write %s", qPrintable(path));
        f.write(text);
        return path;
    }

    static Result<Config> load(const QString& file, const QMap<QString, QString>& env = {},
                               const QVector<FlagValue>& flags = {}, const QStringList& kafka = {})
    {
        ConfigInputs inputs;
        inputs.file = file;
        inputs.environment = env;
        inputs.flags = flags;
        inputs.kafkaArguments = kafka;
        return Config::load(inputs);
    }

private slots:
    void memberBrokerComesFromItsConfigurationThenItsRelays()
    {
        QCOMPARE(MemberBroker::arguments(QString()), QStringList());
        const QStringList kafkaArgs = MemberBroker::arguments(QStringLiteral("kafka://k:9092"));
        QCOMPARE(kafkaArgs, QStringList{QStringLiteral("--broker=kafka://k:9092")});
        RelayRecord stale;
        stale.brokerKind = QStringLiteral("kafka");
        stale.brokerAddress = QStringLiteral("old:9092");
        stale.heartbeatAgeMs = 60000;
        RelayRecord kafka;
        kafka.brokerKind = QStringLiteral("kafka");
        kafka.brokerAddress = QStringLiteral("a:9092,b:9093");
        kafka.heartbeatAgeMs = 1000;
        RelayRecord old; // a relay older than migration 14: no broker
        old.heartbeatAgeMs = 0;
        // The database's own configuration names the broker: taken, whatever its relays registered.
        MemberBroker::Choice c = MemberBroker::choose(kafkaArgs, {stale, kafka, old});
        QCOMPARE(c.arguments, kafkaArgs);
        QVERIFY(c.refused.isEmpty());
        // Nothing configured: the freshest relay's registered Kafka bootstrap.
        c = MemberBroker::choose({}, {stale, kafka, old});
        QCOMPARE(c.arguments, QStringList{QStringLiteral("--broker=kafka://a:9092,b:9093")});
        // The freshest relay publishes to RabbitMQ: its row names no user, so no command is guessed;
        // the refusal says where the relays publish and what to set.
        RelayRecord rabbit;
        rabbit.brokerKind = QStringLiteral("amqp");
        rabbit.brokerAddress = QStringLiteral("mq.internal:5672 vhost orders/v1");
        rabbit.heartbeatAgeMs = 10;
        c = MemberBroker::choose({}, {stale, kafka, rabbit}, QStringLiteral("name it in [member m]"));
        QVERIFY(c.arguments.isEmpty());
        QVERIFY2(c.refused.contains(QLatin1String("RabbitMQ mq.internal:5672 vhost orders/v1")),
                 qPrintable(c.refused));
        QVERIFY2(c.refused.endsWith(QLatin1String("name it in [member m]")), qPrintable(c.refused));
        // No row names a broker and nothing is configured: refused with the configuration's keys.
        c = MemberBroker::choose({}, {old});
        QVERIFY(c.arguments.isEmpty());
        QVERIFY2(c.refused.contains(QLatin1String("[kafka] bootstrap")), qPrintable(c.refused));
    }

    void defaultsMatchTheOptionsTheyFeed()
    {
        auto c = load(QString());
        QVERIFY2(c.ok(), qPrintable(c.message()));
        auto relay = RelayOptions::fromConfig(*c);
        QVERIFY(relay.ok());
        const RelayOptions plain;
        // config holds the defaults of keys whose options live with their owners: they must agree.
        QCOMPARE(relay->batchSize, plain.batchSize);
        QCOMPARE(relay->leaseMs, plain.leaseMs);
        QCOMPARE(relay->pollIntervalMs, plain.pollIntervalMs);
        QCOMPARE(relay->maxAttempts, plain.maxAttempts);
        QCOMPARE(relay->backoffBaseMs, plain.backoffBaseMs);
        QCOMPARE(relay->backoffCapMs, plain.backoffCapMs);
        QCOMPARE(relay->retentionMs, plain.retentionMs);
        QCOMPARE(relay->notify, plain.notify);
        QCOMPARE(relay->pipeline, plain.pipeline);
        QCOMPARE(relay->topicTemplate, plain.topicTemplate);
        const AmqpOptions amqp; // RabbitMQ's options live in its room (core/broker/amqp)
        QCOMPARE(c->value(QStringLiteral("amqp.exchange")), amqp.exchange);
        QCOMPARE(int(c->integer(QStringLiteral("amqp.window"))), amqp.window);
        QCOMPARE(c->integer(QStringLiteral("amqp.confirm_timeout_ms")), amqp.confirmTimeoutMs);
        auto consumer = ConsumerOptions::fromConfig(*c);
        QVERIFY(consumer.ok());
        const ConsumerOptions plainConsumer;
        QCOMPARE(consumer->maxAttempts, plainConsumer.maxAttempts);
        QCOMPARE(consumer->backoffBaseMs, plainConsumer.backoffBaseMs);
        QCOMPARE(consumer->backoffCapMs, plainConsumer.backoffCapMs);
        QCOMPARE(consumer->batchSize, plainConsumer.batchSize);
        QCOMPARE(consumer->batchMaxWaitMs, plainConsumer.batchMaxWaitMs);
        const DiagnosisOptions doctor = DiagnosisOptions::fromConfig(*c);
        const DiagnosisOptions plainDoctor;
        QCOMPARE(doctor.backlogAgeWarningMs, plainDoctor.backlogAgeWarningMs);
        QCOMPARE(doctor.backlogAgeCriticalMs, plainDoctor.backlogAgeCriticalMs);
        QCOMPARE(doctor.staleHeartbeats, plainDoctor.staleHeartbeats);
        QCOMPARE(doctor.expiredLeaseGraceMs, plainDoctor.expiredLeaseGraceMs);
        QCOMPARE(doctor.blockedAfterMs, plainDoctor.blockedAfterMs);
        QCOMPARE(doctor.deadRecentMs, plainDoctor.deadRecentMs);
        QCOMPARE(doctor.replayStuckAfterMs, plainDoctor.replayStuckAfterMs);
        QCOMPARE(doctor.unconsumedOlderThanMs, plainDoctor.unconsumedOlderThanMs);
        QCOMPARE(doctor.unconsumedWindowMs, plainDoctor.unconsumedWindowMs);
        QCOMPARE(doctor.deadTupleRatio, plainDoctor.deadTupleRatio);
        QCOMPARE(doctor.retentionMs, plainDoctor.retentionMs);
        QCOMPARE(c->source(QStringLiteral("relay.batch_size")).toString(), QStringLiteral("default"));
        QCOMPARE(c->tablePrefix(), QString());
        QCOMPARE(DiagnosisOptions::fromConfig(*c).backlogAgeWarningMs, qint64(300000));
    }

    // flags > environment > file > defaults, key by key, and each value says where it came from.
    void precedenceAndSources()
    {
        const QString ini = write("; comment\n"
                                  "[database]\n"
                                  "url = sqlite:///from/file.db\n"
                                  "table_prefix = file_\n"
                                  "\n"
                                  "[relay]\n"
                                  "  batch-size = 100   ; the old spelling with a dash still works\n"
                                  "lease_ms = 40000\n"
                                  "poll_ms = 300\n"
                                  "[kafka]\n"
                                  "bootstrap = file:9092\n"
                                  "compression.type = lz4\n");
        auto c = load(ini,
                      {{QStringLiteral("OUTBOX_DB_TABLE_PREFIX"), QStringLiteral("env_")},
                       {QStringLiteral("OUTBOX_RELAY_LEASE_MS"), QStringLiteral("50000")},
                       {QStringLiteral("OUTBOX_RELAY_POLL_MS"), QString()}}, // empty: not set
                      {{QStringLiteral("relay.lease_ms"), QStringLiteral("60000")}},
                      {QStringLiteral("linger.ms=5")});
        QVERIFY2(c.ok(), qPrintable(c.message()));
        QCOMPARE(c->value(QStringLiteral("database.url")), QStringLiteral("sqlite:///from/file.db"));
        QCOMPARE(c->source(QStringLiteral("database.url")).toString(),
                 QStringLiteral("file:") + ini + QStringLiteral(":3"));
        QCOMPARE(c->tablePrefix(), QStringLiteral("env_"));
        QCOMPARE(c->source(QStringLiteral("database.table_prefix")).toString(),
                 QStringLiteral("env:OUTBOX_DB_TABLE_PREFIX"));
        QCOMPARE(c->integer(QStringLiteral("relay.batch_size")), qint64(100));
        QCOMPARE(c->source(QStringLiteral("relay.batch_size")).line, 7);
        QCOMPARE(c->integer(QStringLiteral("relay.lease_ms")), qint64(60000));
        QCOMPARE(c->source(QStringLiteral("relay.lease_ms")).toString(), QStringLiteral("flag:--lease-ms"));
        QCOMPARE(c->integer(QStringLiteral("relay.poll_ms")), qint64(300));
        QCOMPARE(c->integer(QStringLiteral("relay.max_attempts")), qint64(10));
        auto relay = RelayOptions::fromConfig(*c);
        QVERIFY2(relay.ok(), qPrintable(relay.message()));
        auto target = DatabaseTarget::fromConfig(*c);
        QVERIFY2(target.ok(), qPrintable(target.message()));
        QCOMPARE(target->tablePrefix(), QStringLiteral("env_"));
        QCOMPARE(relay->broker->address(), QStringLiteral("file:9092"));
        QCOMPARE(test::kafkaProducer(*relay).value(QStringLiteral("compression.type")),
                 QStringLiteral("lz4"));
        QCOMPARE(test::kafkaProducer(*relay).value(QStringLiteral("linger.ms")), QStringLiteral("5"));
        QCOMPARE(test::kafkaProducer(*relay).value(QStringLiteral("acks")),
                 QStringLiteral("all")); // relay default kept
        auto consumer = ConsumerOptions::fromConfig(*c);
        QVERIFY(consumer.ok());
        ConsumerOptions consumerOptions = *consumer;
        QCOMPARE(test::kafkaConsumer(consumerOptions).value(QStringLiteral("compression.type")),
                 QStringLiteral("lz4"));
        QCOMPARE(consumer->topics, QStringList{QStringLiteral("order")});
    }

    void errorsNameFileLineAndKey_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown section") << QByteArray("[database]\nurl = x\n[relays]\nbatch_size = 5\n")
                                         << QStringLiteral(":3: unknown section [relays]");
        QTest::newRow("unknown key") << QByteArray("[relay]\nbatch_size = 5\nbatchsize = 6\n")
                                     << QStringLiteral(":3: unknown key batchsize in [relay]");
        QTest::newRow("bad number") << QByteArray("[general]\nactor = ops\n[relay]\n\nlease_ms = soon\n")
                                    << QStringLiteral(":5: [relay] lease_ms: must be a number between 1000");
        QTest::newRow("bad bool") << QByteArray("[web]\npublic_dashboard = perhaps\n")
                                  << QStringLiteral(":2: [web] public_dashboard: must be true or false");
        QTest::newRow("bad prefix") << QByteArray("[database]\ntable_prefix = t-1\n")
                                    << QStringLiteral(
                                           ":2: [database] table_prefix: must be a lower-case letter");
        // PostgreSQL folds unquoted names to lower case: Ab_ made tables ab_… that the migrator's
        // catalogue lookup did not find, and migrate failed half-way on a duplicate key.
        QTest::newRow("upper-case prefix")
            << QByteArray("[database]\ntable_prefix = Ab_\n")
            << QStringLiteral(":2: [database] table_prefix: must be a lower-case letter");
        QTest::newRow("no section") << QByteArray("url = sqlite:///x.db\n")
                                    << QStringLiteral(":1: url stands before any [section]");
        QTest::newRow("broken header")
            << QByteArray("[database\nurl = x\n") << QStringLiteral(":1: malformed section header");
        QTest::newRow("no equals") << QByteArray("[database]\nurl sqlite:///x.db\n")
                                   << QStringLiteral(":2: expected [section] or key = value");
        QTest::newRow("twice") << QByteArray("[relay]\nbatch-size = 1\nbatch_size = 2\n")
                               << QStringLiteral(":3: [relay] batch_size is set twice");
        QTest::newRow("section twice")
            << QByteArray("[relay]\n[web]\n[relay]\n") << QStringLiteral(":3: section [relay] appears twice");
        QTest::newRow("binary") << QByteArray("[relay]\n\x01\x02\n")
                                << QStringLiteral(":2: the file is not text");
        QTest::newRow("quote") << QByteArray("[database]\nurl = \"sqlite:///x.db\n")
                               << QStringLiteral(":2: unterminated quoted value");
    }
    void errorsNameFileLineAndKey()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        const QString ini = write(text);
        auto c = load(ini);
        QVERIFY(!c.ok());
        QCOMPARE(c.error().kind, ErrorKind::Usage);
        QVERIFY2(c.message().startsWith(ini + QLatin1Char(':')), qPrintable(c.message()));
        QVERIFY2(c.message().contains(expected), qPrintable(c.message()));
        QVERIFY(!c.message().contains(QLatin1Char('\n')));
    }

    void environmentAndFlagErrorsNameTheirSource()
    {
        auto env = load(QString(), {{QStringLiteral("OUTBOX_RELAY_BATCH_SIZE"), QStringLiteral("lots")}});
        QVERIFY(!env.ok());
        QVERIFY2(env.message().startsWith(QStringLiteral("OUTBOX_RELAY_BATCH_SIZE: must be a number")),
                 qPrintable(env.message()));
        auto flag = load(QString(), {}, {{QStringLiteral("relay.ordering"), QStringLiteral("total")}});
        QVERIFY(!flag.ok());
        QVERIFY2(flag.message().startsWith(QStringLiteral("--ordering: must be none or aggregate")),
                 qPrintable(flag.message()));
        auto missing = load(m_dir.filePath(QStringLiteral("missing.ini")));
        QVERIFY(!missing.ok());
        QVERIFY(missing.message().contains(QStringLiteral("cannot read the configuration file")));
        auto kafka = load(QString(), {}, {}, {QStringLiteral("nonsense")});
        QVERIFY(!kafka.ok());
        QVERIFY(kafka.message().contains(QStringLiteral("expected name=value")));
    }

    // Secrets: never on the command line, never in a message, redacted when shown.
    void secretsNeverShow()
    {
        const QString ini =
            write("[database]\n"
                  "url = postgresql://app:url-secret@db.internal:5432/orders\n"
                  "[kafka]\n"
                  "sasl.password = sasl-secret\n"
                  "sasl.oauthbearer.client.secret = oauth-secret\n"
                  "security.protocol = SASL_SSL\n"
                  "[tokens]\n"
                  "alice = operator:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n");
        auto c = load(ini, {{QStringLiteral("OUTBOX_DB_PASSWORD"), QStringLiteral("env-secret")}});
        QVERIFY2(c.ok(), qPrintable(c.message()));
        const QString text = c->toText();
        const QString json = QString::fromUtf8(QJsonDocument(c->toJson()).toJson());
        for (const QString& shown : {text, json}) {
            for (const char* secret :
                 {"url-secret", "sasl-secret", "oauth-secret", "env-secret", "0123456789abcdef"})
                QVERIFY2(!shown.contains(QLatin1String(secret)), secret);
            QVERIFY(shown.contains(QStringLiteral("postgresql://app:***@db.internal:5432/orders")));
            QVERIFY(shown.contains(QStringLiteral("SASL_SSL")));
        }
        QVERIFY(text.contains(QStringLiteral("password = ***")));
        QVERIFY(text.contains(QStringLiteral("env:OUTBOX_DB_PASSWORD")));
        const QJsonArray settings = c->toJson().value(QStringLiteral("settings")).toArray();
        bool sawToken = false;
        for (const QJsonValue& v : settings) {
            const QJsonObject o = v.toObject();
            if (o.value(QStringLiteral("key")).toString() == QLatin1String("tokens.alice")) {
                sawToken = true;
                QCOMPARE(o.value(QStringLiteral("value")).toString(), QStringLiteral("***"));
                QVERIFY(o.value(QStringLiteral("secret")).toBool());
            }
        }
        QVERIFY(sawToken);
        // The password reaches the database URL, from the environment only when the URL has none.
        auto target = DatabaseTarget::fromConfig(*c);
        QVERIFY(target.ok());
        QCOMPARE(target->url().password, QStringLiteral("url-secret"));
        auto other =
            DatabaseTarget::fromConfig(*c, QStringLiteral("postgresql://app@inbox:5432/inbox"), QString());
        QVERIFY(other.ok());
        QCOMPARE(other->url().password, QStringLiteral("env-secret"));

        auto argv = load(QString(), {}, {}, {QStringLiteral("sasl.password=argv-secret")});
        QVERIFY(!argv.ok());
        QVERIFY(!argv.message().contains(QStringLiteral("argv-secret")));
        QVERIFY(argv.message().contains(QStringLiteral("not taken from the command line")));
        auto flag =
            load(QString(), {}, {{QStringLiteral("database.password"), QStringLiteral("flag-secret")}});
        QVERIFY(!flag.ok());
        QVERIFY(!flag.message().contains(QStringLiteral("flag-secret")));
    }

    void webSettingsComeFromTheSameConfiguration()
    {
        const QString ini = write("[web]\nlisten = 0.0.0.0:9090\nmask_fields = card.number, email\n"
                                  "public_dashboard = yes\n");
        auto c = load(ini, {{QStringLiteral("OUTBOX_WEB_SAMPLE_INTERVAL_MS"), QStringLiteral("500")}},
                      {{QStringLiteral("web.listen"), QStringLiteral("127.0.0.1:9191")}});
        QVERIFY2(c.ok(), qPrintable(c.message()));
        auto web = web::WebConfig::fromConfig(*c);
        QVERIFY2(web.ok(), qPrintable(web.message()));
        QCOMPARE(web->port, quint16(9191));
        QVERIFY(web->isLoopbackOnly());
        QVERIFY(web->publicDashboard);
        QCOMPARE(web->sampleIntervalMs, 500);
        QCOMPARE(web->maskedFields, (QStringList{QStringLiteral("card.number"), QStringLiteral("email")}));
        auto bad = load(write("[web]\nlisten = nowhere:99999\n"));
        QVERIFY(bad.ok());
        auto badWeb = web::WebConfig::fromConfig(*bad);
        QVERIFY(!badWeb.ok());
        QVERIFY2(badWeb.message().contains(QStringLiteral(":2: [web] listen: invalid listen")),
                 qPrintable(badWeb.message()));
    }

    // docs/configuration.md names every key with its variable and flag.
    void configurationDocumentsEveryKey()
    {
        QFile readme(outbox::test::sourcePath(QStringLiteral("docs/configuration.md")));
        QVERIFY(readme.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(readme.readAll());
        for (const ConfigKey& k : Config::keys()) {
            QVERIFY2(text.contains(QStringLiteral("[%1] %2").arg(k.section(), k.name())) ||
                         text.contains(QStringLiteral("`%1`").arg(k.name())),
                     qPrintable(k.key));
            if (!k.env.isEmpty())
                QVERIFY2(text.contains(QLatin1Char('`') + k.env + QLatin1Char('`')), qPrintable(k.env));
            if (!k.flag.isEmpty())
                QVERIFY2(text.contains(QStringLiteral("`--") + k.flag), qPrintable(k.flag));
        }
    }

    void iniValues()
    {
        auto entries = IniFile::parse("\xEF\xBB\xBF[Kafka]\r\nsasl.mechanisms = PLAIN ; inline\r\n"
                                      "client.id = \"a ; b\"\r\n# hash comment\r\nempty =\r\n",
                                      QStringLiteral("x.ini"));
        QVERIFY2(entries.ok(), qPrintable(entries.message()));
        const QVector<IniEntry>& e = entries->entries;
        QCOMPARE(e.size(), 3);
        QCOMPARE(e.at(0).section, QStringLiteral("kafka"));
        QCOMPARE(e.at(0).value, QStringLiteral("PLAIN"));
        QCOMPARE(e.at(1).value, QStringLiteral("a ; b"));
        QCOMPARE(e.at(1).line, 3);
        QCOMPARE(e.at(2).value, QString());
        QCOMPARE(entries->sections.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestConfig)
#include "tst_config.moc"
