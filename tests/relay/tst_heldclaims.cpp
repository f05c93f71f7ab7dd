#include "core/broker/kafka/EmbeddedBroker.h"
#include "core/db/EventStore.h"
#include "core/db/HeldClaim.h"
#include "core/metrics/MetricsQuery.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/RelayChecks.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TopicReader.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTest>
#include <memory>

using namespace outbox;
using namespace outbox::test;

// relay.claim_mode = held (PostgreSQL): the claim keeps row locks in an open transaction while the
// batch is sent and the marks commit in it. The failure windows of the leased claim, again: a relay
// killed while it holds a batch loses nothing, the attempt it began is counted, an event that
// crashes every relay ends DEAD, a stalled holder loses its locks, ordering holds, and each event is
// written once.
namespace {

const QString Kind = QStringLiteral("postgresql");

std::unique_ptr<QProcess> startHeldRelay(const QString& dbUrl, const QString& bootstrap,
                                         const QString& workerId, const QString& failpoints = {},
                                         const QStringList& extra = {})
{
    return startOutboxctl(
        QStringList{QStringLiteral("relay"), QStringLiteral("--db"), dbUrl,
                    QStringLiteral("--kafka-bootstrap"), bootstrap, QStringLiteral("--worker-id"), workerId,
                    QStringLiteral("--claim-mode"), QStringLiteral("held"), QStringLiteral("--lease-ms"),
                    QStringLiteral("3000"), QStringLiteral("--poll-ms"), QStringLiteral("100"),
                    QStringLiteral("--batch-size"), QStringLiteral("100"), QStringLiteral("-X"),
                    QStringLiteral("message.timeout.ms=800")} +
            extra,
        failpoints);
}

std::unique_ptr<HeldClaim> holder(const DatabaseUrl& url, qint64 holdMs)
{
    auto held = HeldClaim::open(TestDatabases::open(url), holdMs);
    if (!held)
        qFatal("%s", qPrintable(held.message()));
    return std::move(held).value();
}

QVector<qint64> idsOf(const ClaimedBatch& batch)
{
    QVector<qint64> ids;
    for (const OutboxEvent& e : batch.events)
        ids << e.id;
    return ids;
}

} // namespace

class TestHeldClaims : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (!TestDatabases::available(Kind))
            QFAIL("PostgreSQL is not available to this test (see tests/fixtures)");
    }

    // Two held relays on one table: every event on the topic exactly once, every row written once
    // (one update per event: PENDING -> SENT, no SENDING version), the journal empty afterwards.
    void twoHeldRelaysWriteEachEventOnce()
    {
        auto b = startOrderBroker();
        auto db = TestDatabases::fresh(Kind, QStringLiteral("heldtwo"));
        const QString url = TestDatabases::urlText(db->url());
        constexpr int Events = 3000;
        insertEvents(*db, Events);
        auto a = startHeldRelay(url, b->bootstrap(), QStringLiteral("held-a"));
        auto c = startHeldRelay(url, b->bootstrap(), QStringLiteral("held-b"));
        QTRY_VERIFY_WITH_TIMEOUT(countStatus(*db, "SENT") == Events, 60000);
        QCOMPARE(terminateAndWait(*a), 0);
        QCOMPARE(terminateAndWait(*c), 0);
        QCOMPARE(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT' AND attempts = 1")),
            qint64(Events));
        QCOMPARE(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("worker_id IN ('held-a', 'held-b')")),
            qint64(Events));
        QCOMPARE(countRows(*db, QStringLiteral("{held_claims}")), qint64(0));
        QCOMPARE(duplicatesOnTopic(*db, b->bootstrap(), Events), 0);
        // The relays' sessions have ended, so their statistics are flushed: one row update per event.
        const auto rowUpdates = [&db] {
            (void)db->exec(QStringLiteral("SELECT pg_stat_clear_snapshot()"));
            auto n = db->scalar(
                QStringLiteral("SELECT n_tup_upd FROM pg_stat_user_tables WHERE relname = 'outbox_events'"));
            return n ? n->toLongLong() : -1;
        };
        QTRY_COMPARE_WITH_TIMEOUT(rowUpdates(), qint64(Events), 10000);
    }

    // SIGKILL-like crash right after the batch was produced: the rows were never SENDING, the locks
    // went with the connection, so they are PENDING at once; the journal row the relay committed
    // before producing makes the reaper count the attempt once the hold time has passed.
    void crashWhileHoldingCountsTheAttemptAndLosesNothing()
    {
        auto b = startOrderBroker();
        auto db = TestDatabases::fresh(Kind, QStringLiteral("heldcrash"));
        const QString url = TestDatabases::urlText(db->url());
        insertEvents(*db, 300);
        auto a = startHeldRelay(url, b->bootstrap(), QStringLiteral("held-crashing"),
                                QStringLiteral("relay.after_produce=crash"));
        QVERIFY(a->waitForFinished(30000));
        QCOMPARE(a->exitCode(), 86);
        QCOMPARE(countStatus(*db, "SENDING"), qint64(0));
        QCOMPARE(countStatus(*db, "PENDING"), qint64(300));
        QCOMPARE(countRows(*db, QStringLiteral("{held_claims}")), qint64(1));
        const qint64 held = countRows(*db, QStringLiteral("{events}"),
                                      QStringLiteral("id IN (SELECT unnest(event_ids) FROM {held_claims})"));
        QCOMPARE(held, qint64(100));
        // Before its hold time the journal row is left alone.
        auto early = HeldClaim::reap(*db, 10, OrderingMode::None);
        QVERIFY2(early.ok(), qPrintable(early.message()));
        QCOMPARE(early->returned + early->exhausted, 0);
        QTest::qWait(3200);
        auto reaped = HeldClaim::reap(*db, 10, OrderingMode::None);
        QVERIFY2(reaped.ok(), qPrintable(reaped.message()));
        QCOMPARE(reaped->returned, 100);
        QCOMPARE(reaped->exhausted, 0);
        QCOMPARE(countRows(*db, QStringLiteral("{events}"),
                           QStringLiteral("attempts = 1 AND status = 'PENDING' AND last_error_class = "
                                          "'lease_expired' AND last_error LIKE 'held claim lost%'")),
                 qint64(100));
        QCOMPARE(countRows(*db, QStringLiteral("{held_claims}")), qint64(0));
        auto r = startHeldRelay(url, b->bootstrap(), QStringLiteral("held-rescuer"));
        QTRY_VERIFY_WITH_TIMEOUT(countStatus(*db, "SENT") == 300, 60000);
        QCOMPARE(terminateAndWait(*r), 0);
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("attempts = 2")), qint64(100));
        QVERIFY(duplicatesOnTopic(*db, b->bootstrap(), 300) >= 0);
    }

    // A mark that fails rolls the held batch back: its events are PENDING again, sent again by the
    // next claim (a duplicate on the topic, never a loss), and the relay goes on with a fresh
    // connection.
    void aFailedMarkRollsTheBatchBack()
    {
        auto b = startOrderBroker();
        auto db = TestDatabases::fresh(Kind, QStringLiteral("heldmarkfail"));
        const QString url = TestDatabases::urlText(db->url());
        insertEvents(*db, 300);
        auto r = startHeldRelay(url, b->bootstrap(), QStringLiteral("held-flaky"),
                                QStringLiteral("relay.mark_sent=2*error"));
        QTRY_VERIFY_WITH_TIMEOUT(countStatus(*db, "SENT") == 300, 60000);
        QCOMPARE(terminateAndWait(*r), 0);
        const QByteArray log = r->readAll();
        QVERIFY2(log.contains("failpoint relay.mark_sent injected an error"), log.constData());
        QVERIFY2(log.count("the batch's transaction is rolled back") == 2, log.constData());
        // Both failed batches (100 events each) had been acknowledged: each event of them is on the
        // topic twice.
        QVERIFY(duplicatesOnTopic(*db, b->bootstrap(), 300) >= 200);
    }

    // An event whose send crashes every relay, restarted after each crash as systemd would: the
    // journal rows of the lost claims count the attempts, and at the limit the events end DEAD
    // instead of being claimed for ever.
    void crashLoopingEventsEndDead()
    {
        auto b = startOrderBroker();
        auto db = TestDatabases::fresh(Kind, QStringLiteral("heldloop"));
        const QString url = TestDatabases::urlText(db->url());
        insertEvents(*db, 5);
        const QStringList extra{QStringLiteral("--max-attempts"), QStringLiteral("3")};
        QElapsedTimer timer;
        timer.start();
        int crashes = 0;
        std::unique_ptr<QProcess> survivor;
        while (!survivor && timer.elapsed() < 60000) {
            auto r = startHeldRelay(url, b->bootstrap(), QStringLiteral("held-loop-%1").arg(crashes),
                                    QStringLiteral("relay.after_produce=crash"), extra);
            if (r->waitForFinished(8000)) {
                QCOMPARE(r->exitCode(), 86);
                ++crashes;
                continue;
            }
            survivor = std::move(r); // nothing left to claim: it no longer crashes
        }
        QVERIFY(survivor);
        QTRY_COMPARE_WITH_TIMEOUT(countStatus(*db, "DEAD"), qint64(5), 15000);
        QVERIFY2(crashes >= 3, qPrintable(QString::number(crashes)));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"),
                           QStringLiteral(
                               "status = 'DEAD' AND attempts = 3 AND last_error_class = "
                               "'lease_expired' AND last_error LIKE 'held claim lost after 3 attempts%'")),
                 qint64(5));
        QTRY_COMPARE_WITH_TIMEOUT(countRows(*db, QStringLiteral("{held_claims}")), qint64(0), 15000);
        QCOMPARE(terminateAndWait(*survivor), 0);
    }

    // The reaper leaves a journal row alone while its holder still has the rows locked (a slow
    // relay is not a dead one), and counts the attempt once the locks are gone; at the limit the
    // events become DEAD, or FAILED in ordering mode.
    void theReaperWaitsForALiveHolder()
    {
        auto db = TestDatabases::fresh(Kind, QStringLiteral("heldlive"));
        const QVector<qint64> ids = insertEvents(*db, 20);
        QVERIFY(db->exec(QStringLiteral("UPDATE {events} SET attempts = 2 WHERE id <= :last"),
                         {{QStringLiteral(":last"), ids.at(4)}})
                    .ok());
        auto h = holder(db->url(), 60000);
        auto batch = h->claim(QStringLiteral("slow"), 10, OrderingMode::None);
        QVERIFY2(batch.ok(), qPrintable(batch.message()));
        QCOMPARE(batch->events.size(), 10);
        QCOMPARE(batch->events.first().attempts, 3); // the attempt this claim begins
        QCOMPARE(batch->events.last().attempts, 1);
        auto journal = HeldClaim::journal(*db, QStringLiteral("slow"), idsOf(*batch), 0); // already past
        QVERIFY2(journal.ok(), qPrintable(journal.message()));
        auto whileHeld = HeldClaim::reap(*db, 3, OrderingMode::None);
        QVERIFY2(whileHeld.ok(), qPrintable(whileHeld.message()));
        QCOMPARE(whileHeld->returned + whileHeld->exhausted, 0);
        QCOMPARE(countRows(*db, QStringLiteral("{held_claims}")), qint64(1));
        h->abandon(); // the holder dies without marking anything
        auto reaped = HeldClaim::reap(*db, 3, OrderingMode::None);
        QVERIFY2(reaped.ok(), qPrintable(reaped.message()));
        QCOMPARE(reaped->exhausted, 5);
        QCOMPARE(reaped->returned, 5);
        QCOMPARE(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'DEAD' AND attempts = 3")),
            qint64(5));
        QCOMPARE(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING' AND attempts = 1")),
            qint64(5));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("attempts = 0")), qint64(10));
        QCOMPARE(countRows(*db, QStringLiteral("{held_claims}")), qint64(0));

        // Ordering mode: FAILED, so that the aggregate stays blocked until an operator acts.
        auto again = holder(db->url(), 60000);
        auto second = again->claim(QStringLiteral("slow"), 20, OrderingMode::None);
        QVERIFY2(second.ok(), qPrintable(second.message()));
        QCOMPARE(second->events.size(), 15);
        QVERIFY(HeldClaim::journal(*db, QStringLiteral("slow"), idsOf(*second), 0).ok());
        again->abandon();
        auto ordered = HeldClaim::reap(*db, 2, OrderingMode::Aggregate);
        QVERIFY2(ordered.ok(), qPrintable(ordered.message()));
        QCOMPARE(ordered->exhausted, 5);
        QCOMPARE(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED' AND attempts = 2")),
            qint64(5));
    }

    // A holder that stops answering loses its locks after the hold time (the server ends a session
    // idle in a transaction), so another relay can send the events, as after a lease expires.
    void aStalledHolderLosesItsLocks()
    {
        auto db = TestDatabases::fresh(Kind, QStringLiteral("heldstall"));
        insertEvents(*db, 10);
        auto stalled = holder(db->url(), 1000);
        auto first = stalled->claim(QStringLiteral("stalled"), 10, OrderingMode::None);
        QVERIFY2(first.ok(), qPrintable(first.message()));
        QCOMPARE(first->events.size(), 10);
        auto other = holder(db->url(), 60000);
        auto none = other->claim(QStringLiteral("other"), 10, OrderingMode::None);
        QVERIFY2(none.ok(), qPrintable(none.message()));
        QCOMPARE(none->events.size(), 0); // skipped, not waited for
        QTest::qWait(1500);
        auto taken = other->claim(QStringLiteral("other"), 10, OrderingMode::None);
        QVERIFY2(taken.ok(), qPrintable(taken.message()));
        QCOMPARE(taken->events.size(), 10);
        QVector<SentMark> marks;
        for (const OutboxEvent& e : taken->events)
            marks << SentMark{e.id, 0, e.id};
        auto sent = other->markSent(marks);
        QVERIFY2(sent.ok(), qPrintable(sent.message()));
        QCOMPARE(sent->updated, 10);
        QVERIFY(other->finish(0).ok());
        // The stalled holder wakes up: its transaction is gone, its marks change nothing.
        auto late = stalled->markSent(marks);
        QVERIFY(!late.ok() || late->updated == 0);
        QCOMPARE(countRows(*db, QStringLiteral("{events}"),
                           QStringLiteral("status = 'SENT' AND worker_id = 'other'")),
                 qint64(10));
    }

    // Ordering mode: while an aggregate's earliest event is held, no other claim takes a later one.
    void orderingWaitsForTheHeldHead()
    {
        auto db = TestDatabases::fresh(Kind, QStringLiteral("heldorder"));
        const qint64 head =
            insertEvents(*db, 1, QStringLiteral("OrderCreated"), QStringLiteral("same-")).first();
        const qint64 next =
            insertEvents(*db, 1, QStringLiteral("OrderPaid"), QStringLiteral("same-")).first();
        const qint64 other =
            insertEvents(*db, 1, QStringLiteral("OrderCreated"), QStringLiteral("else-")).first();
        auto a = holder(db->url(), 60000);
        auto first = a->claim(QStringLiteral("a"), 1, OrderingMode::Aggregate);
        QVERIFY2(first.ok(), qPrintable(first.message()));
        QCOMPARE(idsOf(*first), QVector<qint64>{head});
        auto b = holder(db->url(), 60000);
        auto second = b->claim(QStringLiteral("b"), 10, OrderingMode::Aggregate);
        QVERIFY2(second.ok(), qPrintable(second.message()));
        QCOMPARE(idsOf(*second), QVector<qint64>{other});
        QVERIFY(b->finish(0).ok());
        QVERIFY(a->markSent({SentMark{head, 0, 1}}).ok());
        QVERIFY(a->finish(0).ok());
        auto third = b->claim(QStringLiteral("b"), 10, OrderingMode::Aggregate);
        QVERIFY2(third.ok(), qPrintable(third.message()));
        QCOMPARE(idsOf(*third), (QVector<qint64>{next, other}));
        b->abandon();
    }

    // One clear error instead of a relay that cannot keep its promise.
    // What an operator sees of a batch while its relay holds it (issue 30 item 1): the rows stay
    // PENDING, yet the console's in-flight table (MetricsQuery's lease holders, also the web console
    // and /metrics) counts them for their relay, `trace` says who holds the event and since when, and
    // an operator action on a held row waits only until the relay lets go, then reports the row it
    // could not change as a conflict instead of undoing the send.
    void aHeldBatchIsShownInFlightAndActionsOnItEndAsConflicts()
    {
        auto b = startOrderBroker();
        auto db = TestDatabases::fresh(Kind, QStringLiteral("heldvisible"));
        const QString url = TestDatabases::urlText(db->url());
        constexpr int Events = 40;
        insertEvents(*db, Events);
        // The relay holds its batch for 4 s after producing it (the hold time is 15 s).
        auto relay = startHeldRelay(url, b->bootstrap(), QStringLiteral("held-visible"),
                                    QStringLiteral("relay.after_produce=1*sleep(4000)"),
                                    {QStringLiteral("--lease-ms"), QStringLiteral("15000")});
        const auto heldNow = [&db]() -> qint64 {
            auto s = MetricsQuery(*db).sample();
            if (!s)
                return -1;
            for (const LeaseHolder& h : s->leaseHolders)
                if (h.workerId == QLatin1String("held-visible"))
                    return h.held == h.sending ? h.held : -2;
            return 0;
        };
        QTRY_COMPARE_WITH_TIMEOUT(heldNow(), qint64(Events), 10000);
        QCOMPARE(countStatus(*db, "PENDING"), qint64(Events));
        const qint64 id = db->scalar(QStringLiteral("SELECT MIN(id) FROM {events}"))->toLongLong();

        const OutboxctlRun trace = runOutboxctl({QStringLiteral("trace"), QStringLiteral("--db"), url,
                                                 QStringLiteral("--json"), QString::number(id)});
        QCOMPARE(trace.exitCode, 0);
        const QJsonArray steps =
            QJsonDocument::fromJson(trace.out).object().value(QStringLiteral("steps")).toArray();
        QJsonObject heldStep;
        for (const QJsonValue& v : steps)
            if (v.toObject().value(QStringLiteral("kind")).toString() == QLatin1String("held"))
                heldStep = v.toObject();
        QVERIFY2(!heldStep.isEmpty(), trace.out.constData());
        const QJsonObject details = heldStep.value(QStringLiteral("details")).toObject();
        QCOMPARE(details.value(QStringLiteral("worker_id")).toString(), QStringLiteral("held-visible"));
        const QDateTime since =
            QDateTime::fromString(details.value(QStringLiteral("held_since")).toString(), Qt::ISODateWithMs);
        QVERIFY2(since.isValid() && since.secsTo(QDateTime::currentDateTimeUtc()) < 10,
                 trace.out.constData());
        QVERIFY(
            heldStep.value(QStringLiteral("summary")).toString().contains(QStringLiteral("held by relay")));

        // Marking the held event DEAD waits for the relay (not for the 15 s hold time), then finds it
        // SENT: a conflict, nothing changed.
        QElapsedTimer waited;
        waited.start();
        const OutboxctlRun dead =
            runOutboxctl({QStringLiteral("dead"), QStringLiteral("--db"), url, QStringLiteral("--reason"),
                          QStringLiteral("held row"), QStringLiteral("--yes"), QStringLiteral("--json"),
                          QStringLiteral("--"), QString::number(id)});
        QVERIFY2(waited.elapsed() < 12000, qPrintable(QString::number(waited.elapsed())));
        const QJsonObject result = QJsonDocument::fromJson(dead.out).object();
        QCOMPARE(result.value(QStringLiteral("affected")).toInteger(), qint64(0));
        QVERIFY2(result.value(QStringLiteral("conflicts")).toArray().size() == 1 ||
                     result.value(QStringLiteral("conflict_count")).toInteger() == 1,
                 dead.out.constData());
        QTRY_COMPARE_WITH_TIMEOUT(countStatus(*db, "SENT"), qint64(Events), 15000);
        QCOMPARE(countStatus(*db, "DEAD"), qint64(0));
        QTRY_COMPARE_WITH_TIMEOUT(heldNow(), qint64(0), 10000);
        QCOMPARE(terminateAndWait(*relay), 0);
    }

    void heldClaimsOnSqliteAreRefused()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("heldsqlite"));
        auto r =
            runOutboxctl({QStringLiteral("relay"), QStringLiteral("--db"), TestDatabases::urlText(db->url()),
                          QStringLiteral("--kafka-bootstrap"), QStringLiteral("127.0.0.1:9"),
                          QStringLiteral("--claim-mode"), QStringLiteral("held")});
        QVERIFY2(r.exitCode != 0, r.err.constData());
        QVERIFY2(r.err.contains("relay.claim_mode = held needs PostgreSQL"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestHeldClaims)
#include "tst_heldclaims.moc"
