#include "core/broker/kafka/EmbeddedBroker.h"
#include "core/db/DeadLetterStore.h"
#include "core/ops/OperatorActions.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TopicReader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTest>
#include <memory>

using namespace outbox;
using namespace outbox::test;

// Dead-letter replay with real `outboxctl relay` processes against the embedded broker: every
// replay goes out once however many relays run, and a replay that cannot succeed stops trying
// and lands where an operator can act on it.
namespace {

std::unique_ptr<QProcess> startRelay(const QString& dbUrl, const QString& bootstrap, const QString& workerId,
                                     const QString& failpoints = {}, const QStringList& extra = {})
{
    return startOutboxctl(
        QStringList{QStringLiteral("relay"), QStringLiteral("--db"), dbUrl,
                    QStringLiteral("--kafka-bootstrap"), bootstrap, QStringLiteral("--worker-id"), workerId,
                    QStringLiteral("--lease-ms"), QStringLiteral("3000"), QStringLiteral("--poll-ms"),
                    QStringLiteral("100"), QStringLiteral("--backoff-base-ms"), QStringLiteral("100"),
                    QStringLiteral("--backoff-cap-ms"), QStringLiteral("500"), QStringLiteral("-X"),
                    QStringLiteral("message.timeout.ms=800")} +
            extra,
        failpoints);
}

using Cli = OutboxctlRun;

Cli outboxctl(const QStringList& args)
{
    return runOutboxctl(args, {}, 60000);
}

std::unique_ptr<EmbeddedBroker> broker()
{
    auto b = EmbeddedBroker::start(1);
    if (!b || !(*b)->createTopic(QStringLiteral("order"), 6))
        qFatal("broker");
    return std::move(b).value();
}

// Dead letters of consumer "inventory" on topic "order", already asked to be replayed.
QVector<qint64> replayingLetters(Database& db, int count, const QByteArray& payload = "{\"n\":1}")
{
    QVector<qint64> ids;
    for (int i = 0; i < count; ++i) {
        DeadLetter l;
        l.consumerName = QStringLiteral("inventory");
        l.eventId = QStringLiteral("dl-%1").arg(i);
        l.topic = QStringLiteral("order");
        l.messageKey = QStringLiteral("order-%1").arg(i);
        l.headers = QByteArrayLiteral("{\"event_id\":\"dl-") + QByteArray::number(i) +
                    QByteArrayLiteral("\",\"schema_version\":\"1\"}");
        l.payload = payload;
        l.error = QStringLiteral("unknown SKU");
        auto id = DeadLetterStore(db).insert(l);
        if (!id)
            qFatal("%s", qPrintable(id.message()));
        ids << *id;
    }
    ActionRequest request;
    request.ids = ids;
    request.reason = QStringLiteral("SKU added");
    request.actor = QStringLiteral("carol");
    auto replay = OperatorActions(db).replayDeadLetters(request);
    if (!replay || replay->affected != count)
        qFatal("replay request failed: %s",
               qPrintable(replay ? QStringLiteral("partial") : replay.message()));
    return ids;
}

qint64 letters(Database& db, const QString& where)
{
    return countRows(db, QStringLiteral("{dead_letters}"), where);
}

} // namespace

class TestReplayCrash : public QObject
{
    Q_OBJECT

private slots:
    // Two relays, each stalling 2 s between the ack of its first replay and the mark: with a
    // plain SELECT both produced every REPLAYING row; claimed under a lease, each goes out once.
    void twoRelaysReplayEachDeadLetterOnce_data() { TestDatabases::addKinds(); }
    void twoRelaysReplayEachDeadLetterOnce()
    {
        QFETCH(QString, kind);
        auto b = broker();
        auto db = TestDatabases::fresh(kind, kind);
        const QString url = TestDatabases::urlText(db->url());
        replayingLetters(*db, 20);
        const QString stall = QStringLiteral("replay.after_ack_before_mark=1*sleep(2000)");
        auto a = startRelay(url, b->bootstrap(), QStringLiteral("replayer-a"), stall);
        auto c = startRelay(url, b->bootstrap(), QStringLiteral("replayer-b"), stall);
        QTRY_COMPARE_WITH_TIMEOUT(letters(*db, QStringLiteral("status = 'REPLAYED'")), qint64(20), 30000);
        QTest::qWait(1500); // a relay that produced a copy late would have done so by now
        QCOMPARE(terminateAndWait(*a), 0);
        QCOMPARE(terminateAndWait(*c), 0);
        QHash<QByteArray, int> copies;
        for (const ConsumedMessage& m : readTopic(b->bootstrap(), QStringLiteral("order"), -1, 3000))
            if (m.headers.contains("x-replay-count"))
                ++copies[m.headers.value("event_id")];
        QCOMPARE(copies.size(), 20);
        for (auto it = copies.cbegin(); it != copies.cend(); ++it)
            QVERIFY2(
                it.value() == 1,
                qPrintable(
                    QStringLiteral("%1 went out %2 times").arg(QString::fromUtf8(it.key())).arg(it.value())));
        QCOMPARE(letters(*db, QStringLiteral("replay_count = 1 AND replay_lease_token IS NULL")), qint64(20));
    }

    // A 2 MB dead letter is larger than the producer accepts: the broker will never take it. It
    // used to stay REPLAYING, logged every second; now it goes back to NEW with the reason, once,
    // and `dlq discard` takes it.
    void oversizedReplayGivesUpOnceAndCanBeDiscarded()
    {
        auto b = broker();
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("oversized"));
        const QString url = TestDatabases::urlText(db->url());
        const QByteArray big = "{\"blob\":\"" + QByteArray(2 * 1024 * 1024, 'x') + "\"}";
        const qint64 id = replayingLetters(*db, 1, big).first();
        auto r = startRelay(url, b->bootstrap(), QStringLiteral("oversized"));
        QTRY_COMPARE_WITH_TIMEOUT(letters(*db, QStringLiteral("status = 'NEW'")), qint64(1), 20000);
        QTest::qWait(3000); // no further attempts
        QCOMPARE(terminateAndWait(*r), 0);
        const DeadLetter l = DeadLetterStore(*db).find(id).value();
        QCOMPARE(l.status, QStringLiteral("NEW"));
        QCOMPARE(l.replayAttempts, 1);
        QVERIFY2(l.replayError.contains(QStringLiteral("too large"), Qt::CaseInsensitive),
                 qPrintable(l.replayError));
        QVERIFY(l.replayToken.isEmpty() && l.replayLeaseToken.isEmpty());
        const QString log = QString::fromUtf8(r->readAll());
        QCOMPARE(log.count(QStringLiteral("not acknowledged")), 1);
        QVERIFY2(log.contains(QStringLiteral("goes back to NEW")), qPrintable(log.right(600)));

        // Visible where operators look: the JSON list and the table.
        const Cli list = outboxctl({QStringLiteral("dlq"), QStringLiteral("list"), QStringLiteral("--db"),
                                    url, QStringLiteral("--json")});
        QCOMPARE(list.exitCode, 0);
        const QJsonObject row =
            list.json().value(QStringLiteral("dead_letters")).toArray().first().toObject();
        QCOMPARE(row.value(QStringLiteral("status")).toString(), QStringLiteral("NEW"));
        QCOMPARE(row.value(QStringLiteral("replay_attempts")).toInt(), 1);
        QVERIFY(row.value(QStringLiteral("replay_error"))
                    .toString()
                    .contains(QStringLiteral("too large"), Qt::CaseInsensitive));
        const Cli table =
            outboxctl({QStringLiteral("dlq"), QStringLiteral("list"), QStringLiteral("--db"), url});
        QVERIFY2(table.out.contains("REPLAY") && table.out.contains("failed: refused by the broker"),
                 table.out.constData());
        const Cli discard = outboxctl({QStringLiteral("dlq"), QStringLiteral("discard"), QString::number(id),
                                       QStringLiteral("--db"), url, QStringLiteral("--reason"),
                                       QStringLiteral("cannot be sent as it is"), QStringLiteral("--yes")});
        QVERIFY2(discard.exitCode == 0, discard.err.constData());
        QCOMPARE(DeadLetterStore(*db).find(id)->status, QStringLiteral("DISCARDED"));
    }

    // Replays that time out are retried after a jittered backoff, the error kept; after the attempt
    // limit they go back to NEW, and an operator's new replay starts over and goes through.
    void timedOutReplayBacksOffGivesUpAndCanBeReplayedAgain()
    {
        auto b = broker();
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("backoff"));
        const QString url = TestDatabases::urlText(db->url());
        const qint64 id = replayingLetters(*db, 1).first();
        b->setLatency(1, 2500); // answers arrive after message.timeout.ms (800)
        auto r = startRelay(url, b->bootstrap(), QStringLiteral("slow"), {},
                            {QStringLiteral("--max-attempts"), QStringLiteral("3")});
        QTRY_COMPARE_WITH_TIMEOUT(letters(*db, QStringLiteral("status = 'NEW'")), qint64(1), 40000);
        const DeadLetter l = DeadLetterStore(*db).find(id).value();
        QCOMPARE(l.replayAttempts, 3);
        QVERIFY2(l.replayError.startsWith(QStringLiteral("gave up after 3 replay attempts")),
                 qPrintable(l.replayError));
        QTest::qWait(2000);
        QCOMPARE(DeadLetterStore(*db).find(id)->replayAttempts, 3); // stopped trying

        b->setLatency(1, 0);
        const Cli again = outboxctl({QStringLiteral("dlq"), QStringLiteral("replay"), QString::number(id),
                                     QStringLiteral("--db"), url, QStringLiteral("--reason"),
                                     QStringLiteral("broker fixed"), QStringLiteral("--yes")});
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QTRY_COMPARE_WITH_TIMEOUT(DeadLetterStore(*db).find(id)->status, QStringLiteral("REPLAYED"), 20000);
        QCOMPARE(terminateAndWait(*r), 0);
        const DeadLetter done = DeadLetterStore(*db).find(id).value();
        QCOMPARE(done.replayAttempts, 1);
        QVERIFY(done.replayError.isEmpty());
        const QString log = QString::fromUtf8(r->readAll());
        for (const char* line : {"attempt 1 of 3: it stays REPLAYING and is tried again in",
                                 "attempt 2 of 3: it stays REPLAYING and is tried again in",
                                 "attempt 3 of 3: it goes back to NEW"})
            QVERIFY2(log.count(QLatin1String(line)) == 1, qPrintable(log.right(1500)));
    }
};

QTEST_GUILESS_MAIN(TestReplayCrash)
#include "tst_replaycrash.moc"
