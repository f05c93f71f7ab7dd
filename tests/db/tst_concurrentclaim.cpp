#include "core/db/EventStore.h"
#include "tests/support/TestDatabases.h"

#include <QHash>
#include <QMutex>
#include <QTest>
#include <QThread>
#include <atomic>

using namespace outbox;
using namespace outbox::test;

// Four claimers, each on its own thread and connection, drain 20,000 events. Every event must be
// claimed exactly once: SKIP LOCKED (or BEGIN IMMEDIATE on SQLite) must never hand a row to two
// claimers while its lease is live.
class TestConcurrentClaim : public QObject
{
    Q_OBJECT

private slots:
    void fourClaimersNeverShareAnEvent_data() { TestDatabases::addKinds(); }
    void fourClaimersNeverShareAnEvent()
    {
        QFETCH(QString, kind);
        constexpr int Events = 20000;
        constexpr int Claimers = 4;
        auto db = TestDatabases::fresh(kind, kind);
        const auto ids = insertEvents(*db, Events);
        QCOMPARE(ids.size(), Events);

        QMutex mutex;
        QHash<qint64, QString> owner; // event id -> claimer that holds it
        QStringList problems;
        std::atomic<int> claimed{0};
        std::atomic<int> ready{0};
        QVector<QThread*> threads;
        QVector<int> perClaimer(Claimers, 0);
        for (int c = 0; c < Claimers; ++c) {
            threads << QThread::create([&, c] {
                const QString worker = QStringLiteral("claimer-%1").arg(c);
                auto conn = Database::open(db->url(), Database::Options{worker, {}, 5});
                if (!conn) {
                    QMutexLocker lock(&mutex);
                    problems << conn.message();
                    return;
                }
                EventStore store(**conn);
                // Start together once every connection is open.
                ready.fetch_add(1);
                while (ready.load() < Claimers)
                    QThread::yieldCurrentThread();
                int emptyRounds = 0;
                while (emptyRounds < 3) {
                    auto batch = store.claim(worker, 100, 600000);
                    if (!batch) {
                        QMutexLocker lock(&mutex);
                        problems << batch.message();
                        return;
                    }
                    if (batch->events.isEmpty()) {
                        ++emptyRounds;
                        QThread::msleep(20);
                        continue;
                    }
                    emptyRounds = 0;
                    QMutexLocker lock(&mutex);
                    for (const OutboxEvent& e : batch->events) {
                        if (owner.contains(e.id))
                            problems << QStringLiteral("event %1 claimed by %2 and %3")
                                            .arg(e.id)
                                            .arg(owner.value(e.id), worker);
                        owner.insert(e.id, worker);
                        if (e.attempts != 1)
                            problems << QStringLiteral("event %1 has attempts %2").arg(e.id).arg(e.attempts);
                    }
                    claimed += int(batch->events.size());
                    perClaimer[c] += int(batch->events.size());
                    lock.unlock();
                    QThread::msleep(1); // a relay produces between claims
                }
            });
        }
        for (QThread* t : threads)
            t->start();
        for (QThread* t : threads) {
            QVERIFY(t->wait(300000));
            delete t;
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 5).join(QLatin1Char('\n'))));
        QCOMPARE(claimed.load(), Events);
        QCOMPARE(owner.size(), Events);
        for (qint64 id : ids)
            QVERIFY(owner.contains(id));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENDING'")),
                 qint64(Events));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("attempts <> 1")), qint64(0));
        int active = 0;
        for (int n : perClaimer)
            active += n > 0 ? 1 : 0;
        qInfo("%s: claims per claimer %d / %d / %d / %d", qPrintable(kind), perClaimer[0], perClaimer[1],
              perClaimer[2], perClaimer[3]);
        QVERIFY2(active >= 2, "the claimers did not run concurrently");
    }
};

QTEST_GUILESS_MAIN(TestConcurrentClaim)
#include "tst_concurrentclaim.moc"
