#include "core/broker/kafka/EmbeddedBroker.h"
#include "core/db/Database.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QScopeGuard>
#include <QTest>
#include <memory>
#include <vector>

using namespace outbox;
using namespace outbox::test;

// The relays' doorbell (issue 42): a real `outboxctl relay` against the fixture PostgreSQL
// (wal_level = logical), the wake-up trigger off (the default). A long poll interval (8 s) makes the
// doorbell visible: behind a doorbell the relay also polls adaptively (10 ms after work, doubling:
// its claims come 5.1 s and then 13.1 s after the last work), so an event 6 s into an idle spell
// goes out in well under 2 s only when something rang.
namespace {

constexpr int PollMs = 8000;
constexpr int IdleMs = 6000;

QStringList relayArgs(const DatabaseUrl& url, const QString& bootstrap, const QString& worker)
{
    return {QStringLiteral("relay"),
            QStringLiteral("--db"),
            TestDatabases::urlText(url),
            QStringLiteral("--kafka-bootstrap"),
            bootstrap,
            QStringLiteral("--worker-id"),
            worker,
            QStringLiteral("--poll-ms"),
            QString::number(PollMs)};
}

qint64 sent(Database& db)
{
    return countRows(db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'"));
}

// Milliseconds from the commit of one event to its SENT row, after `idleMs` without events.
qint64 oneEventAfterIdle(Database& db, int idleMs)
{
    QTest::qWait(idleMs);
    const qint64 before = sent(db);
    QElapsedTimer t;
    t.start();
    insertEvents(db, 1);
    while (sent(db) == before && t.elapsed() < 3 * PollMs)
        QTest::qWait(10);
    return t.elapsed();
}

bool postgres()
{
    return TestDatabases::available(QStringLiteral("postgresql"));
}

} // namespace

class TestDoorbell : public QObject
{
    Q_OBJECT

private slots:
    // A role without the REPLICATION attribute (the runtime role of --print-grants): the relay says in
    // one line why there is no doorbell and polls (adaptively: right after a delivery it polls every
    // few milliseconds).
    void withoutReplicationTheRelayPollsAndSaysSo()
    {
        if (!postgres())
            QSKIP("no PostgreSQL test server configured");
        auto owner = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("bellnorepl"));
        const QString role = QStringLiteral("outbox_bell_%1").arg(QCoreApplication::applicationPid());
        (void)owner->exec(QStringLiteral("DROP OWNED BY %1").arg(role));
        (void)owner->exec(QStringLiteral("DROP ROLE IF EXISTS %1").arg(role));
        QVERIFY(owner->exec(QStringLiteral("CREATE ROLE %1 LOGIN NOREPLICATION").arg(role)).ok());
        const OutboxctlRun grants =
            runOutboxctl({QStringLiteral("migrate"), QStringLiteral("--print-grants"), role,
                          QStringLiteral("--db"), TestDatabases::urlText(owner->url())});
        QVERIFY2(grants.exitCode == 0, grants.err.constData());
        for (const QString& line : QString::fromUtf8(grants.out).split(QLatin1Char('\n')))
            if (line.startsWith(QLatin1String("GRANT")))
                QVERIFY2(owner->exec(line.chopped(1)).ok(), qPrintable(line));
        DatabaseUrl runtimeUrl = owner->url();
        runtimeUrl.user = role;

        auto b = EmbeddedBroker::start(1);
        QVERIFY(b.ok() && (*b)->createTopic(QStringLiteral("order"), 1).ok());
        auto relay = startOutboxctl(relayArgs(runtimeUrl, (*b)->bootstrap(), QStringLiteral("nobell")));
        QTRY_COMPARE_WITH_TIMEOUT(countRows(*owner, QStringLiteral("{relays}")), qint64(1), 15000);
        insertEvents(*owner, 3);
        QTRY_COMPARE_WITH_TIMEOUT(sent(*owner), qint64(3), 15000);
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*owner, QStringLiteral("{relays}"), QStringLiteral("wakeup = 'poll'")), qint64(1),
            10000);
        QCOMPARE(terminateAndWait(*relay), 0);
        const QByteArray log = relay->readAll();
        const QByteArray line = "wake-up: poll (every 10 to 8000 ms while idle); no doorbell: the role " +
                                role.toUtf8() + " lacks the REPLICATION attribute";
        QVERIFY2(log.contains(line), log.constData());
        QCOMPARE(log.count("wake-up: "), 1);
        auto slotCount =
            owner->scalar(QStringLiteral("SELECT count(*) FROM pg_replication_slots WHERE slot_name LIKE "
                                         "'outbox_doorbell_%' AND database = current_database()"));
        QCOMPARE(slotCount->toInt(), 0);
        (void)owner->exec(QStringLiteral("DROP OWNED BY %1").arg(role));
        (void)owner->exec(QStringLiteral("DROP ROLE IF EXISTS %1").arg(role));
    }

    // The doorbell rings: an event after an idle spell goes out in well under the poll interval. Its
    // connection killed while the relay drains 3,000 events (pg_terminate_backend): every event is
    // SENT once all the same, the relay says the doorbell was lost, opens it again within a
    // heartbeat, and it rings again. The temporary slot goes with its relay.
    void doorbellKilledMidDrainLosesNothingAndRingsAgain()
    {
        if (!postgres())
            QSKIP("no PostgreSQL test server configured");
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("bellkill"));
        auto b = EmbeddedBroker::start(1);
        QVERIFY(b.ok() && (*b)->createTopic(QStringLiteral("order"), 1).ok());
        auto relay = startOutboxctl(relayArgs(db->url(), (*b)->bootstrap(), QStringLiteral("bell")));
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{relays}"), QStringLiteral("wakeup = 'doorbell'")), qint64(1),
            15000);
        const auto walSender = [&] {
            auto pid = db->scalar(
                QStringLiteral("SELECT active_pid FROM pg_replication_slots WHERE slot_name LIKE "
                               "'outbox_doorbell_%' AND database = current_database() AND active"));
            return pid ? pid->toLongLong() : 0;
        };
        const qint64 firstSender = walSender();
        QVERIFY(firstSender > 0);

        const qint64 rang = oneEventAfterIdle(*db, IdleMs);
        QVERIFY2(rang < PollMs / 4, qPrintable(QStringLiteral("%1 ms").arg(rang)));

        insertEvents(*db, 3000);
        QTRY_VERIFY_WITH_TIMEOUT(sent(*db) > 1, 15000); // draining
        auto killed = db->scalar(QStringLiteral("SELECT pg_terminate_backend(:pid)"),
                                 {{QStringLiteral(":pid"), firstSender}});
        QVERIFY(killed && killed->toBool());
        QTRY_COMPARE_WITH_TIMEOUT(sent(*db), qint64(3001), 60000);
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status <> 'SENT'")), qint64(0));

        // Open again (a heartbeat is 2 s) on a new WAL sender, and ringing.
        QTRY_VERIFY_WITH_TIMEOUT(walSender() > 0 && walSender() != firstSender, 15000);
        const qint64 again = oneEventAfterIdle(*db, IdleMs);
        QVERIFY2(again < PollMs / 4, qPrintable(QStringLiteral("%1 ms").arg(again)));

        QCOMPARE(terminateAndWait(*relay), 0);
        const QByteArray log = relay->readAll();
        QVERIFY2(log.contains("wake-up trigger ") && log.contains(" is off (the default)"), log.constData());
        QVERIFY2(log.contains("doorbell lost ("), log.constData());
        QCOMPARE(log.count("wake-up: doorbell (temporary logical replication slot"), 2);
        // The temporary slot goes with the relay (once the server has seen its connection close).
        QTRY_COMPARE_WITH_TIMEOUT(walSender(), qint64(0), 10000);
    }

    // PostgreSQL creates a logical slot only once every transaction that holds a transaction id on
    // the server has ended. A writer's transaction left open (here on another database of the same
    // server) must not stop the relay, as it did while the slot was created in the relay's loop: it
    // delivers by polling, says why it has no doorbell yet, and rings once the transaction ends.
    void aSlotWaitingOnAnOpenTransactionDoesNotStopTheRelay()
    {
        if (!postgres())
            QSKIP("no PostgreSQL test server configured");
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("bellwait"));
        auto other = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("bellblock"));
        QVERIFY(other->beginWrite().ok());
        auto xid = other->scalar(QStringLiteral("SELECT txid_current()"));
        QVERIFY2(xid.ok(), qPrintable(xid.message()));
        bool open = true;
        const auto end = qScopeGuard([&] {
            if (open)
                (void)other->commit(); // never leave it open for the tests after this one
        });
        insertEvents(*db, 20);
        auto b = EmbeddedBroker::start(1);
        QVERIFY(b.ok() && (*b)->createTopic(QStringLiteral("order"), 1).ok());
        auto relay = startOutboxctl(relayArgs(db->url(), (*b)->bootstrap(), QStringLiteral("bellwait")));
        QTRY_COMPARE_WITH_TIMEOUT(sent(*db), qint64(20), 15000);
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{relays}"), QStringLiteral("wakeup = 'poll'")), qint64(1), 15000);
        QCOMPARE(countRows(*db, QStringLiteral("{relays}"), QStringLiteral("wakeup = 'doorbell'")),
                 qint64(0));

        QVERIFY(other->commit().ok());
        open = false;
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{relays}"), QStringLiteral("wakeup = 'doorbell'")), qint64(1),
            15000);
        const qint64 rang = oneEventAfterIdle(*db, IdleMs);
        QVERIFY2(rang < PollMs / 4, qPrintable(QStringLiteral("%1 ms").arg(rang)));

        QCOMPARE(terminateAndWait(*relay), 0);
        const QByteArray log = relay->readAll();
        QVERIFY2(log.contains("wake-up: poll (every 10 to 8000 ms while idle) until the doorbell's slot "
                              "outbox_doorbell_") &&
                     log.contains("creates it once the transactions open on the server have ended"),
                 log.constData());
        QCOMPARE(log.count("wake-up: doorbell (temporary logical replication slot"), 1);
    }

    // Every WAL sender decodes all of the server's WAL, so doorbells cost the server about the square
    // of their number: of five relays on one database four ring (ReplicationDoorbell::MaxPerDatabase)
    // and the fifth polls as a standby (every 2 s at most while idle, not every 250 ms), saying why in
    // its registry row's wake-up and its log.
    void atMostFourDoorbellsPerDatabase()
    {
        if (!postgres())
            QSKIP("no PostgreSQL test server configured");
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("bellcrowd"));
        auto b = EmbeddedBroker::start(1);
        QVERIFY(b.ok() && (*b)->createTopic(QStringLiteral("order"), 1).ok());
        std::vector<std::unique_ptr<QProcess>> relays;
        for (int i = 1; i <= 4; ++i) {
            relays.push_back(
                startOutboxctl(relayArgs(db->url(), (*b)->bootstrap(), QStringLiteral("bell%1").arg(i))));
            QTRY_COMPARE_WITH_TIMEOUT(
                countRows(*db, QStringLiteral("{relays}"), QStringLiteral("wakeup = 'doorbell'")), qint64(i),
                15000);
        }
        // The fifth at the default poll interval (250 ms): as a standby it waits up to 2 s instead.
        QStringList fifthArgs = relayArgs(db->url(), (*b)->bootstrap(), QStringLiteral("bell5"));
        fifthArgs.last() = QStringLiteral("250");
        auto fifth = startOutboxctl(fifthArgs);
        QTRY_COMPARE_WITH_TIMEOUT(countRows(*db, QStringLiteral("{relays}"),
                                            QStringLiteral("worker_id = 'bell5' AND wakeup = 'poll'")),
                                  qint64(1), 15000);
        QTest::qWait(2500); // a heartbeat later it still polls
        QCOMPARE(countRows(*db, QStringLiteral("{relays}"), QStringLiteral("wakeup = 'doorbell'")),
                 qint64(4));
        auto active = db->scalar(QStringLiteral("SELECT count(*) FROM pg_replication_slots WHERE database = "
                                                "current_database() AND active"));
        QVERIFY(active);
        QCOMPARE(active->toInt(), 4);
        // Every event goes out all the same.
        insertEvents(*db, 200);
        QTRY_COMPARE_WITH_TIMEOUT(sent(*db), qint64(200), 30000);
        QCOMPARE(terminateAndWait(*fifth), 0);
        const QByteArray log = fifth->readAll();
        QVERIFY2(
            log.contains("wake-up: poll (every 10 to 2000 ms while idle)") &&
                log.contains("no doorbell: 4 relays ring a doorbell on this database already (at most 4"),
            log.constData());
        for (auto& r : relays)
            QCOMPARE(terminateAndWait(*r), 0);
    }
};

QTEST_GUILESS_MAIN(TestDoorbell)
#include "tst_doorbell.moc"
