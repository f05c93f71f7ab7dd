#include "core/db/DeadLetterStore.h"
#include "core/ops/OperatorActions.h"
#include "tests/support/TestDatabases.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QTest>
#include <QThread>
#include <atomic>

using namespace outbox;
using namespace outbox::test;

// The dead-letter store on PostgreSQL, MariaDB and SQLite: REPLAYING rows are claimed under a
// lease like events (never handed to two replayers while the lease is live), failures back off
// or give up into NEW, and any message content is stored without error and read back exactly.
namespace {

DeadLetter letter(int n)
{
    DeadLetter l;
    l.consumerName = QStringLiteral("inventory");
    l.eventId = QStringLiteral("e-%1").arg(n);
    l.topic = QStringLiteral("order");
    l.messageKey = QStringLiteral("k-%1").arg(n);
    l.headers = R"({"schema_version":"1"})";
    l.payload = "{}";
    l.error = QStringLiteral("poison");
    return l;
}

QVector<qint64> replaying(Database& db, int count)
{
    QVector<qint64> ids;
    for (int i = 0; i < count; ++i)
        ids << DeadLetterStore(db).insert(letter(i)).value();
    ActionRequest request;
    request.ids = ids;
    request.reason = QStringLiteral("fixed");
    request.actor = QStringLiteral("alice");
    auto r = OperatorActions(db).replayDeadLetters(request);
    if (!r || r->affected != count)
        qFatal("replay request failed");
    return ids;
}

ReplayClaimRequest claimFor(const QString& worker, int limit, qint64 leaseMs, int maxAttempts = 10)
{
    ReplayClaimRequest r;
    r.workerId = worker;
    r.limit = limit;
    r.leaseMs = leaseMs;
    r.maxAttempts = maxAttempts;
    return r;
}

} // namespace

class TestDeadLetterStore : public QObject
{
    Q_OBJECT

private slots:
    void fourReplayersNeverShareADeadLetter_data() { TestDatabases::addKinds(); }
    void fourReplayersNeverShareADeadLetter()
    {
        QFETCH(QString, kind);
        constexpr int Letters = 400;
        constexpr int Claimers = 4;
        auto db = TestDatabases::fresh(kind, kind);
        const auto ids = replaying(*db, Letters);
        QMutex mutex;
        QHash<qint64, QString> owner;
        QStringList problems;
        std::atomic<int> ready{0};
        QVector<int> perClaimer(Claimers, 0);
        QVector<QThread*> threads;
        for (int c = 0; c < Claimers; ++c) {
            threads << QThread::create([&, c] {
                const QString worker = QStringLiteral("replayer-%1").arg(c);
                auto conn = Database::open(db->url(), Database::Options{worker, {}, 5});
                if (!conn) {
                    QMutexLocker lock(&mutex);
                    problems << conn.message();
                    return;
                }
                DeadLetterStore store(**conn);
                ready.fetch_add(1);
                while (ready.load() < Claimers)
                    QThread::yieldCurrentThread();
                int emptyRounds = 0;
                while (emptyRounds < 3) {
                    auto claim = store.claimReplays(claimFor(worker, 10, 600000));
                    if (!claim) {
                        QMutexLocker lock(&mutex);
                        problems << claim.message();
                        return;
                    }
                    if (claim->letters.isEmpty()) {
                        ++emptyRounds;
                        QThread::msleep(20);
                        continue;
                    }
                    emptyRounds = 0;
                    QMutexLocker lock(&mutex);
                    for (const DeadLetter& l : claim->letters) {
                        if (owner.contains(l.id))
                            problems << QStringLiteral("dead letter %1 claimed by %2 and %3")
                                            .arg(l.id)
                                            .arg(owner.value(l.id), worker);
                        owner.insert(l.id, worker);
                        if (l.replayAttempts != 1 || l.replayLeaseToken != claim->leaseToken ||
                            l.replayWorker != worker)
                            problems << QStringLiteral("dead letter %1: attempts %2, worker %3")
                                            .arg(l.id)
                                            .arg(l.replayAttempts)
                                            .arg(l.replayWorker);
                    }
                    perClaimer[c] += int(claim->letters.size());
                    lock.unlock();
                    QThread::msleep(1);
                }
            });
        }
        for (QThread* t : threads)
            t->start();
        for (QThread* t : threads) {
            QVERIFY(t->wait(120000));
            delete t;
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.mid(0, 5).join(QLatin1Char('\n'))));
        QCOMPARE(owner.size(), Letters);
        for (qint64 id : ids)
            QVERIFY(owner.contains(id));
        int active = 0;
        for (int n : perClaimer)
            active += n > 0 ? 1 : 0;
        QVERIFY2(active >= 2, "the replayers did not run concurrently");
    }

    void leaseFencesAndBackoffAndGiveUp_data() { TestDatabases::addKinds(); }
    void leaseFencesAndBackoffAndGiveUp()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        const auto ids = replaying(*db, 3);
        DeadLetterStore store(*db);

        // A live lease is not handed out twice; an expired one is, and fences the old holder.
        auto stale = store.claimReplays(claimFor(QStringLiteral("a"), 1, 1));
        QVERIFY2(stale.ok(), qPrintable(stale.message()));
        QCOMPARE(stale->letters.size(), 1);
        const qint64 first = stale->letters.first().id;
        QCOMPARE(first, ids[0]);
        QThread::msleep(30);
        auto fresh = store.claimReplays(claimFor(QStringLiteral("b"), 3, 600000));
        QVERIFY(fresh.ok());
        QCOMPARE(fresh->letters.size(), 3);
        QCOMPARE(fresh->letters.first().replayAttempts, 2);
        QCOMPARE(store.claimReplays(claimFor(QStringLiteral("c"), 3, 600000))->letters.size(), 0);
        QCOMPARE(store.markReplayed(first, stale->leaseToken).value(), false);
        QCOMPARE(store.markReplayed(first, fresh->leaseToken).value(), true);
        QCOMPARE(store.find(first)->status, QStringLiteral("REPLAYED"));

        // Retry later: the error is kept and the row waits out its backoff (an operator's
        // explicit delivery does not); released: the attempt does not count.
        QVERIFY(store
                    .markReplayFailed(ids[1], fresh->leaseToken, ReplayFailure::RetryLater,
                                      QStringLiteral("timed out"), 600000)
                    .value());
        QVERIFY(store
                    .markReplayFailed(ids[2], fresh->leaseToken, ReplayFailure::Release,
                                      QStringLiteral("queue full"), 600000)
                    .value());
        QCOMPARE(store.find(ids[1])->replayError, QStringLiteral("timed out"));
        QVERIFY(store.find(ids[1])->replayAvailableAt > QDateTime::currentDateTimeUtc().addSecs(60));
        QCOMPARE(store.find(ids[1])->replayAttempts, 1);
        QCOMPARE(store.find(ids[2])->replayAttempts, 0);
        QCOMPARE(store.claimReplays(claimFor(QStringLiteral("d"), 3, 600000))->letters.size(), 0);
        ReplayClaimRequest now = claimFor(QStringLiteral("operator"), 3, 600000);
        now.ignoreBackoff = true;
        auto explicitClaim = store.claimReplays(now);
        QCOMPARE(explicitClaim->letters.size(), 2);

        // Give up: back to NEW with the reason, discardable; a new replay starts from scratch.
        QVERIFY(store
                    .markReplayFailed(ids[1], explicitClaim->leaseToken, ReplayFailure::GiveUp,
                                      QStringLiteral("Message size too large"))
                    .value());
        const DeadLetter gaveUp = store.find(ids[1]).value();
        QCOMPARE(gaveUp.status, QStringLiteral("NEW"));
        QCOMPARE(gaveUp.replayError, QStringLiteral("Message size too large"));
        QVERIFY(gaveUp.replayToken.isEmpty() && gaveUp.replayLeaseToken.isEmpty());
        // A mark under a lease that is gone changes nothing.
        QCOMPARE(store
                     .markReplayFailed(ids[1], explicitClaim->leaseToken, ReplayFailure::RetryLater,
                                       QStringLiteral("late"), 0)
                     .value(),
                 false);
        ActionRequest again;
        again.ids = {ids[1]};
        again.reason = QStringLiteral("smaller payload");
        again.actor = QStringLiteral("bob");
        QCOMPARE(OperatorActions(*db).replayDeadLetters(again)->affected, 1);
        const DeadLetter rearmed = store.find(ids[1]).value();
        QCOMPARE(rearmed.status, QStringLiteral("REPLAYING"));
        QCOMPARE(rearmed.replayAttempts, 0);
        QVERIFY(rearmed.replayError.isEmpty());
        ActionRequest discard;
        discard.ids = {ids[2]};
        discard.reason = QStringLiteral("not needed");
        discard.actor = QStringLiteral("bob");
        QVERIFY(store
                    .markReplayFailed(ids[2], explicitClaim->leaseToken, ReplayFailure::GiveUp,
                                      QStringLiteral("x"))
                    .value());
        QCOMPARE(OperatorActions(*db).discardDeadLetters(discard)->affected, 1);
    }

    // A replay whose replayer dies on every try: out of attempts with no live lease, the next
    // claim hands it back to NEW instead of producing it again for ever.
    void crashLoopingReplayGoesBackToNew_data() { TestDatabases::addKinds(); }
    void crashLoopingReplayGoesBackToNew()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        const qint64 id = replaying(*db, 1).first();
        DeadLetterStore store(*db);
        for (int attempt = 1; attempt <= 2; ++attempt) {
            auto claim = store.claimReplays(claimFor(QStringLiteral("crashing"), 1, 1, 2));
            QVERIFY(claim.ok());
            QCOMPARE(claim->letters.size(), 1);
            QCOMPARE(claim->gaveUp, 0);
            QThread::msleep(30); // crash: the lease runs out
        }
        auto last = store.claimReplays(claimFor(QStringLiteral("crashing"), 1, 1, 2));
        QVERIFY(last.ok());
        QCOMPARE(last->letters.size(), 0);
        QCOMPARE(last->gaveUp, 1);
        const DeadLetter l = store.find(id).value();
        QCOMPARE(l.status, QStringLiteral("NEW"));
        QVERIFY2(l.replayError.startsWith(QStringLiteral("gave up after 2 replay attempts")),
                 qPrintable(l.replayError));
    }

    // Nothing in a message may make writing its dead letter fail (a stalled partition), and what
    // is stored reads back exactly.
    void anyContentIsStoredAndReadBackExactly_data() { TestDatabases::addKinds(); }
    void anyContentIsStoredAndReadBackExactly()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        DeadLetterStore store(*db);
        DeadLetter l = letter(1);
        l.eventId = QString(400, QLatin1Char('x'));
        l.key = QByteArray(70000, '\0');
        l.rawHeaders = {{"event_id", "e-1"},
                        {"bin", QByteArray("\xff\x00\xfe", 3)},
                        {"bin", "again"},
                        {QByteArray("n\0me", 4), "v"}};
        l.payload = QByteArray("\x00\x01\x02\xc3\x28", 5);
        l.error = QString(70000, QLatin1Char('E')) + QChar(0);
        l.stacktrace = QStringLiteral("at\u0000here");
        auto id = store.insert(l);
        QVERIFY2(id.ok(), qPrintable(id.message()));
        const DeadLetter back = store.find(*id).value();
        QCOMPARE(back.eventId, DeadLetter::storableEventId(l.eventId));
        QVERIFY(back.eventId.size() <= DeadLetter::MaxEventIdLength);
        QCOMPARE(back.exactKey(), l.key);
        QCOMPARE(back.exactHeaders(), l.rawHeaders);
        QCOMPARE(back.payload, l.payload);
        QVERIFY(!back.payloadIsText);
        QVERIFY(back.error.size() <= 8001);
        QVERIFY(!back.stacktrace.contains(QChar(0)));
        for (const char* said :
             {"event_id of 400", "message_key_bytes", "raw_headers", "payload_bytes", "error of"})
            QVERIFY2(back.storageNote.contains(QLatin1String(said)), qPrintable(back.storageNote));

        // Clean text stays in the text columns; no key stays "no key", an empty key stays empty.
        DeadLetter plain = letter(2);
        plain.messageKey = QString();
        const DeadLetter plainBack = store.find(store.insert(plain).value()).value();
        QVERIFY(plainBack.exactKey().isNull());
        QVERIFY(plainBack.payloadIsText);
        QVERIFY(plainBack.storageNote.isEmpty());
        QCOMPARE(QJsonDocument::fromJson(plainBack.headers)
                     .object()
                     .value(QStringLiteral("schema_version"))
                     .toString(),
                 QStringLiteral("1"));
        DeadLetter empty = letter(3);
        empty.key = QByteArray("");
        const DeadLetter emptyBack = store.find(store.insert(empty).value()).value();
        QVERIFY(!emptyBack.exactKey().isNull());
        QCOMPARE(emptyBack.exactKey(), QByteArray(""));
    }
};

QTEST_GUILESS_MAIN(TestDeadLetterStore)
#include "tst_deadletterstore.moc"
