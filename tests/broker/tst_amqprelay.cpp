// The relay on RabbitMQ, against the private rabbitmq-server of the CTest fixture (tests/fixtures/
// rabbitmq.sh) and PostgreSQL: confirms, mandatory routing, a missing exchange, a memory alarm and a
// broker restart, each checked in the outbox table and in the queue itself.
#include "core/broker/BrokerRegistry.h"
#include "core/broker/amqp/AmqpAdmin.h"
#include "core/broker/amqp/AmqpPublisher.h"
#include "core/db/EventWriter.h"
#include "core/db/RelayStore.h"
#include "core/diagnosis/Doctor.h"
#include "tests/support/AmqpTestKit.h"
#include "tests/support/BrokerTestKit.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/RelayThread.h"
#include "tests/support/TestDatabases.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QScopeGuard>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

namespace {

const QString Kind = QStringLiteral("postgresql");

RelayOptions amqpRelayOptions(const QString& exchange, const QString& workerId)
{
    RelayOptions o = testRelayOptions(QString(), workerId);
    o.broker = rabbitWith(testAmqpOptions(exchange));
    o.leaseMs = 8000; // above the confirm deadline (3 s + 2 s)
    return o;
}

// Events of one aggregate type (routing key = its lower-case name) in one transaction.
QSet<QString> insertTyped(Database& db, int count, const QString& aggregateType)
{
    QVector<NewEvent> events;
    for (int i = 0; i < count; ++i) {
        NewEvent e;
        e.eventType = aggregateType + QStringLiteral("Created");
        e.aggregateType = aggregateType;
        e.aggregateId = QStringLiteral("%1-%2").arg(aggregateType).arg(i);
        e.payload = QByteArrayLiteral("{\"n\":") + QByteArray::number(i) + '}';
        events << e;
    }
    if (!db.beginWrite())
        qFatal("begin failed");
    auto ids = EventWriter(db).appendBatch(events);
    if (!ids || !db.commit())
        qFatal("insert failed");
    return QSet<QString>(ids->cbegin(), ids->cend());
}

QSet<QString> allEventIds(Database& db)
{
    QSet<QString> ids;
    auto q = db.exec(QStringLiteral("SELECT event_id FROM {events}"));
    if (!q)
        qFatal("%s", qPrintable(q.message()));
    while (q->next())
        ids.insert(q->value(0).toString());
    return ids;
}

RelayRecord relayRow(Database& db)
{
    auto relays = RelayStore(db).list();
    if (!relays || relays->isEmpty())
        return {};
    return relays->first();
}

} // namespace

class TestAmqpRelay : public QObject
{
    Q_OBJECT

    std::unique_ptr<AmqpAdmin> m_admin;

    // A topic exchange and a durable queue bound to it with `bindingKey`, both empty.
    void freshQueue(const QString& exchange, const QString& queue, const QString& bindingKey)
    {
        (void)m_admin->deleteQueue(queue);
        QVERIFY(m_admin->declareExchange(exchange).ok());
        const Status s = m_admin->declareQueue(queue, exchange, bindingKey);
        QVERIFY2(s.ok(), qPrintable(s.message()));
    }

private slots:
    void initTestCase()
    {
        if (!amqpAvailable() || !TestDatabases::available(Kind))
            QSKIP("needs the rabbitmq and postgres fixtures (OUTBOX_TEST_AMQP, OUTBOX_TEST_PG)");
        auto admin = AmqpAdmin::connect(testAmqpOptions());
        QVERIFY2(admin.ok(), qPrintable(admin.message()));
        m_admin = std::move(admin).value();
    }

    void brokerUrls()
    {
        // The registry picks the broker by the URL's scheme; each broker reads the rest.
        auto kafka = BrokerRegistry::fromUrl(QStringLiteral("kafka://a:9092,b:9093"));
        QVERIFY(kafka.ok());
        QCOMPARE((*kafka)->scheme(), QStringLiteral("kafka"));
        QCOMPARE((*kafka)->address(), QStringLiteral("a:9092,b:9093"));
        auto rabbit = BrokerRegistry::fromUrl(QStringLiteral("amqps://relay@mq.example/orders%2fv1"));
        QVERIFY(rabbit.ok());
        QCOMPARE((*rabbit)->scheme(), QStringLiteral("amqp"));
        QCOMPARE((*rabbit)->address(), QStringLiteral("mq.example:5671 vhost orders/v1"));
        auto amqp = AmqpUrl::parse(QStringLiteral("amqps://relay:s3cret@mq.example:5671/orders%2fv1"));
        QVERIFY(amqp.ok());
        QVERIFY(amqp->tls);
        QCOMPARE(amqp->user, QStringLiteral("relay"));
        QCOMPARE(amqp->password, QStringLiteral("s3cret"));
        QCOMPARE(amqp->vhost, QStringLiteral("orders/v1"));
        QVERIFY(!amqp->redacted().contains(QLatin1String("s3cret")));
        auto plain = AmqpUrl::parse(QStringLiteral("amqp://mq"));
        QVERIFY(plain.ok());
        QCOMPARE(plain->port, 5672);
        QCOMPARE(plain->vhost, QStringLiteral("/"));
        QCOMPARE(plain->user, QStringLiteral("guest"));
        for (const char* bad : {"", "localhost:9092", "nats://x:4222", "kafka://", "kafka://host", "amqp://",
                                "amqp://h:99999/", "amqp://h/a/b"}) {
            auto r = BrokerRegistry::fromUrl(QString::fromLatin1(bad));
            QVERIFY2(!r.ok(), bad);
            QCOMPARE(r.error().kind, ErrorKind::Usage);
        }
        // Unreachable: one sentence naming where, and the relay degrades instead of sending.
        AmqpOptions nowhere = testAmqpOptions();
        nowhere.url.port = 1;
        auto p = AmqpPublisher::create(nowhere);
        QVERIFY(p.ok());
        QVERIFY((*p)->connectionDown());
        const Status probe = (*p)->probe(1000);
        QVERIFY(!probe.ok());
        QVERIFY2(probe.message().contains(QLatin1String("RabbitMQ unreachable at 127.0.0.1:1")),
                 qPrintable(probe.message()));
        // Refused login: the broker's words and where to look.
        AmqpOptions wrong = testAmqpOptions();
        wrong.url.password = QStringLiteral("not-the-password");
        auto refused = AmqpAdmin::connect(wrong);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.message().contains(QLatin1String("ACCESS_REFUSED")), qPrintable(refused.message()));
    }

    // 20,000 events: exactly 20,000 messages, each message_id once, with the event's properties.
    void happyPath()
    {
        freshQueue(QStringLiteral("t-happy"), QStringLiteral("q-happy"), QStringLiteral("order"));
        auto db = TestDatabases::fresh(Kind, TestDatabases::uniqueName(QStringLiteral("amqp_happy")));
        const int n = 20000;
        insertEvents(*db, n);
        RelayThread relay(db->url(),
                          amqpRelayOptions(QStringLiteral("t-happy"), QStringLiteral("amqp-happy")));
        QElapsedTimer t;
        t.start();
        relay.start();
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(n), 120000);
        const qint64 ms = t.elapsed();
        relay.stop();
        QVERIFY2(relay.startError().isEmpty(), qPrintable(relay.startError()));
        qInfo("relay drained %d events to RabbitMQ in %lld ms", n, ms);
        auto count = m_admin->messageCount(QStringLiteral("q-happy"));
        QVERIFY2(count.ok(), qPrintable(count.message()));
        QCOMPARE(*count, qint64(n));
        const QVector<AmqpReadMessage> read = readQueue(QStringLiteral("q-happy"), n);
        QCOMPARE(read.size(), n);
        QSet<QString> seen;
        for (const AmqpReadMessage& m : read)
            seen.insert(m.messageId);
        QCOMPARE(seen.size(), n);
        QCOMPARE(seen, allEventIds(*db));
        const AmqpReadMessage& first = read.first();
        QCOMPARE(first.routingKey, QStringLiteral("order"));
        QCOMPARE(first.exchange, QStringLiteral("t-happy"));
        QCOMPARE(first.contentType, QStringLiteral("application/json"));
        QCOMPARE(first.deliveryMode, 2);
        QCOMPARE(first.type, QStringLiteral("OrderCreated"));
        QCOMPARE(QString::fromUtf8(first.headers.value("event_id")), first.messageId);
        QVERIFY(first.headers.value("trace_id").startsWith("t-"));
        QVERIFY(first.timestamp > 1600000000);
        QVERIFY2(first.body.contains("\"order_id\": \"order-"), first.body.constData()); // jsonb's spelling
        QCOMPARE(relay.stats().failed.load(), qint64(0));
    }

    // mandatory: a routing key no queue is bound for comes back (basic.return) and FAILS its events
    // with the broker's text; the others in the same batches are SENT.
    void noRouteFailsOnlyThoseEvents()
    {
        freshQueue(QStringLiteral("t-route"), QStringLiteral("q-route"), QStringLiteral("order"));
        auto db = TestDatabases::fresh(Kind, TestDatabases::uniqueName(QStringLiteral("amqp_route")));
        const QSet<QString> orders = insertTyped(*db, 300, QStringLiteral("Order"));
        const QSet<QString> payments = insertTyped(*db, 200, QStringLiteral("Payment"));
        RelayThread relay(db->url(),
                          amqpRelayOptions(QStringLiteral("t-route"), QStringLiteral("amqp-route")));
        relay.start();
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status IN ('SENT', 'FAILED')")),
            qint64(500), 30000);
        relay.stop();
        QCOMPARE(
            countRows(*db, QStringLiteral("{events}"),
                      QStringLiteral("status = 'FAILED' AND aggregate_type = 'Payment' AND last_error LIKE "
                                     "'%NO_ROUTE%' AND last_error LIKE '%routing key \"payment\"%'")),
            qint64(200));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"),
                           QStringLiteral("status = 'SENT' AND aggregate_type = 'Order'")),
                 qint64(300));
        const QVector<AmqpReadMessage> read = readQueue(QStringLiteral("q-route"), 300);
        QSet<QString> seen;
        for (const AmqpReadMessage& m : read)
            seen.insert(m.messageId);
        QCOMPARE(seen, orders);
        QVERIFY(!payments.intersects(seen));

        // The doctor knows RabbitMQ's NO_ROUTE (issue 36 M2): its own cause and runbook steps (bind a
        // queue), and a title cut at a word, never inside one.
        DiagnosisOptions options;
        options.onlyChecks = {QStringLiteral("failed-events")};
        auto report = Doctor(*db, options).run();
        QVERIFY2(report.ok(), qPrintable(report.message()));
        const QVector<Finding> failed = report->withId(QStringLiteral("failed-events"));
        QCOMPARE(failed.size(), 1);
        const Finding& f = failed.first();
        QCOMPARE(f.evidence.details.value(QStringLiteral("cause")).toString(), QStringLiteral("no-route"));
        QVERIFY2(f.runbook.join(QLatin1Char(' ')).contains(QLatin1String("declare binding source=")),
                 qPrintable(f.runbook.join(QLatin1Char('\n'))));
        QVERIFY2(!f.causes.join(QLatin1Char(' ')).contains(QLatin1String("does not recognise")),
                 qPrintable(f.causes.join(QLatin1Char('\n'))));
        QVERIFY2(f.title.startsWith(QLatin1String("200 FAILED event(s): NO_ROUTE")), qPrintable(f.title));
        // The title (the group's text cut at 100 characters) names the routing key (issue 36, low).
        QVERIFY2(f.title.contains(QLatin1String("routing key \"payment\"")), qPrintable(f.title));
        if (f.title.endsWith(QChar(0x2026))) {
            // The word before the ellipsis is whole: it is a word of the error text as it came.
            const QString head = f.title.chopped(1);
            const QString lastWord = head.section(QLatin1Char(' '), -1);
            const QString fingerprint = f.evidence.details.value(QStringLiteral("fingerprint")).toString();
            QVERIFY2(fingerprint.split(QLatin1Char(' ')).contains(lastWord) ||
                         fingerprint.split(QLatin1Char(' ')).contains(lastWord + QLatin1Char(':')),
                     qPrintable(f.title));
        }
    }

    // Issue 36 H1: a fleet member on RabbitMQ, watched by a server whose own configuration names a
    // Kafka broker. `doctor --fleet` prepares the no-relay finding's "Start a relay" with the member's
    // broker (its fleet file's broker key), never the server's Kafka; run as printed, from a shell,
    // that relay publishes the member's events to RabbitMQ and marks them SENT.
    void fleetMemberPreparedRelayPublishesToRabbitMq()
    {
        freshQueue(QStringLiteral("t-fleet"), QStringLiteral("q-fleet"), QStringLiteral("#"));
        auto db = TestDatabases::fresh(Kind, TestDatabases::uniqueName(QStringLiteral("amqp_fleet")));
        const QSet<QString> ids = insertTyped(*db, 50, QStringLiteral("Order"));
        QTemporaryDir dir;
        DatabaseUrl url = db->url();
        const QString password = url.password;
        url.password.clear();
        const QString fleetFile = dir.filePath(QStringLiteral("fleet.ini"));
        QFile f(fleetFile);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[fleet]\ntimeout = 20s\n[member payments]\nurl = " + url.redacted().toUtf8() +
                "\ntags = team=payments\nbroker = " + testAmqpUrl().toUtf8() + "\n");
        f.close();
        OutboxctlOptions o;
        o.withoutOutboxEnvironment = true;
        o.extraEnv.insert(QStringLiteral("OUTBOX_DB_PASSWORD_PAYMENTS"), password);
        o.extraEnv.insert(QStringLiteral("OUTBOX_KAFKA_BOOTSTRAP"),
                          QStringLiteral("127.0.0.1:9")); // the server's
        o.extraEnv.insert(QStringLiteral("OUTBOX_AMQP_EXCHANGE"), QStringLiteral("t-fleet"));
        const OutboxctlRun doctor = runOutboxctl(
            {QStringLiteral("doctor"), QStringLiteral("--fleet"), fleetFile, QStringLiteral("--json")}, o);
        QVERIFY2(doctor.exitCode == 3, doctor.err.constData());
        QString command;
        for (const QJsonValue& v : doctor.json().value(QStringLiteral("findings")).toArray()) {
            const QJsonObject finding = v.toObject();
            if (finding.value(QStringLiteral("id")).toString() != QLatin1String("no-relay"))
                continue;
            QCOMPARE(finding.value(QStringLiteral("member")).toString(), QStringLiteral("payments"));
            for (const QJsonValue& a : finding.value(QStringLiteral("actions")).toArray())
                if (a.toObject().contains(QStringLiteral("relay")))
                    command = a.toObject().value(QStringLiteral("command")).toString();
        }
        QVERIFY2(command.contains(QStringLiteral("--broker=amqp://guest@")), qPrintable(command));
        QVERIFY2(!command.contains(QStringLiteral("kafka")), qPrintable(command));
        QVERIFY2(command.contains(QStringLiteral("--member payments")), qPrintable(command));

        OutboxctlOptions run = o;
        run.stopAfterMs = 12000;
        const OutboxctlRun relay = runPrintedCommand(command, run);
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(50));
        const QVector<AmqpReadMessage> read = readQueue(QStringLiteral("q-fleet"), 50);
        QSet<QString> seen;
        for (const AmqpReadMessage& m : read)
            seen.insert(m.messageId);
        QVERIFY2(seen == ids, relay.err.constData());
    }

    // A routing key is an AMQP short string, at most 255 bytes: the relay refuses a longer one itself
    // (FAILED at the first attempt, with a sentence saying so) and the other events go on (issue 37
    // item 5). 130 characters of 2 bytes each: a topic the table and EventWriter take.
    void overlongRoutingKeyFailsBeforeSending()
    {
        freshQueue(QStringLiteral("t-key"), QStringLiteral("q-key"), QStringLiteral("order"));
        auto db = TestDatabases::fresh(Kind, TestDatabases::uniqueName(QStringLiteral("amqp_key")));
        const QSet<QString> orders = insertTyped(*db, 5, QStringLiteral("Order"));
        QVERIFY(db->exec(QStringLiteral(
                             "UPDATE {events} SET topic = :t WHERE id = (SELECT MIN(id) FROM {events})"),
                         {{QStringLiteral(":t"), QString(130, QChar(0xE9))}})
                    .ok());
        RelayThread relay(db->url(), amqpRelayOptions(QStringLiteral("t-key"), QStringLiteral("amqp-key")));
        relay.start();
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status IN ('SENT', 'FAILED')")),
            qint64(5), 30000);
        relay.stop();
        QCOMPARE(countRows(*db, QStringLiteral("{events}"),
                           QStringLiteral(
                               "status = 'FAILED' AND attempts = 1 AND last_error_class = 'deterministic' "
                               "AND last_error LIKE '%is 260 bytes long: AMQP allows at most 255'")),
                 qint64(1));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(4));
        QCOMPARE(readQueue(QStringLiteral("q-key"), 4).size(), 4);
    }

    // An exchange deleted while the relay runs: its events fail (404, deterministic), the channel is
    // reopened and the events for the other exchange keep going.
    void exchangeDeletedMidRun()
    {
        freshQueue(QStringLiteral("t-del-order"), QStringLiteral("q-del-order"), QStringLiteral("#"));
        freshQueue(QStringLiteral("t-del-payment"), QStringLiteral("q-del-payment"), QStringLiteral("#"));
        auto db = TestDatabases::fresh(Kind, TestDatabases::uniqueName(QStringLiteral("amqp_del")));
        RelayThread relay(db->url(), amqpRelayOptions(QStringLiteral("t-del-{aggregate_type}"),
                                                      QStringLiteral("amqp-del")));
        relay.start();
        insertTyped(*db, 100, QStringLiteral("Order"));
        insertTyped(*db, 100, QStringLiteral("Payment"));
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(200),
            30000);
        QVERIFY(m_admin->deleteExchange(QStringLiteral("t-del-payment")).ok());
        // Mixed in the same batches: payments first, then orders.
        insertTyped(*db, 150, QStringLiteral("Payment"));
        insertTyped(*db, 150, QStringLiteral("Order"));
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status IN ('SENT', 'FAILED')")),
            qint64(500), 30000);
        QCOMPARE(countRows(*db, QStringLiteral("{events}"),
                           QStringLiteral("status = 'FAILED' AND aggregate_type = 'Payment' AND "
                                          "last_error LIKE '%NOT_FOUND%t-del-payment%'")),
                 qint64(150));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"),
                           QStringLiteral("status = 'SENT' AND aggregate_type = 'Order'")),
                 qint64(250));
        // Later events for the other exchange still go.
        insertTyped(*db, 50, QStringLiteral("Order"));
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(400),
            30000);
        relay.stop();
        QSet<QString> ids;
        for (const AmqpReadMessage& m : readQueue(QStringLiteral("q-del-order"), 300))
            ids.insert(m.messageId);
        QCOMPARE(ids.size(), 300);
    }

    // A memory alarm blocks the connection: the relay is DEGRADED and says why, sends on once the
    // alarm clears, and nothing is lost.
    void memoryAlarmDegradesThenResumes()
    {
        freshQueue(QStringLiteral("t-alarm"), QStringLiteral("q-alarm"), QStringLiteral("order"));
        auto db = TestDatabases::fresh(Kind, TestDatabases::uniqueName(QStringLiteral("amqp_alarm")));
        RelayThread relay(db->url(),
                          amqpRelayOptions(QStringLiteral("t-alarm"), QStringLiteral("amqp-alarm")));
        relay.start();
        insertEvents(*db, 100, QStringLiteral("OrderCreated"), QStringLiteral("before-"));
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(100),
            30000);
        Status alarm =
            rabbitmqctl({QStringLiteral("set_vm_memory_high_watermark"), QStringLiteral("0.0000001")});
        QVERIFY2(alarm.ok(), qPrintable(alarm.message()));
        insertEvents(*db, 400, QStringLiteral("OrderCreated"), QStringLiteral("during-"));
        QTRY_VERIFY_WITH_TIMEOUT(relayRow(*db).state == QLatin1String("DEGRADED"), 30000);
        const RelayRecord degraded = relayRow(*db);
        QVERIFY2(degraded.lastError.contains(QLatin1String("blocked by RabbitMQ")) &&
                     degraded.lastError.contains(QLatin1String("memory")),
                 qPrintable(degraded.lastError));
        // The doctor, as an operator runs it, speaks of RabbitMQ's alarm and what to do about it.
        const OutboxctlRun doctor = runOutboxctl({QStringLiteral("doctor"), QStringLiteral("--json"),
                                                  QStringLiteral("--db"), TestDatabases::urlText(db->url())});
        QJsonObject degradedFinding;
        for (const QJsonValue& f : doctor.json().value(QStringLiteral("findings")).toArray())
            if (f.toObject().value(QStringLiteral("id")).toString() == QLatin1String("relay-degraded"))
                degradedFinding = f.toObject();
        const QString causes = QString::fromUtf8(
            QJsonDocument(degradedFinding.value(QStringLiteral("causes")).toArray()).toJson());
        const QString runbook = QString::fromUtf8(
            QJsonDocument(degradedFinding.value(QStringLiteral("runbook")).toArray()).toJson());
        QVERIFY2(causes.contains(QLatin1String("RabbitMQ hit its memory or disk alarm")),
                 doctor.out.constData());
        QVERIFY2(runbook.contains(QLatin1String("rabbitmq-diagnostics alarms")), qPrintable(runbook));
        QVERIFY2(!causes.contains(QLatin1String("cannot reach any broker")),
                 qPrintable(causes)); // not Kafka's
        Status lifted = rabbitmqctl({QStringLiteral("set_vm_memory_high_watermark"), QStringLiteral("0.4")});
        QVERIFY2(lifted.ok(), qPrintable(lifted.message()));
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(500),
            60000);
        QTRY_VERIFY_WITH_TIMEOUT(relayRow(*db).state != QLatin1String("DEGRADED"), 10000);
        relay.stop();
        QSet<QString> seen;
        for (const AmqpReadMessage& m : readQueue(QStringLiteral("q-alarm"), 100000))
            seen.insert(m.messageId);
        QCOMPARE(seen, allEventIds(*db)); // duplicates possible (same message_id), losses not
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status IN ('FAILED', 'DEAD')")),
                 qint64(0));
    }

    // The real `outboxctl relay` killed (SIGKILL) mid-drain: a second one finishes after the leases
    // expire; every event is in the queue, some twice (same message_id), none missing.
    void relayKilledMidDrain()
    {
        freshQueue(QStringLiteral("t-kill"), QStringLiteral("q-kill"), QStringLiteral("order"));
        auto db = TestDatabases::fresh(Kind, TestDatabases::uniqueName(QStringLiteral("amqp_kill")));
        const int n = 20000;
        insertEvents(*db, n);
        qputenv("OUTBOX_AMQP_CONFIRM_TIMEOUT_MS", "3000"); // so a 6 s lease is allowed
        const QStringList args{QStringLiteral("relay"),
                               QStringLiteral("--db"),
                               TestDatabases::urlText(db->url()),
                               QStringLiteral("--broker"),
                               testAmqpUrl(),
                               QStringLiteral("--exchange"),
                               QStringLiteral("t-kill"),
                               QStringLiteral("--lease-ms"),
                               QStringLiteral("6000"),
                               QStringLiteral("--batch-size"),
                               QStringLiteral("200")};
        auto first = startOutboxctl(args);
        QTRY_VERIFY_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")) >= 2000, 60000);
        first->kill(); // SIGKILL: leases and unconfirmed publishes left behind
        QVERIFY(first->waitForFinished(10000));
        const qint64 sentAtKill =
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'"));
        QVERIFY2(sentAtKill < n, "the drain ended before the kill");
        auto second = startOutboxctl(args);
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(n), 120000);
        const int code = terminateAndWait(*second);
        const QString log = QString::fromUtf8(second->readAll());
        QVERIFY2(code == 0, qPrintable(log.right(1500)));
        QVERIFY2(log.contains(QLatin1String("-> RabbitMQ 127.0.0.1:")), qPrintable(log.left(600)));
        // The relays registered the broker they publish to, without credentials (issue 28).
        auto relays = RelayStore(*db).list();
        QVERIFY(relays.ok() && !relays->isEmpty()); // those still registered
        for (const RelayRecord& r : *relays) {
            QCOMPARE(r.brokerKind, QStringLiteral("amqp"));
            QVERIFY2(r.brokerAddress.contains(qEnvironmentVariable("OUTBOX_TEST_AMQP")),
                     qPrintable(r.brokerAddress));
            QVERIFY2(!r.brokerAddress.contains(QLatin1String("guest")), qPrintable(r.brokerAddress));
        }
        qunsetenv("OUTBOX_AMQP_CONFIRM_TIMEOUT_MS");
        const QVector<AmqpReadMessage> read = readQueue(QStringLiteral("q-kill"), 2 * n, 2000);
        QSet<QString> seen;
        for (const AmqpReadMessage& m : read)
            seen.insert(m.messageId);
        QCOMPARE(seen, allEventIds(*db));
        qInfo("after the kill: %d messages for %d events (%d duplicates, same message_id)", int(read.size()),
              n, int(read.size()) - n);
    }

    // Choosing the broker on the command line: one clear error for a bad URL, an unknown scheme, a
    // password in argv or an unreachable broker; the exchange declared only when asked; no password
    // in `config show`.
    void brokerOnTheCommandLine()
    {
        auto db = TestDatabases::fresh(Kind, TestDatabases::uniqueName(QStringLiteral("amqp_cli")));
        const QString url = TestDatabases::urlText(db->url());
        (void)m_admin->deleteExchange(QStringLiteral("t-declared"));
        OutboxctlRun plain =
            runOutboxctl({QStringLiteral("migrate"), QStringLiteral("--db"), url, QStringLiteral("--broker"),
                          testAmqpUrl(), QStringLiteral("--exchange"), QStringLiteral("t-declared")});
        QCOMPARE(plain.exitCode, 0);
        QCOMPARE(*m_admin->exchangeExists(QStringLiteral("t-declared")), false); // not asked
        OutboxctlRun declared =
            runOutboxctl({QStringLiteral("migrate"), QStringLiteral("--db"), url, QStringLiteral("--broker"),
                          testAmqpUrl(), QStringLiteral("--exchange"), QStringLiteral("t-declared"),
                          QStringLiteral("--declare-exchange")});
        QVERIFY2(declared.exitCode == 0, declared.err.constData());
        QVERIFY2(
            declared.out.contains("declared exchange \"t-declared\" (topic, durable) on RabbitMQ 127.0.0.1:"),
            declared.out.constData());
        QCOMPARE(*m_admin->exchangeExists(QStringLiteral("t-declared")), true);

        const QString withPassword =
            testAmqpUrl().replace(QLatin1String("guest@"), QLatin1String("guest:s3cret@"));
        OutboxctlRun argvPassword =
            runOutboxctl({QStringLiteral("migrate"), QStringLiteral("--db"), url, QStringLiteral("--broker"),
                          withPassword, QStringLiteral("--declare-exchange")});
        QCOMPARE(argvPassword.exitCode, 2);
        QVERIFY2(argvPassword.err.contains("OUTBOX_BROKER_PASSWORD"), argvPassword.err.constData());
        QVERIFY(!argvPassword.err.contains("s3cret"));
        OutboxctlRun scheme =
            runOutboxctl({QStringLiteral("migrate"), QStringLiteral("--db"), url, QStringLiteral("--broker"),
                          QStringLiteral("nats://127.0.0.1:4222"), QStringLiteral("--declare-exchange")});
        QCOMPARE(scheme.exitCode, 2);
        QVERIFY2(scheme.err.contains("unknown scheme \"nats\""), scheme.err.constData());
        OutboxctlRun down = runOutboxctl(
            {QStringLiteral("migrate"), QStringLiteral("--db"), url, QStringLiteral("--broker"),
             QStringLiteral("amqp://guest@127.0.0.1:1/%2f"), QStringLiteral("--declare-exchange")});
        QCOMPARE(down.exitCode, 1);
        QVERIFY2(down.err.contains("RabbitMQ unreachable at 127.0.0.1:1"), down.err.constData());

        QProcessEnvironment env;
        env.insert(QStringLiteral("OUTBOX_BROKER_URL"), withPassword);
        env.insert(QStringLiteral("OUTBOX_BROKER_PASSWORD"), QStringLiteral("other-secret"));
        OutboxctlRun shown = runOutboxctl({QStringLiteral("config"), QStringLiteral("show")}, env);
        QCOMPARE(shown.exitCode, 0);
        QVERIFY2(shown.out.contains("url = amqp://guest:***@127.0.0.1:"), shown.out.constData());
        QVERIFY(!shown.out.contains("s3cret"));
        QVERIFY(!shown.out.contains("other-secret"));
    }

    // stop_app while the relay drains: DEGRADED, then RUNNING once start_app is done; nothing lost.
    void brokerRestartMidDrain()
    {
        freshQueue(QStringLiteral("t-restart"), QStringLiteral("q-restart"), QStringLiteral("order"));
        auto db = TestDatabases::fresh(Kind, TestDatabases::uniqueName(QStringLiteral("amqp_restart")));
        const int n = 20000;
        insertEvents(*db, n);
        RelayOptions options = amqpRelayOptions(QStringLiteral("t-restart"), QStringLiteral("amqp-restart"));
        options.batchSize = 100; // a slower drain, so the restart lands in the middle of it
        RelayThread relay(db->url(), options);
        relay.start();
        QTRY_VERIFY_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")) >= 500, 60000);
        QVERIFY(rabbitmqctl({QStringLiteral("stop_app")}).ok());
        // A failure below must not leave the node stopped for the RabbitMQ tests after this one.
        bool started = false;
        const auto restart = qScopeGuard([&] {
            if (!started)
                (void)rabbitmqctl({QStringLiteral("start_app")});
        });
        // rabbitmqctl and the relay's heartbeat are slow on a busy machine (load 14: over 30 s).
        QTRY_VERIFY_WITH_TIMEOUT(relayRow(*db).state == QLatin1String("DEGRADED"), 60000);
        const qint64 sentWhileDown =
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'"));
        QVERIFY2(sentWhileDown < n, "the drain ended before the broker stopped");
        started = rabbitmqctl({QStringLiteral("start_app")}).ok();
        QVERIFY(started);
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(n), 180000);
        QTRY_VERIFY_WITH_TIMEOUT(relayRow(*db).state != QLatin1String("DEGRADED"), 10000);
        relay.stop();
        QSet<QString> seen;
        for (const AmqpReadMessage& m : readQueue(QStringLiteral("q-restart"), 2 * n))
            seen.insert(m.messageId);
        QCOMPARE(seen.size(), n);
        QCOMPARE(seen, allEventIds(*db));
    }
};

QTEST_GUILESS_MAIN(TestAmqpRelay)
#include "tst_amqprelay.moc"
