// The inbox consumer on a RabbitMQ queue (the CTest fixture's rabbitmq-server): manual acks after
// the commit, a real `outboxctl consume` crash between commit and ack (the redelivery is a
// duplicate, the effect happens once), and a dead letter replayed over AMQP with confirms that
// reaches the consumer once.
#include "core/broker/amqp/AmqpAdmin.h"
#include "core/broker/amqp/AmqpPublisher.h"
#include "core/db/DeadLetterStore.h"
#include "core/ops/OperatorActions.h"
#include "core/relay/DeadLetterReplayer.h"
#include "tests/consumer/ConsumerTestKit.h"
#include "tests/support/AmqpTestKit.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"

#include <QMutex>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

namespace {

const QString Kind = QStringLiteral("postgresql");

void publish(const QString& exchange, const QVector<BrokerMessage>& messages)
{
    auto p = AmqpPublisher::create(testAmqpOptions(exchange));
    if (!p)
        qFatal("%s", qPrintable(p.message()));
    auto batch = (*p)->enqueue(messages);
    (*p)->await(*batch, 30000);
    for (const DeliveryReport& r : batch->reports())
        if (r.deliveryClass != DeliveryClass::Success)
            qFatal("publish failed: %s", qPrintable(r.message));
}

qint64 publishOrders(const QString& exchange, int count)
{
    QVector<BrokerMessage> messages;
    qint64 quantity = 0;
    for (int i = 0; i < count; ++i) {
        const int q = 1 + i % 3;
        quantity += q;
        BrokerMessage m = orderMessage(QStringLiteral("order"), QStringLiteral("evt-%1").arg(i),
                                       QStringLiteral("O%1").arg(i), QStringLiteral("SKU-%1").arg(i % 40), q);
        m.messageId = QStringLiteral("evt-%1").arg(i);
        messages << m;
    }
    publish(exchange, messages);
    return quantity;
}

std::unique_ptr<QProcess> startConsumer(const QString& dbUrl, const QString& queue,
                                        const QString& failpoints = {})
{
    return startOutboxctl({QStringLiteral("consume"), QStringLiteral("--demo-inventory"),
                           QStringLiteral("--db"), dbUrl, QStringLiteral("--broker"), testAmqpUrl(),
                           QStringLiteral("--queue"), queue, QStringLiteral("--transient-percent"),
                           QStringLiteral("0"), QStringLiteral("--backoff-base-ms"), QStringLiteral("20"),
                           QStringLiteral("--backoff-cap-ms"), QStringLiteral("100")},
                          failpoints);
}

qint64 stoppedCounter(const QString& log, const QString& name)
{
    const auto m = QRegularExpression(QStringLiteral("stopped; .*%1 (\\d+)").arg(name)).match(log);
    return m.hasMatch() ? m.captured(1).toLongLong() : -1;
}

qint64 reserved(Database& db)
{
    return db.scalar(QStringLiteral("SELECT COALESCE(SUM(reserved), 0) FROM demo_inventory"))->toLongLong();
}

} // namespace

class TestAmqpConsumer : public QObject
{
    Q_OBJECT

    std::unique_ptr<AmqpAdmin> m_admin;

    void freshQueue(const QString& exchange, const QString& queue)
    {
        (void)m_admin->deleteQueue(queue);
        QVERIFY(m_admin->declareExchange(exchange).ok());
        const Status s = m_admin->declareQueue(queue, exchange, QStringLiteral("#"));
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

    // The real process crashes after its batch's transaction committed and before basic.ack: the
    // broker delivers the batch again (redelivered), the inbox counts duplicates, stock is reserved
    // once per order, and the queue ends empty.
    void crashAfterCommitBeforeAckIsADuplicate()
    {
        freshQueue(QStringLiteral("t-crash"), QStringLiteral("q-crash"));
        auto db = TestDatabases::fresh(Kind, TestDatabases::uniqueName(QStringLiteral("amqp_crash")));
        const QString url = TestDatabases::urlText(db->url());
        const int orders = 60;
        const qint64 quantity = publishOrders(QStringLiteral("t-crash"), orders);

        auto crashing = startConsumer(url, QStringLiteral("q-crash"),
                                      QStringLiteral("consumer.after_commit_before_ack=crash"));
        QVERIFY(crashing->waitForFinished(60000));
        QCOMPARE(crashing->exitCode(), 86);
        const qint64 committed = countRows(*db, QStringLiteral("demo_reservations"));
        QVERIFY(committed >= 1);
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"), QStringLiteral("status = 'PROCESSED'")),
                 committed);
        // Nothing was acknowledged: every message is back in the queue.
        QTRY_COMPARE_WITH_TIMEOUT(*m_admin->messageCount(QStringLiteral("q-crash")), qint64(orders), 10000);

        auto again = startConsumer(url, QStringLiteral("q-crash"));
        QTRY_COMPARE_WITH_TIMEOUT(countRows(*db, QStringLiteral("demo_reservations")), qint64(orders), 60000);
        QTRY_COMPARE_WITH_TIMEOUT(*m_admin->messageCount(QStringLiteral("q-crash")), qint64(0), 30000);
        const int code = terminateAndWait(*again);
        const QString log = QString::fromUtf8(again->readAll());
        QVERIFY2(code == 0, qPrintable(log.right(1500)));
        QVERIFY2(log.contains(QLatin1String("RabbitMQ")), qPrintable(log.right(600)));
        QVERIFY2(stoppedCounter(log, QStringLiteral("duplicates")) >= committed, qPrintable(log.right(600)));
        QCOMPARE(stoppedCounter(log, QStringLiteral("processed")), orders - committed);
        QCOMPARE(reserved(*db), quantity);
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"), QStringLiteral("status = 'PROCESSED'")),
                 qint64(orders));
    }

    // A message the handler refuses becomes a dead letter (and is rejected, not requeued); once the
    // cause is fixed, its replay goes out through AmqpPublisher with a confirm and the consumer
    // processes it exactly once.
    void deadLetterReplayedOverAmqpReachesTheConsumerOnce()
    {
        freshQueue(QStringLiteral("t-dlq"), QStringLiteral("q-dlq"));
        auto db = TestDatabases::fresh(Kind, TestDatabases::uniqueName(QStringLiteral("amqp_dlq")));
        std::atomic<bool> refuse{true};
        QMutex mutex;
        QHash<QString, int> effects;
        ConsumerOptions o;
        o.consumerName = QStringLiteral("billing");
        o.broker = BrokerUrl::Kind::Amqp;
        o.amqp = testAmqpOptions(QStringLiteral("t-dlq"));
        o.amqp.queue = QStringLiteral("q-dlq");
        o.maxAttempts = 2;
        o.backoffBaseMs = 20;
        o.backoffCapMs = 50;
        o.pollMs = 50;
        ConsumerThread consumer(db->url(), o, [&](Database&, const InboxMessage& m) {
            if (refuse.load() && m.eventId == QLatin1String("evt-3"))
                return HandlerResult::permanent(QStringLiteral("no such customer"));
            QMutexLocker lock(&mutex);
            ++effects[m.eventId];
            return HandlerResult::ok();
        });
        consumer.start();
        publishOrders(QStringLiteral("t-dlq"), 5);
        QTRY_COMPARE_WITH_TIMEOUT(countRows(*db, QStringLiteral("{dead_letters}")), qint64(1), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(consumer.stats().processed.load(), qint64(4), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(*m_admin->messageCount(QStringLiteral("q-dlq")), qint64(0), 10000);
        auto letter = DeadLetterStore(*db).list(DeadLetterFilter{}, 0, 10);
        QVERIFY(letter.ok() && letter->letters.size() == 1);
        const qint64 id = letter->letters.first().id;

        refuse = false; // the cause is fixed
        ActionRequest request;
        request.ids = {id};
        request.reason = QStringLiteral("customer created");
        request.actor = QStringLiteral("test");
        auto replay = OperatorActions(*db).replayDeadLetters(request);
        QVERIFY2(replay.ok(), qPrintable(replay.message()));
        auto publisher = AmqpPublisher::create(testAmqpOptions(QStringLiteral("t-dlq")));
        QVERIFY(publisher.ok());
        auto round = DeadLetterReplayer(*db, **publisher).deliver(10, 10000);
        QVERIFY2(round.ok(), qPrintable(round.message()));
        QCOMPARE(round->delivered, 1);
        QTRY_COMPARE_WITH_TIMEOUT(consumer.stats().processed.load(), qint64(5), 30000);
        QTest::qWait(500); // nothing more arrives
        consumer.stop();
        QMutexLocker lock(&mutex);
        QCOMPARE(effects.value(QStringLiteral("evt-3")), 1);
        QCOMPARE(effects.size(), 5);
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}"), QStringLiteral("status = 'PROCESSED'")),
                 qint64(5));
        QCOMPARE(*m_admin->messageCount(QStringLiteral("q-dlq")), qint64(0));
    }
};

QTEST_GUILESS_MAIN(TestAmqpConsumer)
#include "tst_amqpconsumer.moc"
