#include "core/db/DeadLetterStore.h"
#include "tests/consumer/ConsumerTestKit.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TopicReader.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

// The consumer-side failure windows of the article with the real `outboxctl consume
// --demo-inventory` process and failpoints: a crash after the commit and before the ACK, a crash
// before the inbox write, and a replay that crashes between the broker's ack and the REPLAYED
// mark. After every crash the business effect happens exactly once and nothing is lost.
namespace {

const QString Topic = QStringLiteral("order");

std::unique_ptr<QProcess> startConsumer(const QString& dbUrl, const QString& bootstrap,
                                        const QString& failpoints = {})
{
    return startOutboxctl({QStringLiteral("consume"), QStringLiteral("--demo-inventory"),
                           QStringLiteral("--db"), dbUrl, QStringLiteral("--kafka-bootstrap"), bootstrap,
                           QStringLiteral("--transient-percent"), QStringLiteral("0"),
                           QStringLiteral("--backoff-base-ms"), QStringLiteral("20"),
                           QStringLiteral("--backoff-cap-ms"), QStringLiteral("100"),
                           // The embedded broker gives a crashed member's partitions back after the
                           // session timeout: 3 s instead of the product's 6 s saves ~5 s a crash
                           // (15 crashes a run); heartbeats every 500 ms keep a live member in.
                           QStringLiteral("-X"), QStringLiteral("session.timeout.ms=3000"),
                           QStringLiteral("-X"), QStringLiteral("heartbeat.interval.ms=500")},
                          failpoints);
}

QString stopConsumer(QProcess& p)
{
    const int code = terminateAndWait(p);
    const QString log = QString::fromUtf8(p.readAll());
    if (code != 0)
        qWarning("consumer exit %d: %s", code, qPrintable(log.right(1500)));
    return log;
}

qint64 stoppedCounter(const QString& log, const QString& name)
{
    const auto m = QRegularExpression(QStringLiteral("stopped; .*%1 (\\d+)").arg(name)).match(log);
    return m.hasMatch() ? m.captured(1).toLongLong() : -1;
}

// `count` orders with known SKUs (quantity 1..3), produced straight to the topic.
qint64 produceOrders(const QString& bootstrap, int count, int first = 0)
{
    QVector<BrokerMessage> messages;
    qint64 quantity = 0;
    for (int i = first; i < first + count; ++i) {
        const int q = 1 + i % 3;
        quantity += q;
        messages << orderMessage(Topic, QStringLiteral("evt-%1").arg(i), QStringLiteral("O%1").arg(i),
                                 QStringLiteral("SKU-%1").arg(i % 40), q);
    }
    produce(bootstrap, messages);
    return quantity;
}

// The offsets the "inventory" group committed, summed over the topic's 3 partitions.
qint64 committedOffsetsTotal(const QString& bootstrap)
{
    char err[512];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.toUtf8().constData(), err, sizeof err);
    rd_kafka_conf_set(conf, "group.id", "inventory", err, sizeof err);
    rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof err);
    rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(3);
    for (int p = 0; p < 3; ++p)
        rd_kafka_topic_partition_list_add(list, Topic.toUtf8().constData(), p);
    qint64 total = -1;
    if (rd_kafka_committed(rk, list, 10000) == RD_KAFKA_RESP_ERR_NO_ERROR) {
        total = 0;
        for (int i = 0; i < list->cnt; ++i)
            total += std::max<qint64>(0, list->elems[i].offset);
    }
    rd_kafka_topic_partition_list_destroy(list);
    rd_kafka_destroy(rk);
    return total;
}

qint64 reserved(Database& db)
{
    return db.scalar(QStringLiteral("SELECT COALESCE(SUM(reserved), 0) FROM demo_inventory"))->toLongLong();
}

} // namespace

class TestConsumerCrash : public QObject
{
    Q_OBJECT

private slots:
    void crashAfterCommitBeforeAckIsSkippedByTheInbox_data() { TestDatabases::addKinds(); }
    void crashAfterCommitBeforeAckIsSkippedByTheInbox()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        const QString url = TestDatabases::urlText(db->url());
        auto broker = startBroker(Topic, 3);
        const int orders = 60;
        const qint64 quantity = produceOrders(broker->bootstrap(), orders);

        // A batch: the crash comes after its transaction committed and before its offsets did.
        auto crashing =
            startConsumer(url, broker->bootstrap(), QStringLiteral("consumer.after_commit_before_ack=crash"));
        QVERIFY(crashing->waitForFinished(60000));
        QCOMPARE(crashing->exitCode(), 86);
        const qint64 committed = countRows(*db, QStringLiteral("demo_reservations"));
        QVERIFY(committed >= 1); // committed, never acknowledged
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"), QStringLiteral("status = 'PROCESSED'")),
                 committed);
        QCOMPARE(committedOffsetsTotal(broker->bootstrap()), qint64(0));

        auto again = startConsumer(url, broker->bootstrap());
        QTRY_COMPARE_WITH_TIMEOUT(countRows(*db, QStringLiteral("demo_reservations")), qint64(orders), 90000);
        QTRY_COMPARE_WITH_TIMEOUT(committedOffsetsTotal(broker->bootstrap()), qint64(orders), 30000);
        const QString log = stopConsumer(*again);
        QCOMPARE(again->exitCode(), 0);
        // The redelivered batch: duplicates only, each skipped by the inbox.
        QVERIFY2(stoppedCounter(log, QStringLiteral("duplicates")) >= committed, qPrintable(log.right(600)));
        QCOMPARE(stoppedCounter(log, QStringLiteral("processed")), orders - committed);
        QCOMPARE(reserved(*db), quantity); // stock reserved once per order
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"),
                           QStringLiteral("status = 'PROCESSED' AND consumer_name = 'inventory'")),
                 qint64(orders));
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}")), qint64(0));
    }

    // Dead letters are written in the batch's transaction: a crash after that commit and before the
    // ACK brings the failed orders again, and each still has exactly one dead letter (and the
    // others one reservation).
    void aDeadLetterCommittedWithItsBatchIsStoredOnce_data() { TestDatabases::addKinds(); }
    void aDeadLetterCommittedWithItsBatchIsStoredOnce()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        const QString url = TestDatabases::urlText(db->url());
        auto broker = startBroker(Topic, 3);
        const int orders = 60;
        QVector<BrokerMessage> messages;
        for (int i = 0; i < orders; ++i)
            messages << orderMessage(
                Topic, QStringLiteral("evt-%1").arg(i), QStringLiteral("O%1").arg(i),
                i % 10 == 3 ? QStringLiteral("SKU-404") : QStringLiteral("SKU-%1").arg(i % 40), 1);
        produce(broker->bootstrap(), messages);

        auto crashing =
            startConsumer(url, broker->bootstrap(), QStringLiteral("consumer.after_commit_before_ack=crash"));
        QVERIFY(crashing->waitForFinished(60000));
        QCOMPARE(crashing->exitCode(), 86);
        const qint64 lettersAtCrash = countRows(*db, QStringLiteral("{dead_letters}"));
        QVERIFY(lettersAtCrash + countRows(*db, QStringLiteral("demo_reservations")) >= 1);
        QCOMPARE(committedOffsetsTotal(broker->bootstrap()), qint64(0));

        auto again = startConsumer(url, broker->bootstrap());
        QTRY_COMPARE_WITH_TIMEOUT(committedOffsetsTotal(broker->bootstrap()), qint64(orders), 90000);
        const QString log = stopConsumer(*again);
        QCOMPARE(again->exitCode(), 0);
        QCOMPARE(countRows(*db, QStringLiteral("demo_reservations")), qint64(orders - 6));
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}")), qint64(6));
        QCOMPARE(
            db->scalar(QStringLiteral("SELECT COUNT(DISTINCT event_id) FROM {dead_letters}"))->toLongLong(),
            qint64(6));
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"), QStringLiteral("status = 'FAILED'")), qint64(6));
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"), QStringLiteral("status = 'PROCESSED'")),
                 qint64(orders - 6));
    }

    // A crash inside the batch transaction, after every handler ran and before COMMIT: nothing of
    // the batch is stored or acknowledged, and the next run processes every message once.
    void crashBeforeBatchCommitLosesNothing_data() { TestDatabases::addKinds(); }
    void crashBeforeBatchCommitLosesNothing()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        const QString url = TestDatabases::urlText(db->url());
        auto broker = startBroker(Topic, 3);
        const int orders = 60;
        const qint64 quantity = produceOrders(broker->bootstrap(), orders);

        auto crashing =
            startConsumer(url, broker->bootstrap(), QStringLiteral("consumer.before_batch_commit=crash"));
        QVERIFY(crashing->waitForFinished(60000));
        QCOMPARE(crashing->exitCode(), 86);
        QCOMPARE(countRows(*db, QStringLiteral("demo_reservations")), qint64(0));
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}")), qint64(0));
        QCOMPARE(committedOffsetsTotal(broker->bootstrap()), qint64(0));

        auto again = startConsumer(url, broker->bootstrap());
        QTRY_COMPARE_WITH_TIMEOUT(countRows(*db, QStringLiteral("demo_reservations")), qint64(orders), 90000);
        const QString log = stopConsumer(*again);
        QCOMPARE(again->exitCode(), 0);
        QCOMPARE(stoppedCounter(log, QStringLiteral("processed")), qint64(orders));
        QCOMPARE(stoppedCounter(log, QStringLiteral("duplicates")), qint64(0));
        QCOMPARE(reserved(*db), quantity);
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"), QStringLiteral("status = 'PROCESSED'")),
                 qint64(orders));
    }

    void crashBeforeInboxWriteIsProcessedOnceLater_data() { TestDatabases::addKinds(); }
    void crashBeforeInboxWriteIsProcessedOnceLater()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        const QString url = TestDatabases::urlText(db->url());
        auto broker = startBroker(Topic, 3);
        const int orders = 40;
        const qint64 quantity = produceOrders(broker->bootstrap(), orders);

        auto crashing =
            startConsumer(url, broker->bootstrap(), QStringLiteral("consumer.before_inbox_write=crash"));
        QVERIFY(crashing->waitForFinished(60000));
        QCOMPARE(crashing->exitCode(), 86);
        QCOMPARE(countRows(*db, QStringLiteral("demo_reservations")), qint64(0));
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}")), qint64(0));

        auto again = startConsumer(url, broker->bootstrap());
        QTRY_COMPARE_WITH_TIMEOUT(countRows(*db, QStringLiteral("demo_reservations")), qint64(orders), 90000);
        const QString log = stopConsumer(*again);
        QCOMPARE(stoppedCounter(log, QStringLiteral("processed")), qint64(orders));
        QCOMPARE(stoppedCounter(log, QStringLiteral("duplicates")), qint64(0));
        QCOMPARE(reserved(*db), quantity);
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"), QStringLiteral("status = 'PROCESSED'")),
                 qint64(orders));
    }

    void replayCrashBetweenAckAndMarkLosesNothing_data() { TestDatabases::addKinds(); }
    void replayCrashBetweenAckAndMarkLosesNothing()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        const QString url = TestDatabases::urlText(db->url());
        auto broker = startBroker(Topic, 3);
        const int orders = 10;
        produceOrders(broker->bootstrap(), orders);
        produce(broker->bootstrap(), {orderMessage(Topic, QStringLiteral("evt-404"), QStringLiteral("O404"),
                                                   QStringLiteral("SKU-404"), 2)});

        auto consumer = startConsumer(url, broker->bootstrap());
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{dead_letters}"), QStringLiteral("status = 'NEW'")), qint64(1),
            90000);
        QTRY_COMPARE_WITH_TIMEOUT(countRows(*db, QStringLiteral("demo_reservations")), qint64(orders), 30000);
        const qint64 letter = db->scalar(QStringLiteral("SELECT id FROM {dead_letters}"))->toLongLong();
        QVERIFY(DeadLetterStore(*db).find(letter)->error.contains(QStringLiteral("unknown SKU SKU-404")));

        // The fix: the SKU enters the catalog. Then a one-shot delivery that crashes after the ack.
        QVERIFY(db->exec(QStringLiteral(
                             "INSERT INTO demo_inventory (sku, stock, reserved) VALUES ('SKU-404', 10, 0)"))
                    .ok());
        QProcessEnvironment crashAfterAck;
        crashAfterAck.insert(QStringLiteral("OUTBOX_FAILPOINTS"),
                             QStringLiteral("replay.after_ack_before_mark=crash"));
        const OutboxctlRun replay = runOutboxctl(
            {QStringLiteral("dlq"), QStringLiteral("replay"), QString::number(letter),
             QStringLiteral("--deliver"), QStringLiteral("--kafka-bootstrap"), broker->bootstrap(),
             QStringLiteral("--db"), url, QStringLiteral("--reason"), QStringLiteral("SKU-404 added"),
             QStringLiteral("--actor"), QStringLiteral("carol"), QStringLiteral("--yes")},
            crashAfterAck, 60000);
        QCOMPARE(replay.exitCode, 86);
        QCOMPARE(DeadLetterStore(*db).find(letter)->status,
                 QStringLiteral("REPLAYING")); // delivered, not marked
        // Delivered all the same: the consumer reserves the stock once.
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("demo_reservations"), QStringLiteral("order_id = 'O404'")),
            qint64(1), 30000);

        // The retry (here the one-shot form; a running relay does the same) delivers again and marks.
        const OutboxctlRun retry = runOutboxctl(
            {QStringLiteral("dlq"), QStringLiteral("replay"), QStringLiteral("--deliver"),
             QStringLiteral("--kafka-bootstrap"), broker->bootstrap(), QStringLiteral("--db"), url},
            {}, 60000);
        QCOMPARE(retry.exitCode, 0);
        QVERIFY(retry.out.contains("delivered 1 dead letter(s)"));
        const DeadLetter done = DeadLetterStore(*db).find(letter).value();
        QCOMPARE(done.status, QStringLiteral("REPLAYED"));
        QCOMPARE(done.replayCount, 1);
        QCOMPARE(done.replayedBy, QStringLiteral("carol"));

        // Two copies on the topic, one business effect.
        int copies = 0;
        for (const ConsumedMessage& m : readTopic(broker->bootstrap(), Topic, -1, 3000))
            copies +=
                m.headers.value("event_id") == "evt-404" && m.headers.value("x-replay-count") == "1" ? 1 : 0;
        QCOMPARE(copies, 2);
        QTRY_VERIFY_WITH_TIMEOUT(countRows(*db, QStringLiteral("{inbox}"),
                                           QStringLiteral("event_id = 'evt-404' AND status = 'PROCESSED'")) ==
                                     1,
                                 10000);
        QTest::qWait(1500); // let the second copy arrive
        const QString log = stopConsumer(*consumer);
        QVERIFY2(stoppedCounter(log, QStringLiteral("duplicates")) >= 1, qPrintable(log.right(600)));
        QCOMPARE(countRows(*db, QStringLiteral("demo_reservations"), QStringLiteral("order_id = 'O404'")),
                 qint64(1));
        QCOMPARE(db->scalar(QStringLiteral("SELECT reserved FROM demo_inventory WHERE sku = 'SKU-404'"))
                     ->toLongLong(),
                 qint64(2));
    }
};

QTEST_GUILESS_MAIN(TestConsumerCrash)
#include "tst_consumercrash.moc"
