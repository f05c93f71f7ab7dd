// The real `outboxctl relay` against brokers that misbehave (issue 38 items 1 and 2, issue 36 H2): a
// fake AMQP broker of the test's own (tests/support/FakeAmqpBroker) that trickles Connection.Start at
// one byte a second, stalls after the handshake, floods heartbeat frames, or resets the connection
// after N publishes; and the real RabbitMQ of the CTest fixture stopped for a while. Whatever the
// broker does: the relay's heartbeat stays fresh, expired leases are reaped, the registry says
// DEGRADED with the reason, SIGTERM ends the relay within its drain time (the lease), no event goes
// DEAD from a connection lost or a publish unanswered, and the doctor says relay-degraded, never
// no-relay or relay-stale.
#include "core/broker/amqp/AmqpAdmin.h"
#include "core/db/RelayStore.h"
#include "tests/support/AmqpTestKit.h"
#include "tests/support/FakeAmqpBroker.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QScopeGuard>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

namespace {

const QString Kind = QStringLiteral("postgresql");
constexpr int LeaseMs = 6000;         // the relay's drain time; above the confirm deadline (2 s + 2 s)
constexpr qint64 StaleAfterMs = 6000; // the doctor's default: 3 heartbeats of 2 s
constexpr int MaxAttempts = 2;        // so that attempts spent by connection loss would show at once

QStringList relayArguments(const Database& db, const QString& brokerUrl, const QString& worker)
{
    return {QStringLiteral("relay"),
            QStringLiteral("--db"),
            TestDatabases::urlText(db.url()),
            QStringLiteral("--broker"),
            brokerUrl,
            QStringLiteral("--exchange"),
            QStringLiteral("faults"),
            QStringLiteral("--lease-ms"),
            QString::number(LeaseMs),
            QStringLiteral("--max-attempts"),
            QString::number(MaxAttempts),
            QStringLiteral("--batch-size"),
            QStringLiteral("100"),
            QStringLiteral("--worker-id"),
            worker};
}

std::unique_ptr<QProcess> startRelay(const Database& db, const QString& brokerUrl, const QString& worker,
                                     const QStringList& extra = {})
{
    OutboxctlStart start;
    start.extraEnv.insert(QStringLiteral("OUTBOX_AMQP_CONFIRM_TIMEOUT_MS"), QStringLiteral("2000"));
    return startOutboxctl(relayArguments(db, brokerUrl, worker) + extra, start);
}

std::optional<RelayRecord> relayRow(Database& db, const QString& worker)
{
    auto relays = RelayStore(db).list();
    if (!relays)
        return std::nullopt;
    for (const RelayRecord& r : *relays)
        if (r.workerId == worker)
            return r;
    return std::nullopt;
}

// SENDING rows of a relay that died: their lease expired a second ago.
void leaveExpiredLeases(Database& db, const QVector<qint64>& ids)
{
    QStringList list;
    for (qint64 id : ids)
        list << QString::number(id);
    exec(db, QStringLiteral("UPDATE {events} SET status = 'SENDING', worker_id = 'died-earlier', "
                            "lease_token = 'gone', attempts = 1, lease_until = now() - interval '1 second' "
                            "WHERE id IN (%1)")
                 .arg(list.join(QLatin1Char(','))));
}

// SIGTERM, and how long the relay took to end (the test's event loop runs meanwhile: the fake broker
// keeps misbehaving); -1 when it did not end within `limitMs`.
qint64 terminateTimed(QProcess& relay, qint64 limitMs)
{
    QElapsedTimer t;
    t.start();
    relay.terminate();
    while (relay.state() != QProcess::NotRunning && t.elapsed() < limitMs)
        QTest::qWait(50);
    if (relay.state() != QProcess::NotRunning) {
        relay.kill();
        relay.waitForFinished(5000);
        return -1;
    }
    return t.elapsed();
}

// Doctor findings by id, as an operator runs it.
QHash<QString, QJsonObject> doctorFindings(Database& db)
{
    const OutboxctlRun doctor = runOutboxctl({QStringLiteral("doctor"), QStringLiteral("--json"),
                                              QStringLiteral("--db"), TestDatabases::urlText(db.url())});
    QHash<QString, QJsonObject> byId;
    for (const QJsonValue& f : doctor.json().value(QStringLiteral("findings")).toArray())
        byId.insert(f.toObject().value(QStringLiteral("id")).toString(), f.toObject());
    return byId;
}

} // namespace

class TestRelayBrokerFaults : public QObject
{
    Q_OBJECT

    // While `broker` misbehaves for `forMs`: the relay's row stays fresh (sampled every 250 ms), the
    // expired leases left by a dead relay are reaped, the row says DEGRADED with a reason; then
    // SIGTERM ends it within the lease.
    void aliveWhileBrokerMisbehaves(FakeAmqpBroker& broker, const QString& name, qint64 forMs,
                                    bool bigPayloads = false)
    {
        auto db = TestDatabases::fresh(Kind, TestDatabases::uniqueName(name));
        const QVector<qint64> ids = insertEvents(*db, 600);
        if (bigPayloads) // 64 KiB each: more than the sockets' buffers hold, so publishing blocks
            exec(*db, QStringLiteral(
                          "UPDATE {events} SET payload = jsonb_build_object('pad', repeat('x', 65536))"));
        leaveExpiredLeases(*db, ids.mid(0, 100));
        auto relay = startRelay(*db, broker.url(), name);
        QTRY_VERIFY_WITH_TIMEOUT(relayRow(*db, name).has_value(), 15000);
        QElapsedTimer watched;
        watched.start();
        qint64 oldestHeartbeat = 0;
        QString degradedWhy;
        while (watched.elapsed() < forMs) {
            QTest::qWait(250);
            const auto row = relayRow(*db, name);
            if (!row) {
                QTest::qFail("the relay's registry row is gone", __FILE__, __LINE__);
                break;
            }
            oldestHeartbeat = std::max(oldestHeartbeat, row->heartbeatAgeMs);
            if (row->state == QLatin1String("DEGRADED"))
                degradedWhy = row->lastError;
        }
        const QString early = QString::fromUtf8(relay->readAll());
        QVERIFY2(oldestHeartbeat < StaleAfterMs,
                 qPrintable(
                     QStringLiteral("heartbeat %1 ms old: %2").arg(oldestHeartbeat).arg(early.right(1500))));
        QVERIFY2(!degradedWhy.isEmpty(), qPrintable(early.right(1500)));
        // The dead relay's expired leases went back to PENDING (or further), though this relay's loop
        // waits on the broker.
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("worker_id = 'died-earlier'")),
                 qint64(0));
        // The doctor: alive but cannot publish (asked until it says so: between two tries the relay
        // may be RUNNING for a moment); never "no relay" nor "stale", nothing that forgets it.
        bool degradedFound = false;
        QStringList seen;
        for (int round = 0; round < 8 && !degradedFound; ++round) {
            if (round > 0)
                QTest::qWait(1500);
            const auto findings = doctorFindings(*db);
            seen << findings.keys();
            QVERIFY2(!findings.contains(QStringLiteral("no-relay")), qPrintable(early.right(1500)));
            QVERIFY2(!findings.contains(QStringLiteral("relay-stale")), qPrintable(early.right(1500)));
            if (findings.contains(QStringLiteral("relay-degraded"))) {
                degradedFound = true;
                const QJsonObject degraded = findings.value(QStringLiteral("relay-degraded"));
                const QByteArray finding = QJsonDocument(degraded).toJson();
                const QByteArray actions =
                    QJsonDocument(degraded.value(QStringLiteral("actions")).toArray()).toJson();
                QVERIFY2(!actions.contains("forget") && !actions.contains("start"), finding.constData());
                QVERIFY2(finding.contains("do not start another relay"), finding.constData());
            }
        }
        QVERIFY2(degradedFound, qPrintable(seen.join(u' ')));
        const qint64 tookMs = terminateTimed(*relay, LeaseMs + 4000);
        const QString log = early + QString::fromUtf8(relay->readAll());
        QVERIFY2(
            tookMs >= 0,
            qPrintable(
                QStringLiteral("SIGTERM ignored for %1 ms: %2").arg(LeaseMs + 4000).arg(log.right(2000))));
        qInfo("%s: heartbeat at most %lld ms old, DEGRADED (%s), stopped %lld ms after SIGTERM",
              qPrintable(name), oldestHeartbeat, qPrintable(degradedWhy.left(160)), tookMs);
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status IN ('DEAD', 'FAILED')")),
                 qint64(0));
    }

private slots:
    void initTestCase()
    {
        if (!TestDatabases::available(Kind))
            QSKIP("needs the postgres fixture (OUTBOX_TEST_PG)");
        if (amqpAvailable()) { // the real broker's exchange and a queue bound to it (mandatory publishes)
            auto admin = AmqpAdmin::connect(testAmqpOptions());
            QVERIFY2(admin.ok(), qPrintable(admin.message()));
            QVERIFY((*admin)->declareExchange(QStringLiteral("faults")).ok());
            (void)(*admin)->deleteQueue(QStringLiteral("q-faults"));
            QVERIFY(
                (*admin)
                    ->declareQueue(QStringLiteral("q-faults"), QStringLiteral("faults"), QStringLiteral("#"))
                    .ok());
        }
    }

    // Connection.Start at one byte a second: the handshake's deadline ends each try.
    void trickledHandshake()
    {
        FakeAmqpBroker broker(FakeAmqpBroker::Behaviour::Trickle);
        aliveWhileBrokerMisbehaves(broker, QStringLiteral("trickle"), 14000);
        QVERIFY2(broker.connections() >= 2,
                 "the relay gave up on the first connection and never tried again");
    }

    // The broker reads nothing after the handshake: publishes block on a full socket.
    void stalledAfterHandshake()
    {
        FakeAmqpBroker broker(FakeAmqpBroker::Behaviour::Stall);
        aliveWhileBrokerMisbehaves(broker, QStringLiteral("stall"), 12000, true);
    }

    // Heartbeat frames without pause: reading them never ends by itself.
    void floodedWithFrames()
    {
        FakeAmqpBroker broker(FakeAmqpBroker::Behaviour::Flood);
        aliveWhileBrokerMisbehaves(broker, QStringLiteral("flood"), 12000);
    }

    // The relay against `broker` until all `n` events are done: every one SENT, none DEAD or FAILED
    // with max_attempts 2, and no attempt counted for what the broker did (an attempt is spent only
    // by a deterministic refusal). Returns the relay's log.
    void everyEventSentOnce(FakeAmqpBroker& broker, const QString& name, int n, QString* log = nullptr)
    {
        auto db = TestDatabases::fresh(Kind, TestDatabases::uniqueName(name));
        insertEvents(*db, n);
        auto relay = startRelay(*db, broker.url(), name);
        QElapsedTimer draining;
        draining.start();
        qint64 done = 0;
        while ((done = countRows(*db, QStringLiteral("{events}"),
                                 QStringLiteral("status IN ('SENT', 'DEAD', 'FAILED')"))) < n &&
               draining.elapsed() < 60000)
            QTest::qWait(250);
        const qint64 tookMs = terminateTimed(*relay, LeaseMs + 4000);
        const QString output = QString::fromUtf8(relay->readAll());
        if (log)
            *log = output;
        QVERIFY2(done == n, qPrintable(QStringLiteral("%1 of %2 done, %3 resets, %4 nacks: %5")
                                           .arg(done)
                                           .arg(n)
                                           .arg(broker.resets())
                                           .arg(broker.nacked())
                                           .arg(output.right(3000))));
        QVERIFY2(tookMs >= 0, qPrintable(output.right(2000)));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(n));
        // An attempt is what the broker refused for good: a reset, a broken frame or a nack gave it back.
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("attempts > 1")), qint64(0));
        qInfo("%s: %d connections, %d resets, %d nacks, %d publishes for %d events in %lld ms",
              qPrintable(name), broker.connections(), broker.resets(), broker.nacked(), broker.publishes(), n,
              draining.elapsed());
    }

    // A connection reset after every 50 publishes: every event is delivered in the end, none DEAD
    // with max_attempts 2, and the attempts a reset cost are not counted.
    void resetAfterFiftyPublishes()
    {
        FakeAmqpBroker broker(FakeAmqpBroker::Behaviour::ResetAfter, 50);
        everyEventSentOnce(broker, QStringLiteral("reset"), 500);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(broker.resets() >= 5, qPrintable(QString::number(broker.resets())));
    }

    // After every 50 publishes the header of a 2 GiB frame: a connection error for the relay (the
    // review's 129 DEAD in 60 s), so every event goes out in the end and none goes DEAD.
    void hugeFrameAfterFiftyPublishes()
    {
        FakeAmqpBroker broker(FakeAmqpBroker::Behaviour::HugeFrameAfter, 50);
        everyEventSentOnce(broker, QStringLiteral("hugeframe"), 500);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(broker.resets() >= 5, qPrintable(QString::number(broker.resets())));
    }

    // basic.nack for every publish during 6 s (the review's 37 DEAD in 50 s): a nack is RabbitMQ's
    // internal error, not the event's, so it spends no attempt; the relay says DEGRADED while it
    // lasts, and every event is SENT once the broker acks again.
    void nackedForSixSeconds()
    {
        FakeAmqpBroker broker(FakeAmqpBroker::Behaviour::NackFor, 6000);
        QString log;
        everyEventSentOnce(broker, QStringLiteral("nack"), 500, &log);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(broker.nacked() >= 1000, qPrintable(QString::number(broker.nacked()))); // 2 per event
        QVERIFY2(log.contains(QStringLiteral("refuses every publish for longer than a heartbeat")),
                 qPrintable(log.right(3000)));
    }

    // The broker's deterministic refusal does spend the attempt: RabbitMQ's max_message_size closes
    // the channel (PRECONDITION_FAILED "message size … is larger than configured max size …"); the
    // event too large is FAILED at its first attempt, the others of the batch are published again
    // and SENT (the real RabbitMQ of the CTest fixture).
    void messageTooLargeForRabbitMqFailsAtOnce()
    {
        if (!amqpAvailable())
            QSKIP("needs the rabbitmq fixture (OUTBOX_TEST_AMQP)");
        const auto maxMessageSize = [](int bytes) {
            return rabbitmqctl(
                {QStringLiteral("eval"),
                 QStringLiteral("application:set_env(rabbit, max_message_size, %1).").arg(bytes)});
        };
        QVERIFY(maxMessageSize(4096).ok()); // channels opened from now on
        const auto restore = qScopeGuard([&] { (void)maxMessageSize(134217728); }); // RabbitMQ's default
        auto db = TestDatabases::fresh(Kind, TestDatabases::uniqueName(QStringLiteral("too_large")));
        const QVector<qint64> ids = insertEvents(*db, 40);
        exec(*db, QStringLiteral("UPDATE {events} SET payload = jsonb_build_object('pad', repeat('x', 8000)) "
                                 "WHERE id IN (%1, %2)")
                      .arg(ids.at(5))
                      .arg(ids.at(30)));
        auto relay = startRelay(*db, testAmqpUrl(), QStringLiteral("too-large"));
        QTRY_COMPARE_WITH_TIMEOUT(countRows(*db, QStringLiteral("{events}"),
                                            QStringLiteral("status IN ('SENT', 'FAILED', 'DEAD')")),
                                  qint64(40), 30000);
        const int stopped = terminateAndWait(*relay);
        const QString log = QString::fromUtf8(relay->readAll());
        QCOMPARE(stopped, 0);
        QVERIFY2(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")) == 38,
                 qPrintable(log.right(2000)));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"),
                           QStringLiteral("status = 'FAILED' AND attempts = 1 AND last_error_class = "
                                          "'deterministic' AND last_error LIKE '%larger than configured max "
                                          "size 4096%' AND id IN (%1, %2)")
                               .arg(ids.at(5))
                               .arg(ids.at(30))),
                 qint64(2));
    }

    // A relay whose clock is 10 minutes behind the database's (libfaketime): commit -> ack is still
    // the time the events waited, measured against the database's clock (issue 38 item 8), not 0 ms.
    void skewedClockLatencies()
    {
        if (!amqpAvailable())
            QSKIP("needs the rabbitmq fixture (OUTBOX_TEST_AMQP)");
        const QString faketime = QStringLiteral("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");
        if (!QFile::exists(faketime))
            QSKIP("needs Debian's faketime (installer/install-deps.sh)");
        auto db = TestDatabases::fresh(Kind, TestDatabases::uniqueName(QStringLiteral("skewed")));
        insertEvents(*db, 200);
        QTest::qWait(1500); // the events wait at least this long before any relay runs
        OutboxctlStart start;
        start.extraEnv.insert(QStringLiteral("OUTBOX_AMQP_CONFIRM_TIMEOUT_MS"), QStringLiteral("2000"));
        start.extraEnv.insert(QStringLiteral("LD_PRELOAD"), faketime);
        start.extraEnv.insert(QStringLiteral("FAKETIME"), QStringLiteral("-600"));
        start.extraEnv.insert(QStringLiteral("FAKETIME_DONT_FAKE_MONOTONIC"), QStringLiteral("1"));
        auto relay = startOutboxctl(relayArguments(*db, testAmqpUrl(), QStringLiteral("skewed")), start);
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(200),
            30000);
        QTRY_VERIFY_WITH_TIMEOUT(relayRow(*db, QStringLiteral("skewed")) &&
                                     relayRow(*db, QStringLiteral("skewed"))->latencyCount == 200,
                                 10000);
        const RelayRecord row = *relayRow(*db, QStringLiteral("skewed"));
        const qint64 meanMs = row.latencySumMs / row.latencyCount;
        QCOMPARE(terminateAndWait(*relay), 0);
        qInfo("relay clock 600 s behind: commit -> ack mean %lld ms over %lld events", meanMs,
              row.latencyCount);
        QVERIFY2(meanMs >= 1500 && meanMs < 60000, qPrintable(QString::number(meanMs)));
    }

    // The real RabbitMQ stopped for a while: the doctor says relay-degraded every time it is asked,
    // never no-relay or relay-stale, and prepares nothing that forgets the relay; once RabbitMQ is
    // back every event goes out. The outage lasts 30 s in CI; OUTBOX_TEST_MQ_OUTAGE_S makes it longer
    // (issue 36 asks for 2 minutes: run once with 120, the closing note has the figures).
    void rabbitmqStopped()
    {
        if (!amqpAvailable())
            QSKIP("needs the rabbitmq fixture (OUTBOX_TEST_AMQP)");
        auto db = TestDatabases::fresh(Kind, TestDatabases::uniqueName(QStringLiteral("mq_stopped")));
        insertEvents(*db, 50);
        // A long backoff, as after many rounds of a long outage.
        auto relay = startRelay(*db, testAmqpUrl(), QStringLiteral("mq-stopped"),
                                {QStringLiteral("--backoff-base-ms"), QStringLiteral("4000")});
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(50), 30000);
        QVERIFY(rabbitmqctl({QStringLiteral("stop_app")}).ok());
        // A failure below must not leave the node stopped for the RabbitMQ tests after this one.
        bool started = false;
        const auto restart = qScopeGuard([&] {
            if (!started)
                (void)rabbitmqctl({QStringLiteral("start_app")});
        });
        insertEvents(*db, 50);
        QElapsedTimer down;
        down.start();
        int degradedSeen = 0;
        QStringList wrong;
        const int outageSeconds = qEnvironmentVariableIntValue("OUTBOX_TEST_MQ_OUTAGE_S");
        const qint64 outageMs = outageSeconds > 0 ? 1000LL * outageSeconds : 30000;
        while (down.elapsed() < outageMs) {
            QTest::qWait(2000);
            const auto findings = doctorFindings(*db);
            if (findings.contains(QStringLiteral("relay-degraded"))) {
                ++degradedSeen;
                const QJsonArray actions = findings.value(QStringLiteral("relay-degraded"))
                                               .value(QStringLiteral("actions"))
                                               .toArray();
                if (QJsonDocument(actions).toJson().contains("forget"))
                    wrong << QStringLiteral("relay-degraded prepares a forget");
            }
            for (const QString& id : {QStringLiteral("no-relay"), QStringLiteral("relay-stale")})
                if (findings.contains(id))
                    wrong << QStringLiteral("%1 at %2 s").arg(id).arg(down.elapsed() / 1000);
        }
        started = rabbitmqctl({QStringLiteral("start_app")}).ok();
        QVERIFY(started);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QStringLiteral(", "))));
        qInfo("RabbitMQ down %lld s: relay-degraded in %d doctor runs, nothing wrong in any",
              down.elapsed() / 1000, degradedSeen);
        QVERIFY2(degradedSeen >= outageMs / 3000, qPrintable(QString::number(degradedSeen)));
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(100),
            60000);
        QCOMPARE(terminateAndWait(*relay), 0);
    }
};

QTEST_GUILESS_MAIN(TestRelayBrokerFaults)
#include "tst_relaybrokerfaults.moc"
