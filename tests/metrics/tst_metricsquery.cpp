#include "core/db/DatabaseTarget.h"
#include "core/db/DeadLetterStore.h"
#include "core/db/EventStore.h"
#include "core/metrics/MetricsQuery.h"
#include "core/metrics/MetricsSampler.h"
#include "tests/support/TestDatabases.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>

using namespace outbox;
using namespace outbox::test;

class TestMetricsQuery : public QObject
{
    Q_OBJECT

private slots:
    // An outbox with retention holds few rows in many pages between two vacuums: counting SENT
    // would read all of them on every tick (the soak's 800 MB each second). Below the row limit
    // but above the size limit, SENT comes from the statistics.
    void aLargeTableWithFewRowsEstimatesSent()
    {
        if (!TestDatabases::available(QStringLiteral("postgresql")))
            QSKIP("no PostgreSQL test server configured");
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("bloated"));
        QVERIFY(db->exec(QStringLiteral(
                             "INSERT INTO {events} (event_id, event_type, aggregate_type, aggregate_id, "
                             "payload, status, sent_at) SELECT 'e-' || n, 'T', 'A', 'a', "
                             "jsonb_build_object('pad', repeat('x', 400)), 'SENT', now() FROM "
                             "generate_series(1, 170000) n"))
                    .ok());
        QVERIFY(db->exec(QStringLiteral("DELETE FROM {events} WHERE id % 100 <> 0")).ok());
        QVERIFY(db->exec(QStringLiteral("VACUUM ANALYZE {events}")).ok());
        auto size = db->scalar(QStringLiteral("SELECT pg_relation_size('{events}')"));
        QVERIFY(size.ok());
        QVERIFY2(size->toLongLong() > MetricsQuery::ExactSentMaxBytes, qPrintable(size->toString()));

        auto s = MetricsQuery(*db).sample();
        QVERIFY2(s.ok(), qPrintable(s.message()));
        QVERIFY(s->sentIsEstimate);
        // The estimate is the statistics' row count (1,700 rows left), not a count of the table.
        QVERIFY2(qAbs(s->events.value(QStringLiteral("SENT")) - 1700) < 200,
                 qPrintable(QString::number(s->events.value(QStringLiteral("SENT")))));
    }

    // A history of 100,000 SENT rows (the relay bench's): a count read the whole table on every
    // tick of every console, 60 ms of a database core per second beside the relay (issue 30). SENT
    // comes from the statistics, within a few percent.
    void aHistoryOfSentRowsIsEstimatedNotCounted()
    {
        if (!TestDatabases::available(QStringLiteral("postgresql")))
            QSKIP("no PostgreSQL test server configured");
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("history"));
        QVERIFY(db->exec(QStringLiteral(
                             "INSERT INTO {events} (event_id, event_type, aggregate_type, aggregate_id, "
                             "payload, status, sent_at) SELECT 'e-' || n, 'T', 'A', 'a', "
                             "jsonb_build_object('pad', repeat('x', 200)), 'SENT', now() FROM "
                             "generate_series(1, 100000) n"))
                    .ok());
        QVERIFY(db->exec(QStringLiteral("ANALYZE {events}")).ok());
        auto s = MetricsQuery(*db).sample();
        QVERIFY2(s.ok(), qPrintable(s.message()));
        QVERIFY(s->sentIsEstimate);
        QVERIFY2(qAbs(s->events.value(QStringLiteral("SENT")) - 100000) < 5000,
                 qPrintable(QString::number(s->events.value(QStringLiteral("SENT")))));
    }

    // The inbox's PROCESSED rows per consumer grow with every message ever handled: with a
    // sampler's memory the count is repeated only after 50 times what it last took (here tens of
    // ms, so about a second or more), and the figures of the last count are reported meanwhile.
    // Without a memory (a one-off sample) it is always counted.
    void processedTotalsAreRecountedOnlyAsOftenAsTheirCostAllows()
    {
        if (!TestDatabases::available(QStringLiteral("postgresql")))
            QSKIP("no PostgreSQL test server configured");
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("inboxcost"));
        const auto addProcessed = [&](int from, int count) {
            return db
                ->exec(QStringLiteral("INSERT INTO {inbox} (event_id, consumer_name, status, attempts, "
                                      "processed_at) SELECT 'e-' || n, 'inventory', 'PROCESSED', 1, now() "
                                      "FROM generate_series(%1, %2) n")
                           .arg(from)
                           .arg(from + count - 1))
                .ok();
        };
        QVERIFY(addProcessed(1, 300000));
        QVERIFY(db->exec(QStringLiteral("VACUUM ANALYZE {inbox}")).ok());
        MetricsQueryMemory memory;
        const auto sampled = [&](MetricsQueryMemory* m) -> qint64 {
            MetricsQuery query(*db);
            query.setMemory(m);
            auto s = query.sample();
            return s ? s->consumerProcessedTotal.value(QStringLiteral("inventory")) : -1;
        };
        QCOMPARE(sampled(&memory), qint64(300000));
        const qint64 costMs = memory.processedCostMs;
        QVERIFY2(costMs >= 1, "counting 300,000 inbox rows took under a millisecond");
        QElapsedTimer since;
        since.start();
        QVERIFY(addProcessed(300001, 10));
        const qint64 again = sampled(&memory);
        if (since.elapsed() < costMs * MetricsQueryMemory::RepeatFactor)
            QCOMPARE(again, qint64(300000)); // the last count's figure, not a new count
        QCOMPARE(sampled(nullptr), qint64(300010));
        QTRY_COMPARE_WITH_TIMEOUT(sampled(&memory), qint64(300010),
                                  int(costMs * MetricsQueryMemory::RepeatFactor + 5000));
    }

    void snapshotReflectsTheTables_data() { TestDatabases::addKinds(); }
    void snapshotReflectsTheTables()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        const auto ids = insertEvents(*db, 20);
        forceStatus(*db, ids.mid(0, 5), QStringLiteral("SENT"));
        forceStatus(*db, ids.mid(5, 2), QStringLiteral("FAILED"), QStringLiteral("boom"));
        forceStatus(*db, ids.mid(7, 1), QStringLiteral("DEAD"));
        QVERIFY(db->exec(QStringLiteral("UPDATE {events} SET attempts = 3 WHERE id IN (%1, %2)")
                             .arg(ids[5])
                             .arg(ids[6]))
                    .ok());
        EventStore store(*db);
        auto live = store.claim(QStringLiteral("relay-a"), 3, 600000);
        auto expired = store.claim(QStringLiteral("relay-b"), 2, 1);
        QVERIFY(live.ok() && expired.ok());
        DeadLetter l;
        l.consumerName = QStringLiteral("inventory");
        l.topic = QStringLiteral("order");
        l.error = QStringLiteral("poison");
        QVERIFY(DeadLetterStore(*db).insert(l).ok());
        QVERIFY(
            db->exec(
                  QStringLiteral(
                      "INSERT INTO {inbox} (event_id, consumer_name, status, attempts, processed_at) "
                      "VALUES ('e1', 'inventory', 'PROCESSED', 1, %1), ('e2', 'inventory', 'FAILED', 2, %1)")
                      .arg(db->dialect().now()))
                .ok());
        QVERIFY(db->exec(QStringLiteral(
                             "INSERT INTO {relays} (worker_id, host, pid, sent_total, failed_total) VALUES "
                             "('relay-a', 'h1', 1, 100, 2), ('relay-b', 'h2', 2, 50, 1)"))
                    .ok());
        QThread::msleep(30);

        auto s = MetricsQuery(*db).sample();
        QVERIFY2(s.ok(), qPrintable(s.message()));
        QCOMPARE(s->events.value(QStringLiteral("SENT")), qint64(5));
        QVERIFY(!s->sentIsEstimate);
        QCOMPARE(s->events.value(QStringLiteral("FAILED")), qint64(2));
        QCOMPARE(s->events.value(QStringLiteral("DEAD")), qint64(1));
        QCOMPARE(s->events.value(QStringLiteral("SENDING")), qint64(5));
        QCOMPARE(s->events.value(QStringLiteral("PENDING")), qint64(7));
        QVERIFY(s->oldestPendingAgeMs >= 0);
        QCOMPARE(s->attemptsOfUnsent.value(0), qint64(7));
        QCOMPARE(s->attemptsOfUnsent.value(1), qint64(5));
        QCOMPARE(s->attemptsOfUnsent.value(3), qint64(2));
        QCOMPARE(s->leaseHolders.size(), 2);
        QCOMPARE(s->leaseHolders.at(0).workerId, QStringLiteral("relay-a"));
        QCOMPARE(s->leaseHolders.at(0).sending, qint64(3));
        QCOMPARE(s->leaseHolders.at(0).expired, qint64(0));
        QCOMPARE(s->leaseHolders.at(1).expired, qint64(2));
        QCOMPARE(s->relays.size(), 2);
        QCOMPARE(s->relaySentTotal, qint64(150));
        QCOMPARE(s->deadLetters.value(QStringLiteral("NEW")), qint64(1));
        QCOMPARE(s->consumers.size(), 1);
        QCOMPARE(s->consumers.first().processedRecently, qint64(1));
        QCOMPARE(s->consumers.first().failed, qint64(1));
        QVERIFY(s->toJson()
                    .value(QStringLiteral("events"))
                    .toObject()
                    .value(QStringLiteral("PENDING"))
                    .toInteger() == 7);
    }

    void samplerRunsOnItsOwnThreadAndReportsFailures()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("sampler"));
        insertEvents(*db, 3);
        MetricsSampler sampler(DatabaseTarget(db->url(), QString()));
        QSignalSpy snapshots(&sampler, &MetricsSampler::snapshotReady);
        sampler.start(50);
        QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() >= 2, 5000);
        const auto snapshot = snapshots.last().at(0).value<MetricsSnapshot>();
        QCOMPARE(snapshot.events.value(QStringLiteral("PENDING")), qint64(3));
        sampler.stop();

        DatabaseUrl unreachable;
        unreachable.kind = DatabaseKind::PostgreSql;
        unreachable.host = QStringLiteral("127.0.0.1");
        unreachable.port = 1;
        unreachable.user = QStringLiteral("x");
        unreachable.database = QStringLiteral("x");
        MetricsSampler broken(DatabaseTarget(unreachable, QString()));
        QSignalSpy failures(&broken, &MetricsSampler::failed);
        broken.start(100);
        QTRY_VERIFY_WITH_TIMEOUT(failures.count() >= 1, 5000);
        QVERIFY(failures.first().at(0).toString().contains(QStringLiteral("cannot connect")));
    }
};

QTEST_GUILESS_MAIN(TestMetricsQuery)
#include "tst_metricsquery.moc"
