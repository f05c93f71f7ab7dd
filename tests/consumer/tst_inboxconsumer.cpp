#include "core/db/DeadLetterStore.h"
#include "core/db/InboxStore.h"
#include "core/ops/OperatorActions.h"
#include "core/relay/DeadLetterReplayer.h"
#include "core/support/Failpoints.h"
#include "tests/consumer/ConsumerTestKit.h"
#include "tests/support/BrokerTestKit.h"
#include "tests/support/RelayThread.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TopicReader.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QMutex>
#include <QSqlQuery>
#include <QTest>
#include <algorithm>

using namespace outbox;
using namespace outbox::test;

// The InboxConsumer in-process against the embedded broker and real databases: duplicates change
// the business table once, poison messages become dead letters without blocking their partition,
// and a dead letter replayed after a fix is processed exactly once.
namespace {

// A business change that is NOT idempotent by itself: every call adds a row to test_effects.
// Payload {"fail":"permanent"|"transient"|"once"} makes it fail on purpose.
HandlerResult ledger(Database& db, const InboxMessage& m)
{
    const QString fail = m.json.object().value(QStringLiteral("fail")).toString();
    if (fail == QLatin1String("permanent"))
        return HandlerResult::permanent(QStringLiteral("order is closed"),
                                        QStringLiteral("ledger: order closed"));
    if (fail == QLatin1String("transient") || (fail == QLatin1String("once") && m.attempt == 1))
        return HandlerResult::transient(QStringLiteral("lock wait timeout"));
    const QString sku = m.json.object().value(QStringLiteral("sku")).toString();
    if (!sku.isEmpty()) {
        auto known = db.scalar(QStringLiteral("SELECT COUNT(*) FROM test_catalog WHERE sku = :sku"),
                               {{QStringLiteral(":sku"), sku}});
        if (!known)
            return HandlerResult::transient(known.message());
        if (known->toInt() == 0)
            return HandlerResult::permanent(QStringLiteral("unknown SKU %1").arg(sku));
    }
    auto q = db.exec(QStringLiteral("INSERT INTO test_effects (event_id, partition_no) VALUES (:e, :p)"),
                     {{QStringLiteral(":e"), m.eventId}, {QStringLiteral(":p"), m.partition}});
    return q ? HandlerResult::ok() : HandlerResult::transient(q.message());
}

// What a test's handlers were called with.
struct HandlerCalls
{
    QMutex lock;
    QVector<int> batchSizes;
    QStringList batched; // every event_id each batch call was given
    QStringList single;  // "event_id@attempt" of the per-message handler's calls
};

// ledger(), each call recorded in `calls`.
InboxConsumer::Handler recordedLedger(const std::shared_ptr<HandlerCalls>& calls)
{
    return [calls](Database& d, const InboxMessage& m) {
        {
            QMutexLocker locker(&calls->lock);
            calls->single << QStringLiteral("%1@%2").arg(m.eventId).arg(m.attempt);
        }
        return ledger(d, m);
    };
}

void createBusinessTables(Database& db)
{
    QVERIFY(db.exec(QStringLiteral(
                        "CREATE TABLE test_effects (event_id VARCHAR(64) NOT NULL, partition_no INTEGER)"))
                .ok());
    QVERIFY(db.exec(QStringLiteral("CREATE TABLE test_catalog (sku VARCHAR(64) PRIMARY KEY)")).ok());
    QVERIFY(db.exec(QStringLiteral("INSERT INTO test_catalog (sku) VALUES ('SKU-1')")).ok());
}

BrokerMessage raw(const QString& topic, const QByteArray& payload, const QVector<BrokerHeader>& headers)
{
    BrokerMessage m;
    m.topic = topic;
    m.key = "k";
    m.payload = payload;
    m.headers = headers;
    return m;
}

QVector<BrokerHeader> headersFor(const QByteArray& eventId, const QByteArray& schema = "1")
{
    return {{"event_id", eventId}, {"event_type", "Test"}, {"schema_version", schema}};
}

// Committed offsets of the consumer group, per partition.
QVector<qint64> committedOffsets(const QString& bootstrap, const QString& group, const QString& topic,
                                 int partitions)
{
    char err[512];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.toUtf8().constData(), err, sizeof err);
    rd_kafka_conf_set(conf, "group.id", group.toUtf8().constData(), err, sizeof err);
    rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof err);
    rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(partitions);
    for (int p = 0; p < partitions; ++p)
        rd_kafka_topic_partition_list_add(list, topic.toUtf8().constData(), p);
    QVector<qint64> out(partitions, -1);
    if (rd_kafka_committed(rk, list, 10000) == RD_KAFKA_RESP_ERR_NO_ERROR)
        for (int i = 0; i < list->cnt; ++i)
            out[list->elems[i].partition] = list->elems[i].offset;
    rd_kafka_topic_partition_list_destroy(list);
    rd_kafka_destroy(rk);
    return out;
}

} // namespace

class TestInboxConsumer : public QObject
{
    Q_OBJECT

private:
    void namedAtOnce(bool withAlwaysBusy)
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        createBusinessTables(*db);
        const QString topic = QStringLiteral("named");
        auto broker = startBroker(topic, 1);
        const int events = 60;
        QVector<BrokerMessage> messages;
        for (int i = 0; i < events; ++i) {
            const QByteArray payload = i == 10                     ? QByteArray("{\"fail\":\"permanent\"}")
                                       : i == 20                   ? QByteArray("{\"fail\":\"once\"}")
                                       : i == 45 && withAlwaysBusy ? QByteArray("{\"fail\":\"transient\"}")
                                                                   : QByteArray("{}");
            messages << raw(topic, payload, headersFor(QByteArray("evt-") + QByteArray::number(i)));
        }
        produce(broker->bootstrap(), messages);

        auto calls = std::make_shared<HandlerCalls>();
        const InboxConsumer::Handler single = recordedLedger(calls);
        auto batch = [calls](Database& d, const QVector<const InboxMessage*>& ms) {
            QVector<BatchHandlerResult::Failure> failures;
            QVariantList values;
            int rows = 0;
            for (int i = 0; i < ms.size(); ++i) {
                {
                    QMutexLocker locker(&calls->lock);
                    calls->batched << ms.at(i)->eventId;
                }
                const QString fail = ms.at(i)->json.object().value(QStringLiteral("fail")).toString();
                if (fail == QLatin1String("permanent"))
                    failures.append({i, HandlerResult::permanent(QStringLiteral("order is closed"))});
                else if (fail == QLatin1String("once") || fail == QLatin1String("transient"))
                    failures.append({i, HandlerResult::transient(QStringLiteral("lock wait timeout"))});
                else {
                    values << ms.at(i)->eventId << ms.at(i)->partition;
                    ++rows;
                }
            }
            if (rows > 0) {
                auto q = d.execPositional(
                    QStringLiteral("INSERT INTO test_effects (event_id, partition_no) VALUES ") +
                        QStringList(rows, QStringLiteral("(?, ?)")).join(QLatin1Char(',')),
                    values);
                if (!q)
                    return BatchHandlerResult::failed(HandlerResult::transient(q.message()));
            }
            return failures.isEmpty() ? BatchHandlerResult::ok() : BatchHandlerResult::doneExcept(failures);
        };
        ConsumerOptions options = testConsumerOptions(broker->bootstrap(), topic, QStringLiteral("ledger"));
        options.batchSize = 500;
        options.batchMaxWaitMs = 300;
        ConsumerThread consumer(db->url(), options, single);
        consumer.setBatchHandler(batch);
        consumer.start();
        QTRY_COMPARE_WITH_TIMEOUT(
            committedOffsets(broker->bootstrap(), QStringLiteral("ledger"), topic, 1).value(0),
            qint64(events), 60000);
        consumer.stop();

        const int failedForGood = withAlwaysBusy ? 2 : 1;
        QCOMPARE(consumer.stats().processed.load(), qint64(events - failedForGood));
        QCOMPARE(consumer.stats().deadLettered.load(), qint64(failedForGood));
        QCOMPARE(countRows(*db, QStringLiteral("test_effects")), qint64(events - failedForGood));
        QCOMPARE(
            db->scalar(QStringLiteral("SELECT COUNT(DISTINCT event_id) FROM test_effects"))->toLongLong(),
            qint64(events - failedForGood));
        QCOMPARE(countRows(*db, QStringLiteral("test_effects"),
                           QStringLiteral("event_id IN ('evt-10', 'evt-45')")),
                 qint64(withAlwaysBusy ? 0 : 1));
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"), QStringLiteral("status = 'PROCESSED'")),
                 qint64(events - failedForGood));
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"),
                           QStringLiteral("status = 'PROCESSED' AND event_id = 'evt-20' AND attempts = 2")),
                 qint64(1));
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"),
                           QStringLiteral("status = 'FAILED' AND event_id = 'evt-10' AND attempts = 1")),
                 qint64(1));
        QCOMPARE(
            countRows(*db, QStringLiteral("{dead_letters}"),
                      QStringLiteral("event_id = 'evt-10' AND error = 'order is closed' AND attempts = 1")),
            qint64(1));
        if (withAlwaysBusy)
            QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}"),
                               QStringLiteral("event_id = 'evt-45' AND attempts = 3 AND error = "
                                              "'retries exhausted after 3 attempts: lock wait timeout'")),
                     qint64(1));
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}")), qint64(failedForGood));

        QMutexLocker locker(&calls->lock);
        const QStringList expectedSingle =
            withAlwaysBusy ? QStringList{QStringLiteral("evt-20@2"), QStringLiteral("evt-45@2"),
                                         QStringLiteral("evt-45@3")}
                           : QStringList{QStringLiteral("evt-20@2")};
        // With the cut, the first pass's evt-20@2 and evt-45@2 were rolled back and ran again.
        QStringList distinct = calls->single;
        distinct.removeDuplicates();
        QCOMPARE(distinct, expectedSingle);
        QVERIFY2(calls->single.count(QStringLiteral("evt-45@3")) <= 1,
                 qPrintable(calls->single.join(QLatin1Char(' '))));
        if (!withAlwaysBusy)
            QCOMPARE(calls->single, expectedSingle);
        if (!withAlwaysBusy) {
            // Nothing given to the batch handler twice: no call was undone and done again.
            for (int i = 0; i < events; ++i)
                QVERIFY2(calls->batched.count(QStringLiteral("evt-%1").arg(i)) == 1,
                         qPrintable(
                             QStringLiteral("evt-%1: %2").arg(i).arg(calls->batched.join(QLatin1Char(' ')))));
            QCOMPARE(consumer.stats().batchRedos.load(), qint64(0));
        } else {
            QVERIFY(consumer.stats().batchRedos.load() >= 1);
        }
    }

private slots:
    void duplicatesChangeTheBusinessTableOnce_data() { TestDatabases::addKinds(); }
    void duplicatesChangeTheBusinessTableOnce()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        createBusinessTables(*db);
        auto broker = startBroker(QStringLiteral("ledger"), 4);
        const int events = 1000;
        QVector<BrokerMessage> messages;
        for (int i = 0; i < events; ++i)
            messages << orderMessage(QStringLiteral("ledger"), QStringLiteral("evt-%1").arg(i),
                                     QStringLiteral("order-%1").arg(i % 97), QString());
        produce(broker->bootstrap(), messages + messages); // every event twice

        ConsumerThread consumer(
            db->url(),
            testConsumerOptions(broker->bootstrap(), QStringLiteral("ledger"), QStringLiteral("ledger")),
            ledger);
        consumer.start();
        QTRY_VERIFY_WITH_TIMEOUT(
            consumer.stats().processed.load() + consumer.stats().duplicates.load() >= 2 * events, 180000);
        consumer.stop();
        QCOMPARE(consumer.stats().processed.load(), qint64(events));
        QVERIFY(consumer.stats().duplicates.load() >= events);
        QCOMPARE(countRows(*db, QStringLiteral("test_effects")), qint64(events));
        QCOMPARE(
            db->scalar(QStringLiteral("SELECT COUNT(DISTINCT event_id) FROM test_effects"))->toLongLong(),
            qint64(events));
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"),
                           QStringLiteral("status = 'PROCESSED' AND consumer_name = 'ledger'")),
                 qint64(events));
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}")), qint64(0));
        // It recorded what it subscribes to, for the unconsumed check (issue 25).
        auto topics = InboxStore(*db).topicsOf(QStringLiteral("ledger"));
        QVERIFY2(topics.ok(), qPrintable(topics.message()));
        QCOMPARE(topics->value_or(QStringList()), QStringList{QStringLiteral("ledger")});
        qInfo("%s: %lld messages, %lld processed, %lld duplicates skipped", qPrintable(kind),
              consumer.stats().received.load(), consumer.stats().processed.load(),
              consumer.stats().duplicates.load());
    }

    // One batch transaction: a permanent failure, a transient one, a poison message and a duplicate
    // in the middle of it leave the other messages committed (each handler in its own savepoint),
    // in order, and the offsets end after the last message.
    void aFailingMessageDoesNotUndoTheRestOfItsBatch_data() { TestDatabases::addKinds(); }
    void aFailingMessageDoesNotUndoTheRestOfItsBatch()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        createBusinessTables(*db);
        auto broker = startBroker(QStringLiteral("batch"), 1);
        const int events = 60;
        QVector<BrokerMessage> messages;
        for (int i = 0; i < events; ++i) {
            const QByteArray payload = i == 10   ? QByteArray("{\"fail\":\"permanent\"}")
                                       : i == 20 ? QByteArray("{\"fail\":\"once\"}")
                                                 : QByteArray("{}");
            messages << raw(QStringLiteral("batch"), payload,
                            headersFor(QByteArray("evt-") + QByteArray::number(i)));
            if (i == 30)
                messages << raw(QStringLiteral("batch"), "not json", headersFor("evt-poison"));
        }
        messages << raw(QStringLiteral("batch"), "{}", headersFor("evt-5")); // a duplicate in the batch
        produce(broker->bootstrap(), messages);

        ConsumerOptions options =
            testConsumerOptions(broker->bootstrap(), QStringLiteral("batch"), QStringLiteral("ledger"));
        options.batchSize = 500;
        options.batchMaxWaitMs = 300;
        ConsumerThread consumer(db->url(), options, ledger);
        consumer.start();
        const qint64 total = messages.size();
        QTRY_VERIFY_WITH_TIMEOUT(consumer.stats().processed.load() + consumer.stats().duplicates.load() +
                                         consumer.stats().deadLettered.load() >=
                                     events + 1,
                                 60000);
        QTRY_COMPARE_WITH_TIMEOUT(
            committedOffsets(broker->bootstrap(), QStringLiteral("ledger"), QStringLiteral("batch"), 1)
                .value(0),
            total, 30000);
        consumer.stop();
        QCOMPARE(consumer.stats().processed.load(), qint64(events - 1)); // all but the permanent failure
        QCOMPARE(consumer.stats().duplicates.load(), qint64(1));
        QCOMPARE(consumer.stats().deadLettered.load(), qint64(2)); // the permanent failure and the poison
        QCOMPARE(consumer.stats().retries.load(), qint64(1));      // "once" failed its first attempt
        // Batches, not one transaction per message: the failures split the batch (before, between
        // and after them), the rest went in a few transactions.
        QVERIFY2(consumer.stats().batches.load() >= 1 && consumer.stats().batches.load() <= 12,
                 qPrintable(QString::number(consumer.stats().batches.load())));
        QCOMPARE(countRows(*db, QStringLiteral("test_effects")), qint64(events - 1));
        QCOMPARE(
            db->scalar(QStringLiteral("SELECT COUNT(DISTINCT event_id) FROM test_effects"))->toLongLong(),
            qint64(events - 1));
        QCOMPARE(countRows(*db, QStringLiteral("test_effects"), QStringLiteral("event_id = 'evt-10'")),
                 qint64(0));
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"), QStringLiteral("status = 'PROCESSED'")),
                 qint64(events - 1));
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"),
                           QStringLiteral("status = 'FAILED' AND event_id = 'evt-10'")),
                 qint64(1));
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}")), qint64(2));
    }

    // The common case costs nothing per message beyond the handler's own statements: no savepoint
    // between two handlers of a batch (only the batch's own statements at its edges). A handler
    // that wrote and then failed (no savepoint to go back to) has the batch done again with
    // savepoints: its write is gone, it succeeds on attempt 2, every other message counts once.
    void theCommonCaseSendsNoStatementPerMessage_data() { TestDatabases::addKinds(); }
    void theCommonCaseSendsNoStatementPerMessage()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        QVERIFY(db->exec(QStringLiteral("CREATE TABLE cheap_effects (event_id VARCHAR(64) NOT NULL, "
                                        "attempt INTEGER NOT NULL)"))
                    .ok());
        auto broker = startBroker(QStringLiteral("cheap"), 1);
        const int events = 200;
        QVector<BrokerMessage> messages;
        for (int i = 0; i < events; ++i)
            messages << raw(QStringLiteral("cheap"),
                            i == 150 ? QByteArray("{\"fail\":\"after_write\"}") : QByteArray("{}"),
                            headersFor(QByteArray("cheap-") + QByteArray::number(i)));
        produce(broker->bootstrap(), messages);

        struct Calls
        {
            QMutex lock;
            QVector<quint64> entries, exits; // statements sent on the consumer's connection
            QVector<QString> events;
        };
        auto calls = std::make_shared<Calls>();
        auto handler = [calls](Database& handlerDb, const InboxMessage& m) {
            QMutexLocker locker(&calls->lock);
            calls->entries << handlerDb.statementsSent();
            calls->events << m.eventId;
            auto q = handlerDb.execPrepared(
                QStringLiteral("INSERT INTO cheap_effects (event_id, attempt) VALUES (:e, :a)"),
                {{QStringLiteral(":e"), m.eventId}, {QStringLiteral(":a"), m.attempt}});
            calls->exits << handlerDb.statementsSent();
            if (!q)
                return HandlerResult::transient(q.message());
            if (m.json.object().value(QStringLiteral("fail")).toString() == QLatin1String("after_write") &&
                m.attempt == 1)
                return HandlerResult::transient(QStringLiteral("lock wait timeout after the write"));
            return HandlerResult::ok();
        };
        ConsumerOptions options =
            testConsumerOptions(broker->bootstrap(), QStringLiteral("cheap"), QStringLiteral("ledger"));
        options.batchSize = 500;
        options.batchMaxWaitMs = 300;
        ConsumerThread consumer(db->url(), options, handler);
        consumer.start();
        QTRY_VERIFY_WITH_TIMEOUT(consumer.stats().processed.load() >= events, 60000);
        QTRY_COMPARE_WITH_TIMEOUT(
            committedOffsets(broker->bootstrap(), QStringLiteral("ledger"), QStringLiteral("cheap"), 1)
                .value(0),
            qint64(events), 30000);
        consumer.stop();
        QCOMPARE(consumer.stats().processed.load(), qint64(events));
        QCOMPARE(consumer.stats().retries.load(), qint64(1));
        QCOMPARE(consumer.stats().deadLettered.load(), qint64(0));

        // Between two handler calls of the first pass (before message 150 failed) the consumer sent
        // nothing of its own, except at the edges of a batch.
        QMutexLocker locker(&calls->lock);
        int firstPass = 0;
        while (firstPass < calls->events.size() && calls->events.at(firstPass) != QLatin1String("cheap-150"))
            ++firstPass;
        QVERIFY(firstPass >= 150);
        int statementsBetween = 0;
        for (int i = 1; i <= firstPass; ++i)
            if (calls->entries.at(i) != calls->exits.at(i - 1))
                ++statementsBetween;
        QVERIFY2(statementsBetween <= int(consumer.stats().batches.load()),
                 qPrintable(QStringLiteral("%1 of %2 gaps between handlers had statements (%3 batches)")
                                .arg(statementsBetween)
                                .arg(firstPass)
                                .arg(consumer.stats().batches.load())));
        QVERIFY2(consumer.stats().batchRedos.load() >= 1, "the failing handler made no redo");

        QCOMPARE(countRows(*db, QStringLiteral("cheap_effects")), qint64(events));
        QCOMPARE(
            db->scalar(QStringLiteral("SELECT COUNT(DISTINCT event_id) FROM cheap_effects"))->toLongLong(),
            qint64(events));
        // Attempt 1's write is gone; attempt 2 wrote the one row, and the inbox says 2 attempts.
        QCOMPARE(countRows(*db, QStringLiteral("cheap_effects"),
                           QStringLiteral("event_id = 'cheap-150' AND attempt = 2")),
                 qint64(1));
        QCOMPARE(
            countRows(*db, QStringLiteral("{inbox}"),
                      QStringLiteral("status = 'PROCESSED' AND event_id = 'cheap-150' AND attempts = 2")),
            qint64(1));
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"), QStringLiteral("status = 'PROCESSED'")),
                 qint64(events));
    }

    // A batch handler gets the batch's new messages in one call and writes their rows in one
    // statement. Its failure at one message (permanent at evt-10, transient at evt-20) and a failure
    // it cannot pin on a message (at evt-40) roll back only what the call wrote: every other message
    // commits once, evt-10 becomes a dead letter, evt-20 succeeds at attempt 2 through the
    // per-message handler, the messages after evt-40 go through the per-message handler one by one.
    // A sampler reads the committed offset and then, on its own connection, the committed inbox
    // rows, all along (the first commit waits 2 s before COMMIT): the offset never runs ahead of
    // the committed rows.
    void aBatchHandlersFailureUndoesOnlyTheFailingMessage_data() { TestDatabases::addKinds(); }
    void aBatchHandlersFailureUndoesOnlyTheFailingMessage()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        createBusinessTables(*db);
        auto broker = startBroker(QStringLiteral("bulk"), 1);
        const int events = 60;
        QVector<BrokerMessage> messages;
        for (int i = 0; i < events; ++i) {
            const QByteArray payload = i == 10   ? QByteArray("{\"fail\":\"permanent\"}")
                                       : i == 20 ? QByteArray("{\"fail\":\"once\"}")
                                       : i == 40 ? QByteArray("{\"fail\":\"somewhere\"}")
                                                 : QByteArray("{}");
            messages << raw(QStringLiteral("bulk"), payload,
                            headersFor(QByteArray("evt-") + QByteArray::number(i)));
        }
        produce(broker->bootstrap(), messages);

        auto calls = std::make_shared<HandlerCalls>();
        const InboxConsumer::Handler single = recordedLedger(calls);
        auto batch = [calls](Database& d, const QVector<const InboxMessage*>& ms) {
            {
                QMutexLocker locker(&calls->lock);
                calls->batchSizes << int(ms.size());
            }
            // Every row first, in one statement: what the failure must undo.
            QVariantList values;
            for (const InboxMessage* m : ms)
                values << m->eventId << m->partition;
            auto q = d.execPositional(
                QStringLiteral("INSERT INTO test_effects (event_id, partition_no) VALUES ") +
                    QStringList(int(ms.size()), QStringLiteral("(?, ?)")).join(QLatin1Char(',')),
                values);
            if (!q)
                return BatchHandlerResult::failed(HandlerResult::transient(q.message()));
            for (int i = 0; i < ms.size(); ++i) {
                const QString fail = ms.at(i)->json.object().value(QStringLiteral("fail")).toString();
                if (fail == QLatin1String("permanent"))
                    return BatchHandlerResult::failedAt(
                        i, HandlerResult::permanent(QStringLiteral("order is closed")));
                if (fail == QLatin1String("once"))
                    return BatchHandlerResult::failedAt(
                        i, HandlerResult::transient(QStringLiteral("lock wait timeout")));
                if (fail == QLatin1String("somewhere"))
                    return BatchHandlerResult::failed(HandlerResult::transient(QStringLiteral("deadlock")));
            }
            return BatchHandlerResult::ok();
        };
        QVERIFY(Failpoints::configure(QStringLiteral("consumer.before_batch_commit=1*sleep(2000)")).ok());
        ConsumerOptions options =
            testConsumerOptions(broker->bootstrap(), QStringLiteral("bulk"), QStringLiteral("ledger"));
        options.batchSize = 500;
        options.batchMaxWaitMs = 300;
        ConsumerThread consumer(db->url(), options, single);
        consumer.setBatchHandler(batch);
        consumer.start();

        auto observer = Database::open(db->url());
        QVERIFY(observer.ok());
        int samples = 0;
        int samplesWhileWaiting = 0; // offset and rows still 0 after the batch handler ran
        QElapsedTimer t;
        t.start();
        qint64 offset = -1;
        while (t.elapsed() < 60000) {
            offset =
                committedOffsets(broker->bootstrap(), QStringLiteral("ledger"), QStringLiteral("bulk"), 1)
                    .value(0);
            const qint64 rows =
                countRows(**observer, QStringLiteral("{inbox}"), QStringLiteral("consumer_name = 'ledger'"));
            ++samples;
            QVERIFY2(offset <= rows,
                     qPrintable(QStringLiteral("offset %1 committed with %2 inbox rows committed")
                                    .arg(offset)
                                    .arg(rows)));
            {
                QMutexLocker locker(&calls->lock);
                if (!calls->batchSizes.isEmpty() && rows == 0 && offset < 0)
                    ++samplesWhileWaiting;
            }
            if (offset == events)
                break;
            QThread::msleep(50);
        }
        QVERIFY(Failpoints::configure(QString()).ok());
        QCOMPARE(offset, qint64(events));
        consumer.stop();
        QVERIFY2(samplesWhileWaiting >= 1,
                 qPrintable(QStringLiteral("%1 samples, none while the first batch waited before its commit")
                                .arg(samples)));

        QCOMPARE(consumer.stats().processed.load(), qint64(events - 1));
        QCOMPARE(consumer.stats().deadLettered.load(), qint64(1));
        QCOMPARE(consumer.stats().retries.load(), qint64(1)); // evt-20, at once
        QCOMPARE(countRows(*db, QStringLiteral("test_effects")), qint64(events - 1));
        QCOMPARE(
            db->scalar(QStringLiteral("SELECT COUNT(DISTINCT event_id) FROM test_effects"))->toLongLong(),
            qint64(events - 1));
        QCOMPARE(countRows(*db, QStringLiteral("test_effects"), QStringLiteral("event_id = 'evt-10'")),
                 qint64(0));
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"), QStringLiteral("status = 'PROCESSED'")),
                 qint64(events - 1));
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"),
                           QStringLiteral("status = 'PROCESSED' AND event_id = 'evt-20' AND attempts = 2")),
                 qint64(1));
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"),
                           QStringLiteral("status = 'FAILED' AND event_id = 'evt-10'")),
                 qint64(1));
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}"),
                           QStringLiteral("event_id = 'evt-10' AND error = 'order is closed'")),
                 qint64(1));

        // The batch handler did the messages before each failure; the per-message handler saw
        // evt-20 once (attempt 2), never evt-10 (its batch failure was permanent) nor a message
        // before evt-20, and every message of the call that failed without naming one (from
        // evt-21 on, or from where a poll split the batch) once, at attempt 1.
        QMutexLocker locker(&calls->lock);
        QVERIFY(!calls->batchSizes.isEmpty());
        QCOMPARE(calls->single.count(QStringLiteral("evt-20@2")), 1);
        for (int i = 0; i < events; ++i) {
            const QString id = QStringLiteral("evt-%1@").arg(i);
            const auto n = std::count_if(calls->single.cbegin(), calls->single.cend(),
                                         [&](const QString& c) { return c.startsWith(id); });
            if (i < 20)
                QVERIFY2(n == 0, qPrintable(calls->single.join(QLatin1Char(' '))));
            else if (i >= 40)
                QVERIFY2(calls->single.count(QStringLiteral("evt-%1@1").arg(i)) == 1 && n == 1,
                         qPrintable(calls->single.join(QLatin1Char(' '))));
            else
                QVERIFY(n <= 1);
        }
    }

    // A batch handler that names every failure at once (doneExcept) keeps the rest of its call:
    // no message is given to it twice, the failed ones go on their own (evt-20 succeeds at attempt 2
    // at once, evt-10's permanent failure becomes a dead letter in the batch's transaction), and
    // nothing is lost or done twice.
    void aBatchHandlerNamingEveryFailureKeepsTheRest_data() { TestDatabases::addKinds(); }
    void aBatchHandlerNamingEveryFailureKeepsTheRest() { namedAtOnce(false); }
    // The same with a message that fails transiently again at attempt 2 (evt-45, always busy): it
    // needs a pause, so the transaction is done again with the call cut at each failure; it ends a
    // dead letter after its attempts, every other message's effect counts once.
    void aNamedFailureThatNeedsAPauseCutsTheCall_data() { TestDatabases::addKinds(); }
    void aNamedFailureThatNeedsAPauseCutsTheCall() { namedAtOnce(true); }

    void poisonBecomesOneDeadLetterAndThePartitionMovesOn_data() { TestDatabases::addKinds(); }
    void poisonBecomesOneDeadLetterAndThePartitionMovesOn()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        createBusinessTables(*db);
        auto broker = startBroker(QStringLiteral("poison"), 1);
        const QString t = QStringLiteral("poison");
        const QVector<BrokerMessage> messages{
            raw(t, "{\"n\":1}", headersFor("good-1")),
            raw(t, "{not json", headersFor("bad-json")),
            raw(t, "{\"n\":2}", {{"schema_version", "1"}}),
            raw(t, "{\"n\":3}", headersFor("bad-schema", "9")),
            raw(t, "{\"fail\":\"permanent\"}", headersFor("closed-order")),
            raw(t, "{\"fail\":\"transient\"}", headersFor("always-busy")),
            raw(t, "{\"fail\":\"once\"}", headersFor("busy-once")),
            raw(t, "{\"n\":4}", headersFor("good-2")),
        };
        produce(broker->bootstrap(), messages);
        ConsumerThread consumer(
            db->url(), testConsumerOptions(broker->bootstrap(), t, QStringLiteral("poison-test")), ledger);
        consumer.start();
        QTRY_VERIFY_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("test_effects"), QStringLiteral("event_id = 'good-2'")) == 1,
            60000);
        QTRY_COMPARE_WITH_TIMEOUT(
            committedOffsets(broker->bootstrap(), QStringLiteral("poison-test"), t, 1).value(0), qint64(8),
            20000);
        consumer.stop();

        QCOMPARE(countRows(*db, QStringLiteral("test_effects")),
                 qint64(3)); // good-1, busy-once (2nd attempt), good-2
        QCOMPARE(countRows(*db, QStringLiteral("test_effects"), QStringLiteral("event_id = 'busy-once'")),
                 qint64(1));
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}")), qint64(5));
        auto expectOne = [&](const QString& where) {
            return countRows(*db, QStringLiteral("{dead_letters}"),
                             where + QStringLiteral(" AND consumer_name = 'poison-test' AND status = 'NEW'"));
        };
        QCOMPARE(expectOne(QStringLiteral(
                     "event_id = 'bad-json' AND error LIKE '%not valid JSON%' AND source_offset = 1")),
                 qint64(1));
        QCOMPARE(expectOne(
                     QStringLiteral("event_id IS NULL AND error LIKE '%no event_id%' AND source_offset = 2")),
                 qint64(1));
        QCOMPARE(
            expectOne(QStringLiteral("event_id = 'bad-schema' AND error LIKE '%unknown schema_version 9%'")),
            qint64(1));
        QCOMPARE(expectOne(QStringLiteral("event_id = 'closed-order' AND error = 'order is closed' AND "
                                          "stacktrace LIKE '%ledger: order closed%'")),
                 qint64(1));
        QCOMPARE(expectOne(QStringLiteral("event_id = 'always-busy' AND error LIKE 'retries exhausted after "
                                          "3 attempts%' AND attempts = 3")),
                 qint64(1));
        auto letters = DeadLetterStore(*db).list(DeadLetterFilter{}, 0, 10);
        QVERIFY(letters.ok());
        for (const DeadLetter& l : letters->letters) {
            QCOMPARE(l.topic, t);
            QCOMPARE(l.sourcePartition.value_or(-1), 0);
            QVERIFY(l.firstFailedAt.isValid() && l.lastFailedAt >= l.firstFailedAt);
            if (l.eventId == QLatin1String("bad-json")) {
                QCOMPARE(l.payload, QByteArray("{not json")); // the original bytes
                QCOMPARE(l.messageKey, QStringLiteral("k"));
                QCOMPARE(
                    QJsonDocument::fromJson(l.headers).object().value(QStringLiteral("event_id")).toString(),
                    QStringLiteral("bad-json"));
            }
            // Three attempts, the last after a full-jitter delay that may be 0 ms: the last failure
            // is not before the first, but may fall in the same millisecond.
            if (l.eventId == QLatin1String("always-busy"))
                QVERIFY2(l.lastFailedAt >= l.firstFailedAt &&
                             l.stacktrace.count(QStringLiteral("transient")) == 3,
                         qPrintable(l.stacktrace));
        }
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"), QStringLiteral("status = 'PROCESSED'")),
                 qint64(3));
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"), QStringLiteral("status = 'FAILED'")),
                 qint64(4)); // all with an event_id
        QCOMPARE(consumer.stats().deadLettered.load(), qint64(5));
    }

    // Writing a dead letter must never fail on the message's content, or the poison message would
    // stall its partition for ever: an event_id too long for the column, a key over 64 KB (MariaDB
    // TEXT), a header with a NUL byte (PostgreSQL jsonb), a binary payload (PostgreSQL text), a
    // NUL in the event_id. Each is kept exactly and replays byte for byte.
    void deadLettersKeepAnyMessageExactly_data() { TestDatabases::addKinds(); }
    void deadLettersKeepAnyMessageExactly()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        createBusinessTables(*db);
        const QString t = QStringLiteral("odd");
        auto broker = startBroker(t, 1);
        const QByteArray longId(300, 'e');
        const QByteArray bigKey(70000, 'K');
        const QByteArray nulHeader("a\0b", 3);
        const QByteArray binary("\x00\xff\xfe bin \x80", 9);
        const QByteArray nulId("ev\0id", 5);
        QVector<BrokerMessage> messages{
            raw(t, "{\"n\":0}", headersFor(longId)),
            raw(t, "{x", headersFor("big-key")),
            raw(t, "{\"fail\":\"permanent\"}",
                headersFor("nul-header") + QVector<BrokerHeader>{{"note", nulHeader}}),
            raw(t, binary, headersFor("binary") + QVector<BrokerHeader>{{"dup", "1"}, {"dup", "2"}}),
            raw(t, "{\"n\":5}", headersFor(nulId)),
            raw(t, "{\"n\":6}", headersFor("long-key-ok")),
            raw(t, "{\"n\":7}", headersFor("good-after")),
        };
        messages[1].key = bigKey;
        messages[3].key = QByteArray("\x01\x00\x02", 3);
        messages[5].key =
            QByteArray(300, 'L'); // a valid message: its inbox row takes the key as aggregate id
        produce(broker->bootstrap(), messages);
        ConsumerThread consumer(
            db->url(), testConsumerOptions(broker->bootstrap(), t, QStringLiteral("odd-test")), ledger);
        consumer.start();
        QTRY_VERIFY_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("test_effects"), QStringLiteral("event_id = 'good-after'")) == 1,
            60000);
        QTRY_COMPARE_WITH_TIMEOUT(
            committedOffsets(broker->bootstrap(), QStringLiteral("odd-test"), t, 1).value(0), qint64(7),
            20000);
        consumer.stop();
        QCOMPARE(consumer.stats().deadLettered.load(), qint64(5));

        QMap<qint64, DeadLetter> byOffset;
        auto page = DeadLetterStore(*db).list(DeadLetterFilter{}, 0, 10);
        QVERIFY2(page.ok(), qPrintable(page.message()));
        for (const DeadLetter& l : page->letters)
            byOffset.insert(l.sourceOffset.value_or(-1), DeadLetterStore(*db).find(l.id).value());
        QCOMPARE(byOffset.size(), 5);

        const DeadLetter& shortened = byOffset[0];
        QVERIFY(shortened.eventId.size() <= DeadLetter::MaxEventIdLength);
        QVERIFY2(shortened.eventId.contains(QStringLiteral("sha256:")), qPrintable(shortened.eventId));
        QVERIFY2(shortened.storageNote.contains(QStringLiteral("event_id of 300 characters")),
                 qPrintable(shortened.storageNote));
        QVERIFY(shortened.exactHeaders().contains(DeadLetter::Header{"event_id", longId}));

        const DeadLetter& keyed = byOffset[1];
        QCOMPARE(keyed.exactKey(), bigKey);
        QVERIFY(keyed.messageKey.size() < 20000);
        QVERIFY2(keyed.storageNote.contains(QStringLiteral("message_key_bytes")),
                 qPrintable(keyed.storageNote));

        const DeadLetter& nul = byOffset[2];
        QCOMPARE(nul.error, QStringLiteral("order is closed"));
        QVERIFY(nul.exactHeaders().contains(DeadLetter::Header{"note", nulHeader}));
        QCOMPARE(QJsonDocument::fromJson(nul.headers).object().value(QStringLiteral("note")).toString(),
                 QStringLiteral("a\uFFFDb"));
        QVERIFY2(nul.storageNote.contains(QStringLiteral("raw_headers")), qPrintable(nul.storageNote));

        const DeadLetter& bin = byOffset[3];
        QCOMPARE(bin.payload, binary);
        QVERIFY(!bin.payloadIsText);
        QCOMPARE(bin.exactKey(), QByteArray("\x01\x00\x02", 3));
        const auto binHeaders = bin.exactHeaders();
        QCOMPARE(binHeaders.mid(3), (QVector<DeadLetter::Header>{{"dup", "1"}, {"dup", "2"}}));
        QVERIFY2(bin.storageNote.contains(QStringLiteral("payload_bytes")), qPrintable(bin.storageNote));

        const DeadLetter& nulEvent = byOffset[4];
        QVERIFY(!nulEvent.eventId.contains(QChar(0)));
        QVERIFY2(nulEvent.error.contains(QStringLiteral("NUL")), qPrintable(nulEvent.error));
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"), QStringLiteral("status = 'FAILED'")),
                 qint64(3)); // big-key, nul-header, binary: not the shortened or NUL ids
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"), QStringLiteral("status = 'PROCESSED'")),
                 qint64(2));
        QCOMPARE(countRows(*db, QStringLiteral("test_effects"), QStringLiteral("event_id = 'long-key-ok'")),
                 qint64(1));

        // Replayed byte for byte: key, payload and headers as they came.
        ActionRequest request;
        request.ids = {bin.id, keyed.id};
        request.reason = QStringLiteral("exact replay");
        request.actor = QStringLiteral("alice");
        QVERIFY(OperatorActions(*db).replayDeadLetters(request).ok());
        auto publisher = KafkaPublisher::create(broker->bootstrap(), KafkaProperties());
        QVERIFY(publisher.ok());
        auto round = DeadLetterReplayer(*db, **publisher).deliver(10, 10000);
        QVERIFY2(round.ok() && round->delivered == 2,
                 qPrintable(round.ok() ? round->lastError : round.message()));
        int replays = 0;
        for (const ConsumedMessage& m : readTopic(broker->bootstrap(), t, 9, 3000)) {
            if (!m.headers.contains("x-replay-count"))
                continue;
            ++replays;
            if (m.headers.value("event_id") == "binary") {
                QCOMPARE(m.payload, binary);
                QCOMPARE(m.key, QByteArray("\x01\x00\x02", 3));
                QCOMPARE(m.headers.value("dup"), QByteArray("2"));
            } else {
                QCOMPARE(m.headers.value("event_id"), QByteArray("big-key"));
                QCOMPARE(m.key, bigKey);
                QCOMPARE(m.payload, QByteArray("{x"));
            }
        }
        QCOMPARE(replays, 2);
    }

    void replayAfterAFixIsProcessedOnce_data() { TestDatabases::addKinds(); }
    void replayAfterAFixIsProcessedOnce()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        createBusinessTables(*db);
        const QString t = QStringLiteral("orders");
        auto broker = startBroker(t, 2);
        produce(broker->bootstrap(),
                {orderMessage(t, QStringLiteral("e-ok"), QStringLiteral("o1"), QStringLiteral("SKU-1")),
                 orderMessage(t, QStringLiteral("e-404"), QStringLiteral("o2"), QStringLiteral("SKU-404"))});
        ConsumerThread consumer(
            db->url(), testConsumerOptions(broker->bootstrap(), t, QStringLiteral("inventory")), ledger);
        consumer.start();
        QTRY_COMPARE_WITH_TIMEOUT(countRows(*db, QStringLiteral("{dead_letters}")), qint64(1), 60000);
        QTRY_COMPARE_WITH_TIMEOUT(countRows(*db, QStringLiteral("test_effects")), qint64(1), 20000);
        const qint64 letterId = db->scalar(QStringLiteral("SELECT id FROM {dead_letters}"))->toLongLong();

        // The fix, then the operator's replay: NEW -> REPLAYING, delivered by the one-shot replayer.
        QVERIFY(db->exec(QStringLiteral("INSERT INTO test_catalog (sku) VALUES ('SKU-404')")).ok());
        ActionRequest request;
        request.ids = {letterId};
        request.reason = QStringLiteral("SKU-404 added to the catalog");
        request.actor = QStringLiteral("alice");
        auto replay = OperatorActions(*db).replayDeadLetters(request);
        QVERIFY2(replay.ok() && replay->affected == 1, qPrintable(replay.message()));
        auto publisher = KafkaPublisher::create(broker->bootstrap(), KafkaProperties());
        QVERIFY(publisher.ok());
        auto round = DeadLetterReplayer(*db, **publisher).deliver(10, 10000);
        QVERIFY2(round.ok() && round->delivered == 1, qPrintable(round.message()));
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("test_effects"), QStringLiteral("event_id = 'e-404'")), qint64(1),
            30000);
        auto letter = DeadLetterStore(*db).find(letterId);
        QCOMPARE(letter->status, QStringLiteral("REPLAYED"));
        QCOMPARE(letter->replayCount, 1);
        QVERIFY(letter->replayedAt.isValid());
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"),
                           QStringLiteral("event_id = 'e-404' AND status = 'PROCESSED'")),
                 qint64(1));

        // A second replay (forced, delivered by a running relay) is a duplicate for the inbox.
        request.force = true;
        request.reason = QStringLiteral("again");
        QVERIFY(OperatorActions(*db).replayDeadLetters(request).ok());
        RelayThread relay(db->url(), testRelayOptions(broker->bootstrap(), QStringLiteral("replay-relay")));
        relay.start();
        QTRY_COMPARE_WITH_TIMEOUT(DeadLetterStore(*db).find(letterId)->replayCount, 2, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(consumer.stats().duplicates.load() >= 1, 30000);
        relay.stop();
        consumer.stop();
        QCOMPARE(relay.stats().replayed.load(), qint64(1));
        QCOMPARE(countRows(*db, QStringLiteral("test_effects"), QStringLiteral("event_id = 'e-404'")),
                 qint64(1));

        // On the topic: the original event_id, key and headers plus the replay headers.
        const auto onTopic = readTopic(broker->bootstrap(), t, 4, 3000);
        QCOMPARE(onTopic.size(), 4);
        int replays = 0;
        for (const ConsumedMessage& m : onTopic) {
            if (!m.headers.contains("x-replay-count"))
                continue;
            ++replays;
            QCOMPARE(m.headers.value("event_id"), QByteArray("e-404"));
            QCOMPARE(m.key, QByteArray("o2"));
            QCOMPARE(m.headers.value("schema_version"), QByteArray("1"));
            QCOMPARE(m.headers.value("x-replayed-by"), QByteArray("alice"));
            QVERIFY(m.headers.value("x-replay-count") == "1" || m.headers.value("x-replay-count") == "2");
        }
        QCOMPARE(replays, 2);
    }

    void replayToAnotherTopic()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("replaytopic"));
        auto broker = startBroker(QStringLiteral("orders"), 1);
        QVERIFY(broker->createTopic(QStringLiteral("orders-retry"), 1).ok());
        DeadLetter l;
        l.consumerName = QStringLiteral("c");
        l.eventId = QStringLiteral("e1");
        l.topic = QStringLiteral("orders");
        l.messageKey = QStringLiteral("k1");
        l.headers = R"({"event_id":"e1","schema_version":"1","x-replay-count":"7"})";
        l.payload = "{}";
        l.error = QStringLiteral("boom");
        auto id = DeadLetterStore(*db).insert(l);
        QVERIFY(id.ok());
        ActionRequest request;
        request.ids = {*id};
        request.reason = QStringLiteral("to the retry topic");
        request.actor = QStringLiteral("bob");
        request.replayTopic = QStringLiteral("orders-retry");
        auto replay = OperatorActions(*db).replayDeadLetters(request);
        QVERIFY(replay.ok());
        // A wrong token is fenced: the mark needs the token of the intent.
        QCOMPARE(DeadLetterStore(*db).markReplayed(*id, QStringLiteral("not-the-token")).value(), false);
        auto publisher = KafkaPublisher::create(broker->bootstrap(), KafkaProperties());
        auto round = DeadLetterReplayer(*db, **publisher).deliver(10, 10000, replay->replayToken);
        QVERIFY(round.ok());
        QCOMPARE(round->delivered, 1);
        const auto onTopic = readTopic(broker->bootstrap(), QStringLiteral("orders-retry"), 1, 3000);
        QCOMPARE(onTopic.size(), 1);
        QCOMPARE(onTopic.first().headers.value("x-replay-count"), QByteArray("1")); // not the stale header
        QCOMPARE(onTopic.first().headers.value("x-replayed-by"), QByteArray("bob"));
        QCOMPARE(readTopic(broker->bootstrap(), QStringLiteral("orders"), -1, 1500).size(), 0);
    }

    // A relay before issue 37 also sent a writer's header of a reserved name after its own: the
    // consumer keys the inbox, the effect and the trace on the relay's event_id (the first), never
    // on the writer's (issue 37 item 2).
    void theInboxKeysOnTheRelaysEventIdNotTheWritersSecondOne()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("first_event_id"));
        createBusinessTables(*db);
        auto broker = startBroker(QStringLiteral("dup-id"), 1);
        QVector<BrokerHeader> headers = headersFor("relay-event-1");
        headers.append(BrokerHeader{"event_id", "writer-value"});
        headers.append(
            BrokerHeader{"traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"});
        produce(broker->bootstrap(), {raw(QStringLiteral("dup-id"), "{\"sku\":\"SKU-1\"}", headers)});
        ConsumerThread consumer(
            db->url(),
            testConsumerOptions(broker->bootstrap(), QStringLiteral("dup-id"), QStringLiteral("dup-id")),
            ledger);
        consumer.start();
        QTRY_VERIFY_WITH_TIMEOUT(consumer.stats().processed.load() == 1, 60000);
        consumer.stop();
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"),
                           QStringLiteral("event_id = 'relay-event-1' AND status = 'PROCESSED'")),
                 qint64(1));
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}")), qint64(1));
        QCOMPARE(countRows(*db, QStringLiteral("test_effects"), QStringLiteral("event_id = 'relay-event-1'")),
                 qint64(1));
    }

    // A bare JSON scalar is JSON, but no document: its dead letter says so (issue 37 item 3).
    void aScalarPayloadIsDeadLetteredAsAScalar()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("scalar_payload"));
        createBusinessTables(*db);
        auto broker = startBroker(QStringLiteral("scalar"), 1);
        produce(broker->bootstrap(), {raw(QStringLiteral("scalar"), "42", headersFor("scalar-1"))});
        ConsumerThread consumer(
            db->url(),
            testConsumerOptions(broker->bootstrap(), QStringLiteral("scalar"), QStringLiteral("scalar")),
            ledger);
        consumer.start();
        QTRY_VERIFY_WITH_TIMEOUT(consumer.stats().deadLettered.load() == 1, 60000);
        consumer.stop();
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}"),
                           QStringLiteral("error LIKE 'the payload is a JSON scalar (42)%'")),
                 qint64(1));
    }

    // MariaDB with CLIENT_FOUND_ROWS switched on, the flag Connector/J, mysqljs and others send by
    // default: an UPDATE or an INSERT … ON DUPLICATE KEY UPDATE that changes nothing then reports 1.
    // The consumer decides from the inbox statuses it reads, so every redelivery is a duplicate and a
    // replayed dead letter is processed once (issue 37 item 1, "the same for the product's own
    // consumer").
    void foundRowsOnTheConnectionAppliesNoRedeliveryTwice()
    {
        if (!TestDatabases::available(QStringLiteral("mysql")))
            QSKIP("no MariaDB server");
        auto db = TestDatabases::fresh(QStringLiteral("mysql"), QStringLiteral("found_rows"));
        createBusinessTables(*db);
        auto foundRows =
            DatabaseUrl::parse(TestDatabases::urlText(db->url()) + QStringLiteral("?CLIENT_FOUND_ROWS=1"));
        QVERIFY2(foundRows.ok(), qPrintable(foundRows.message()));
        // The flag is live on that connection: an UPDATE that changes nothing counts the row it found.
        const QString noChange = QStringLiteral("UPDATE test_catalog SET sku = sku WHERE sku = 'SKU-1'");
        auto changed = db->exec(noChange);
        QVERIFY2(changed.ok(), qPrintable(changed.message()));
        QCOMPARE(changed->numRowsAffected(), 0);
        auto other = TestDatabases::open(*foundRows);
        auto found = other->exec(noChange);
        QVERIFY2(found.ok(), qPrintable(found.message()));
        QCOMPARE(found->numRowsAffected(), 1);
        other.reset();

        const QString t = QStringLiteral("found-rows");
        auto broker = startBroker(t, 2);
        const int events = 200;
        QVector<BrokerMessage> messages;
        for (int i = 0; i < events; ++i)
            messages << orderMessage(t, QStringLiteral("fr-%1").arg(i), QStringLiteral("order-%1").arg(i),
                                     i == 7 ? QStringLiteral("SKU-404") : QStringLiteral("SKU-1"));
        ConsumerThread consumer(*foundRows, testConsumerOptions(broker->bootstrap(), t, QStringLiteral("fr")),
                                ledger);
        consumer.start();
        produce(broker->bootstrap(), messages);
        QTRY_COMPARE_WITH_TIMEOUT(consumer.stats().processed.load() + consumer.stats().deadLettered.load(),
                                  qint64(events), 120000);
        QCOMPARE(consumer.stats().deadLettered.load(), qint64(1)); // SKU-404: a FAILED inbox row

        // The fix, then every message again (a forced redelivery): the FAILED one is taken over and
        // processed once, the others are duplicates.
        QVERIFY(db->exec(QStringLiteral("INSERT INTO test_catalog (sku) VALUES ('SKU-404')")).ok());
        produce(broker->bootstrap(), messages);
        QTRY_COMPARE_WITH_TIMEOUT(consumer.stats().duplicates.load(), qint64(events - 1), 120000);
        QCOMPARE(consumer.stats().processed.load(), qint64(events));
        // And again: nothing left to do.
        produce(broker->bootstrap(), messages);
        QTRY_COMPARE_WITH_TIMEOUT(consumer.stats().duplicates.load(), qint64(2 * events - 1), 120000);
        consumer.stop();
        QCOMPARE(consumer.stats().processed.load(), qint64(events));
        QCOMPARE(countRows(*db, QStringLiteral("test_effects")), qint64(events));
        QCOMPARE(
            db->scalar(QStringLiteral("SELECT COUNT(DISTINCT event_id) FROM test_effects"))->toLongLong(),
            qint64(events));
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"),
                           QStringLiteral("status = 'PROCESSED' AND consumer_name = 'fr'")),
                 qint64(events));
        QCOMPARE(
            countRows(*db, QStringLiteral("{inbox}"), QStringLiteral("event_id = 'fr-7' AND attempts = 2")),
            qint64(1));
    }

    void optionsRefuseAutoCommit()
    {
        ConsumerOptions o =
            testConsumerOptions(QStringLiteral("127.0.0.1:1"), QStringLiteral("t"), QStringLiteral("c"));
        QVERIFY(o.validate().ok());
        kafkaConsumer(o).insert(QStringLiteral("enable.auto.commit"), QStringLiteral("true"));
        QVERIFY(!o.validate().ok());
        QCOMPARE(o.validate().error().kind, ErrorKind::Usage);
        kafkaConsumer(o).remove(QStringLiteral("enable.auto.commit"));
        o.maxAttempts = 100;
        o.backoffCapMs = 60000;
        QVERIFY(!o.validate().ok()); // retries would outlast max.poll.interval.ms
        o.maxAttempts = 3;
        QVERIFY(o.validate().ok());
        o.consumerName.clear();
        QVERIFY(!o.validate().ok());
    }
};

QTEST_GUILESS_MAIN(TestInboxConsumer)
#include "tst_inboxconsumer.moc"
