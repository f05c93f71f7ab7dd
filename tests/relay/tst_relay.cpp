#include "core/broker/kafka/EmbeddedBroker.h"
#include "core/db/EventStore.h"
#include "core/metrics/MetricsQuery.h"
#include "core/ops/NotifyTrigger.h"
#include "core/support/Failpoints.h"
#include "tests/support/BrokerTestKit.h"
#include "tests/support/RelayThread.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TopicReader.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

namespace {

std::unique_ptr<EmbeddedBroker> broker(int brokers = 1, int partitions = 6)
{
    auto b = EmbeddedBroker::start(brokers);
    if (!b)
        qFatal("%s", qPrintable(b.message()));
    if (!(*b)->createTopic(QStringLiteral("order"), partitions, brokers))
        qFatal("topic");
    return std::move(b).value();
}

QMap<QString, qint64> statusCounts(Database& db)
{
    auto c = EventStore(db).counts();
    if (!c)
        qFatal("%s", qPrintable(c.message()));
    return c->byStatus;
}

qint64 count(Database& db, const char* status)
{
    return statusCounts(db).value(QLatin1String(status));
}

NewEvent orderEvent(const QString& aggregate, int version, const QByteArray& payload = "{}")
{
    NewEvent e;
    e.eventType = QStringLiteral("OrderChanged");
    e.aggregateType = QStringLiteral("Order");
    e.aggregateId = aggregate;
    e.aggregateVersion = version;
    e.payload = payload;
    return e;
}

void write(Database& db, const QVector<NewEvent>& events)
{
    QVERIFY(db.beginWrite().ok());
    auto ids = EventWriter(db).appendBatch(events);
    QVERIFY2(ids.ok(), qPrintable(ids.message()));
    QVERIFY(db.commit().ok());
}

} // namespace

class TestRelay : public QObject
{
    Q_OBJECT

private:
    void sqliteWakeUp(bool localWakeup)
    {
        auto b = broker();
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("wake"));
        RelayOptions o = testRelayOptions(b->bootstrap(), QStringLiteral("sqlite-wake"));
        o.pollIntervalMs = 20000;
        o.localWakeup = localWakeup;
        RelayThread relay(db->url(), o);
        relay.start();
        // Up and registered (after its doorbell's temporary slot, which waits for the transactions
        // open on the server: other tests' under the suite; 10.5 s once in a rehearsal).
        QTRY_VERIFY_WITH_TIMEOUT(countRows(*db, QStringLiteral("{relays}")) == 1, 30000);
        for (int round = 0; round < 3; ++round) {
            QTest::qWait(300); // idle: the first claims found nothing
            QElapsedTimer t;
            t.start();
            write(*db, {orderEvent(QStringLiteral("W%1").arg(round), 1)});
            QTRY_VERIFY_WITH_TIMEOUT(count(*db, "SENT") == round + 1, 10000);
            QVERIFY2(t.elapsed() < 2000, qPrintable(QString::number(t.elapsed())));
        }
        relay.stop();
    }

private slots:
    void cleanup() { QVERIFY(Failpoints::configure(QString()).ok()); }

    void deliversEveryEventWithKeyAndHeaders_data() { TestDatabases::addKinds(); }
    void deliversEveryEventWithKeyAndHeaders()
    {
        QFETCH(QString, kind);
        constexpr int Events = 10000;
        auto b = broker(3);
        auto db = TestDatabases::fresh(kind, kind);
        insertEvents(*db, Events);
        RelayThread relay(db->url(), testRelayOptions(b->bootstrap(), QStringLiteral("r1")));
        relay.start();
        QTRY_VERIFY_WITH_TIMEOUT(count(*db, "SENT") == Events, 120000);
        // The heartbeat carries the worker's counters to the sampler (and so to /metrics).
        QTRY_VERIFY_WITH_TIMEOUT(MetricsQuery(*db).sample()->latencyCount == Events, 10000);
        auto snapshot = MetricsQuery(*db).sample();
        QCOMPARE(snapshot->relaySentTotal, qint64(Events));
        QCOMPARE(snapshot->latencyBucketCounts.last(), qint64(Events)); // all within the largest bucket
        QVERIFY(snapshot->latencySumSeconds > 0);
        relay.stop();
        QVERIFY(relay.startError().isEmpty());
        QCOMPARE(count(*db, "FAILED") + count(*db, "DEAD") + count(*db, "PENDING") + count(*db, "SENDING"),
                 qint64(0));
        QCOMPARE(relay.stats().sent.load(), qint64(Events));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"),
                           QStringLiteral("broker_offset IS NULL OR sent_at IS NULL")),
                 qint64(0));

        // Every event_id is on the topic, keyed by aggregate_id, with the headers event_id,
        // event_type, aggregate_type, aggregate_id, aggregate_version and schema_version.
        QHash<QString, OutboxEvent> byEventId;
        EventPageRequest page;
        page.limit = 10000;
        auto all = EventStore(*db).list(page);
        QVERIFY(all.ok());
        for (const OutboxEvent& e : all->events)
            byEventId.insert(e.eventId, e);
        const auto messages = readTopic(b->bootstrap(), QStringLiteral("order"), Events);
        QSet<QString> seen;
        for (const ConsumedMessage& m : messages) {
            const QString id = QString::fromUtf8(m.headers.value("event_id"));
            QVERIFY2(byEventId.contains(id), qPrintable(id));
            const OutboxEvent& e = byEventId.value(id);
            QCOMPARE(QString::fromUtf8(m.key), e.aggregateId);
            QCOMPARE(m.headers.value("event_type"), QByteArray("OrderCreated"));
            QCOMPARE(m.headers.value("aggregate_type"), QByteArray("Order"));
            QCOMPARE(QString::fromUtf8(m.headers.value("aggregate_id")), e.aggregateId);
            QCOMPARE(m.headers.value("schema_version"), QByteArray("1"));
            QVERIFY(m.headers.contains("trace_id")); // the row's own headers travel too
            QCOMPARE(QJsonDocument::fromJson(m.payload).object(),
                     QJsonDocument::fromJson(e.payload).object());
            seen.insert(id);
        }
        QCOMPARE(seen.size(), Events);
    }

    void brokerDownThenUpDrainsWithoutFailures()
    {
        auto b = broker();
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("outage"));
        insertEvents(*db, 2000);
        RelayOptions o = testRelayOptions(b->bootstrap(), QStringLiteral("r-outage"));
        (void)kafkaProducer(o).set(QStringLiteral("message.timeout.ms"), QStringLiteral("1500"));
        RelayThread relay(db->url(), o);
        b->setAllBrokersDown();
        relay.start();
        QTest::qWait(4000);
        QCOMPARE(count(*db, "SENT"), qint64(0));
        QCOMPARE(count(*db, "FAILED") + count(*db, "DEAD"), qint64(0));
        b->setAllBrokersUp();
        QTRY_VERIFY_WITH_TIMEOUT(count(*db, "SENT") == 2000, 90000);
        relay.stop();
        QCOMPARE(count(*db, "FAILED") + count(*db, "DEAD"), qint64(0));
        // Sends that never reached a broker did not count against the events.
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("attempts > 3")), qint64(0));
    }

    void timeoutsAreRetriedWithBackoffAndTheSameEventId()
    {
        auto b = broker();
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("timeouts"));
        const auto ids = insertEvents(*db, 50);
        RelayOptions o = testRelayOptions(b->bootstrap(), QStringLiteral("r-slow"));
        (void)kafkaProducer(o).set(QStringLiteral("message.timeout.ms"), QStringLiteral("800"));
        o.backoffBaseMs = 2000;
        o.backoffCapMs = 2000;
        b->setLatency(1, 2500); // every answer arrives after the producer gave up: unknown outcome
        RelayThread relay(db->url(), o);
        relay.start();
        QTRY_VERIFY_WITH_TIMEOUT(countRows(*db, QStringLiteral("{events}"),
                                           QStringLiteral("last_error_class = 'unknown_outcome'")) > 0,
                                 30000);
        b->setLatency(1, 0);
        QTRY_VERIFY_WITH_TIMEOUT(count(*db, "SENT") == 50, 60000);
        relay.stop();
        QVERIFY(relay.stats().retried.load() > 0);
        // No answer spends no attempt (issue 38 item 2): each event counts only the try that was acked.
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("attempts > 1")), qint64(0));
        // A SENT event carries no error any more (issue 36, low): last_error is the error of an
        // event that is not delivered, not a history (the trail keeps its attempts).
        QCOMPARE(countRows(*db, QStringLiteral("{events}"),
                           QStringLiteral("last_error IS NOT NULL OR last_error_class IS NOT NULL")),
                 qint64(0));
        // The same event_id was produced again: possibly twice on the topic, never lost.
        const auto messages = readTopic(b->bootstrap(), QStringLiteral("order"), -1, 3000);
        QSet<QByteArray> distinct;
        for (const auto& m : messages)
            distinct.insert(m.headers.value("event_id"));
        QCOMPARE(distinct.size(), 50);
        QVERIFY(messages.size() >= 50);
    }

    void backoffDelaysTheRetry()
    {
        auto b = broker();
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("backoff"));
        insertEvents(*db, 5);
        RelayOptions o = testRelayOptions(b->bootstrap(), QStringLiteral("r-backoff"));
        (void)kafkaProducer(o).set(QStringLiteral("message.timeout.ms"), QStringLiteral("800"));
        o.backoffBaseMs = 20000;
        o.backoffCapMs = 20000;
        b->setLatency(1, 2500);
        RelayThread relay(db->url(), o);
        relay.start();
        QTRY_VERIFY_WITH_TIMEOUT(countRows(*db, QStringLiteral("{events}"),
                                           QStringLiteral("last_error_class = 'unknown_outcome'")) == 5,
                                 30000);
        b->setLatency(1, 0);
        QTest::qWait(1500);
        relay.stop();
        // The unanswered attempt given back (issue 38 item 2), the events wait for their backoff
        // (uniform in [0, 20 s]) before retrying.
        QCOMPARE(countRows(*db, QStringLiteral("{events}"),
                           QStringLiteral("attempts = 0 AND status = 'PENDING'")) +
                     count(*db, "SENT"),
                 qint64(5));
        // Full jitter makes the number retried so far random (uniform in [0, 20 s] each): all five
        // under the ~2 s waited has a chance of (2/20)^5 = 1e-5, three of five (the old bound) 1e-2.
        QVERIFY2(countRows(*db, QStringLiteral("{events}"),
                           QStringLiteral("status = 'PENDING' AND available_at > now()")) >= 1,
                 "events must still be waiting for their backoff");
    }

    // Issue 37 items 2 and 5: a writer's header named like the relay's own never reaches a consumer
    // (one event_id header, the relay's), and an event whose topic is no valid Kafka name ends FAILED
    // with a sentence saying so instead of being sent to a broker that takes it anyway.
    void writersReservedHeadersAreDroppedAndInvalidTopicsFail()
    {
        auto b = broker(1, 1);
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("reserved"));
        QVector<NewEvent> events{orderEvent(QStringLiteral("R0"), 1), orderEvent(QStringLiteral("R1"), 1),
                                 orderEvent(QStringLiteral("R2"), 1)};
        events[0].headers =
            QJsonObject{{QStringLiteral("event_id"), QStringLiteral("writer-value")},
                        {QStringLiteral("aggregate_id"), QStringLiteral("writer-aggregate")},
                        {QStringLiteral("x-replay-count"), QStringLiteral("7")},
                        {QStringLiteral("traceparent"), QStringLiteral("00-4bf92f3577b34da6a3ce929d0e0e4736-"
                                                                       "00f067aa0ba902b7-01")}};
        events[1].topic = QStringLiteral("orders for/you");
        write(*db, events);
        RelayThread relay(db->url(), testRelayOptions(b->bootstrap(), QStringLiteral("r-reserved")));
        relay.start();
        QTRY_VERIFY_WITH_TIMEOUT(count(*db, "SENT") == 2 && count(*db, "FAILED") == 1, 30000);
        relay.stop();
        QCOMPARE(
            countRows(*db, QStringLiteral("{events}"),
                      QStringLiteral(
                          "status = 'FAILED' AND attempts = 1 AND last_error_class = 'deterministic' "
                          "AND last_error LIKE 'topic name \"orders for/you\" is not valid for Kafka%'")),
            qint64(1));
        auto first = db->scalar(QStringLiteral("SELECT event_id FROM {events} WHERE aggregate_id = 'R0'"));
        QVERIFY(first.ok());
        const auto messages = readTopic(b->bootstrap(), QStringLiteral("order"), 2);
        QCOMPARE(messages.size(), 2);
        for (const ConsumedMessage& m : messages) {
            if (m.key != "R0")
                continue;
            QCOMPARE(QString::fromUtf8(m.headers.value("event_id")), first->toString());
            QCOMPARE(m.headers.value("aggregate_id"), QByteArray("R0"));
            QVERIFY(!m.headers.contains("x-replay-count"));
            QVERIFY(m.headers.contains("traceparent")); // the writer's other headers travel
            QCOMPARE(m.headerCount, 7); // the relay's 6 (aggregate_version too) and traceparent
        }
    }

    void poisonEventsFailAndTheRelayKeepsGoing()
    {
        auto b = broker();
        QVERIFY(b->createTopic(QStringLiteral("forbidden"), 1).ok());
        b->setTopicError(QStringLiteral("forbidden"), RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED);
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("poison"));
        QVector<NewEvent> events;
        for (int i = 0; i < 100; ++i)
            events << orderEvent(QStringLiteral("A%1").arg(i), 1);
        events[10].payload = "{\"blob\":\"" + QByteArray(30000, 'x') + "\"}";
        events[20].topic = QStringLiteral("forbidden");
        write(*db, events);
        RelayOptions o = testRelayOptions(b->bootstrap(), QStringLiteral("r-poison"));
        (void)kafkaProducer(o).set(QStringLiteral("message.max.bytes"), QStringLiteral("20000"));
        RelayThread relay(db->url(), o);
        relay.start();
        QTRY_VERIFY_WITH_TIMEOUT(count(*db, "SENT") == 98 && count(*db, "FAILED") == 2, 90000);
        relay.stop();
        QCOMPARE(countRows(*db, QStringLiteral("{events}"),
                           QStringLiteral("status = 'FAILED' AND last_error LIKE '%too large%' AND "
                                          "last_error_class = 'deterministic'")),
                 qint64(1));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"),
                           QStringLiteral("status = 'FAILED' AND last_error ILIKE '%authorization%'")),
                 qint64(1));
        QCOMPARE(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED' AND attempts = 1")),
            qint64(2));
    }

    // A broker slower than message.timeout.ms answers nothing: no attempt is spent (issue 38 item 2),
    // so with max_attempts 2 no event goes DEAD however long it lasts, and all go out once it is fast.
    void unansweredSendsSpendNoAttempts()
    {
        auto b = broker();
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("unanswered"));
        insertEvents(*db, 5);
        RelayOptions o = testRelayOptions(b->bootstrap(), QStringLiteral("r-unanswered"));
        (void)kafkaProducer(o).set(QStringLiteral("message.timeout.ms"), QStringLiteral("500"));
        o.maxAttempts = 2;
        o.backoffBaseMs = 50;
        o.backoffCapMs = 100;
        b->setLatency(1, 2000);
        RelayThread relay(db->url(), o);
        relay.start();
        QTRY_VERIFY_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("last_error LIKE '%timed out%'")) > 0,
            30000);
        QTest::qWait(5000); // several rounds of timeouts
        QCOMPARE(count(*db, "DEAD"), qint64(0));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("attempts > 1")), qint64(0));
        b->setLatency(1, 0);
        QTRY_VERIFY_WITH_TIMEOUT(count(*db, "SENT") == 5, 60000);
        relay.stop();
        QCOMPARE(relay.stats().dead.load(), qint64(0));
    }

    // 3,000 SENT rows past retention, 100 per batch: one pass (10 batches) deletes 1,000. The
    // relay comes back a second later while it is behind, instead of a minute later, which let a
    // table written faster than 10 batches a minute grow without bound.
    void retentionKeepsPaceWithTheBacklogOfExpiredRows()
    {
        auto b = broker();
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("retention"));
        insertEvents(*db, 3000);
        QVERIFY(db->exec(QStringLiteral(
                             "UPDATE {events} SET status = 'SENT', sent_at = now() - interval '1 hour'"))
                    .ok());
        insertEvents(*db, 5);
        RelayOptions o = testRelayOptions(b->bootstrap(), QStringLiteral("r-retention"));
        o.retentionMs = 60000;
        o.retentionBatch = 100;
        RelayThread relay(db->url(), o);
        relay.start();
        QTRY_VERIFY_WITH_TIMEOUT(count(*db, "SENT") == 5, 20000);
        relay.stop();
        QCOMPARE(relay.stats().retained.load(), qint64(3000));
        QCOMPARE(countRows(*db, QStringLiteral("{events}")), qint64(5)); // the young ones stay
    }

    // DEAD rows have a retention of their own (issue 37 item 9): kept for [relay] dead_retention,
    // then removed a batch at a time, each batch with its audit row naming the ids.
    void deadRowsHaveARetentionOfTheirOwnAndEachRemovalIsAudited()
    {
        auto b = broker();
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("dead_retention"));
        const auto ids = insertEvents(*db, 5);
        QVERIFY(db->exec(QStringLiteral(
                             "UPDATE {events} SET status = 'DEAD', created_at = now() - interval '40 days' "
                             "WHERE id IN (:a, :b, :c)"),
                         {{QStringLiteral(":a"), ids[0]},
                          {QStringLiteral(":b"), ids[1]},
                          {QStringLiteral(":c"), ids[2]}})
                    .ok());
        QVERIFY(db->exec(QStringLiteral("UPDATE {events} SET status = 'DEAD' WHERE id = :d"),
                         {{QStringLiteral(":d"), ids[3]}})
                    .ok());
        RelayOptions o = testRelayOptions(b->bootstrap(), QStringLiteral("r-dead-retention"));
        o.deadRetentionMs = 30LL * 24 * 3600 * 1000;
        o.retentionBatch = 2; // two audited batches
        RelayThread relay(db->url(), o);
        relay.start();
        QTRY_VERIFY_WITH_TIMEOUT(count(*db, "SENT") == 1 && count(*db, "DEAD") == 1, 20000);
        relay.stop();
        QCOMPARE(countRows(*db, QStringLiteral("{events}"),
                           QStringLiteral("id = %1 AND status = 'DEAD'").arg(ids[3])),
                 qint64(1)); // the young DEAD row stays
        auto audit =
            db->exec(QStringLiteral("SELECT actor, affected_count, target_ids FROM {audit} WHERE action = "
                                    "'events.retention_dead' ORDER BY id"));
        QVERIFY(audit.ok());
        QStringList rows;
        while (audit->next())
            rows << QStringLiteral("%1 %2 %3")
                        .arg(audit->value(0).toString())
                        .arg(audit->value(1).toLongLong())
                        .arg(audit->value(2).toString().remove(QLatin1Char(' ')));
        QCOMPARE(rows, (QStringList{QStringLiteral("r-dead-retention 2 [%1,%2]").arg(ids[0]).arg(ids[1]),
                                    QStringLiteral("r-dead-retention 1 [%1]").arg(ids[2])}));
    }

    void staleWorkerIsFencedOut()
    {
        auto b = broker();
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("fenced"));
        insertEvents(*db, 10);
        // Worker A stalls between the ack and the mark for longer than its lease.
        QVERIFY(Failpoints::configure(QStringLiteral("relay.after_confirm_before_mark=1*sleep(6000)")).ok());
        RelayOptions oa = testRelayOptions(b->bootstrap(), QStringLiteral("stale-a"));
        oa.leaseMs = 3000;
        (void)kafkaProducer(oa).set(QStringLiteral("message.timeout.ms"), QStringLiteral("800"));
        RelayThread a(db->url(), oa);
        a.start();
        QTRY_VERIFY_WITH_TIMEOUT(count(*db, "SENDING") == 10, 10000);
        RelayOptions ob = oa;
        ob.workerId = QStringLiteral("fresh-b");
        RelayThread bRelay(db->url(), ob);
        bRelay.start();
        QTRY_VERIFY_WITH_TIMEOUT(count(*db, "SENT") == 10, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(a.stats().fenced.load() == 10, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(MetricsQuery(*db).sample()->relayLeaseExpiredTotal == 10, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(MetricsQuery(*db).sample()->relayFencedTotal == 10, 10000);
        a.stop();
        bRelay.stop();
        QCOMPARE(a.stats().sent.load(), qint64(0));
        QCOMPARE(bRelay.stats().sent.load(), qint64(10));
        QCOMPARE(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT' AND attempts = 2")),
            qint64(10));
    }

    // librdkafka's queue holds 10 messages and the broker answers after a second: a batch of 100
    // cannot be queued within its lease. The relay queues what it can in time and releases the
    // rest, instead of blocking in enqueue() past the lease (sending events it no longer owns).
    void fullProducerQueueReleasesInsteadOfOutlivingTheLease()
    {
        auto b = broker();
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("queuefull"));
        insertEvents(*db, 100);
        b->setLatency(1, 1000);
        RelayOptions o = testRelayOptions(b->bootstrap(), QStringLiteral("queue-full"));
        o.leaseMs = 8000;
        o.batchSize = 100;
        QVERIFY(kafkaProducer(o).set(QStringLiteral("message.timeout.ms"), QStringLiteral("4000")).ok());
        QVERIFY(
            kafkaProducer(o).set(QStringLiteral("queue.buffering.max.messages"), QStringLiteral("10")).ok());
        QVERIFY(o.validate().ok());
        RelayThread relay(db->url(), o);
        QElapsedTimer t;
        t.start();
        relay.start();
        QTRY_VERIFY_WITH_TIMEOUT(count(*db, "SENT") == 100, 90000);
        relay.stop();
        const qint64 retried = relay.stats().retried.load();
        qInfo("100 events through a 10-message producer queue in %lld ms; %lld release(s), %lld retried",
              t.elapsed(), static_cast<long long>(relay.stats().released.load()),
              static_cast<long long>(retried));
        QVERIFY(relay.stats().released.load() > 0);
        QCOMPARE(relay.stats().fenced.load(), qint64(0));
        QCOMPARE(relay.stats().leaseExpired.load(), qint64(0));
        // Released events never left the process: no attempt counted for them (only a broker
        // timeout, if any, costs one), and nothing goes out twice but such a retry.
        QCOMPARE(db->scalar(QStringLiteral("SELECT SUM(attempts) FROM {events}"))->toLongLong(),
                 100 + retried);
        b->setLatency(1, 0);
        const auto onTopic = readTopic(b->bootstrap(), QStringLiteral("order"), -1, 3000);
        QSet<QByteArray> unique;
        for (const ConsumedMessage& m : onTopic)
            unique.insert(m.headers.value("event_id"));
        QCOMPARE(unique.size(), 100);
        QVERIFY(onTopic.size() <= 100 + retried);
    }

    void desiredStateControlsTheRelay()
    {
        auto b = broker();
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("desired"));
        RelayThread relay(db->url(), testRelayOptions(b->bootstrap(), QStringLiteral("controlled")));
        relay.start();
        auto stateOf = [&] {
            auto v = db->scalar(QStringLiteral("SELECT state FROM {relays} WHERE worker_id = 'controlled'"));
            return v ? v->toString() : QString();
        };
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(), QStringLiteral("IDLE"), 10000);
        QVERIFY(db->exec(QStringLiteral(
                             "UPDATE {relays} SET desired_state = 'PAUSE' WHERE worker_id = 'controlled'"))
                    .ok());
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(), QStringLiteral("PAUSED"), 10000);
        insertEvents(*db, 20);
        QTest::qWait(1500);
        QCOMPARE(count(*db, "PENDING"), qint64(20)); // paused: nothing claimed
        QVERIFY(db->exec(QStringLiteral(
                             "UPDATE {relays} SET desired_state = 'RUN' WHERE worker_id = 'controlled'"))
                    .ok());
        QTRY_VERIFY_WITH_TIMEOUT(count(*db, "SENT") == 20, 10000);
        QVERIFY(db->exec(QStringLiteral(
                             "UPDATE {relays} SET desired_state = 'DRAIN' WHERE worker_id = 'controlled'"))
                    .ok());
        // A drained relay finishes its work, deregisters and returns by itself.
        QTRY_COMPARE_WITH_TIMEOUT(countRows(*db, QStringLiteral("{relays}")), qint64(0), 10000);
        relay.stop();
    }

    void notifyWakesTheRelayBeforeThePollInterval()
    {
        auto b = broker();
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("notify"));
        RelayOptions o = testRelayOptions(b->bootstrap(), QStringLiteral("listener"));
        o.pollIntervalMs = 20000;
        o.localWakeup = false; // the NOTIFY, not the commit in this process, must wake it
        RelayThread relay(db->url(), o);
        relay.start();
        // Up and registered (after its doorbell's temporary slot, which waits for the transactions
        // open on the server: other tests' under the suite; 10.5 s once in a rehearsal).
        QTRY_VERIFY_WITH_TIMEOUT(countRows(*db, QStringLiteral("{relays}")) == 1, 30000);
        QTest::qWait(500); // idle, waiting on LISTEN
        QElapsedTimer t;
        t.start();
        insertEvents(*db, 1);
        QTRY_VERIFY_WITH_TIMEOUT(count(*db, "SENT") == 1, 5000);
        relay.stop();
        QVERIFY2(t.elapsed() < 3000, qPrintable(QString::number(t.elapsed())));
    }

    // relay.linger_ms (issue 30 item 2): commits that follow a claim within the linger share the
    // next claim and its mark (one sent_at per mark statement), while an event that comes alone to
    // an idle relay is claimed at once, empty polls or not. With linger 0 the same trickle takes a
    // claim per commit (the contrast shows the count can fail).
    // The contrast needs one wake-up per commit: NOTIFY (switched on as `outboxctl notify on` does).
    // The doorbell (the default wake-up) may gather commits by itself, so its row checks the linger
    // side only.
    void lingerGathersCommitsButNeverDelaysALoneEvent_data()
    {
        QTest::addColumn<int>("lingerMs");
        QTest::addColumn<bool>("notify");
        QTest::newRow("notify, linger 1000 ms") << 1000 << true;
        QTest::newRow("notify, linger 0") << 0 << true;
        QTest::newRow("doorbell, linger 1000 ms") << 1000 << false;
    }
    void lingerGathersCommitsButNeverDelaysALoneEvent()
    {
        QFETCH(int, lingerMs);
        QFETCH(bool, notify);
        auto b = broker();
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("linger"));
        if (notify) {
            auto on =
                NotifyTrigger(*db).setEnabled(true, QStringLiteral("linger test"), QStringLiteral("test"));
            QVERIFY2(on, qPrintable(on.message()));
        }
        RelayOptions o = testRelayOptions(b->bootstrap(), QStringLiteral("lingerer"));
        o.pollIntervalMs = 200; // empty polls meanwhile must not count as claims that found events
        o.lingerMs = lingerMs;
        o.localWakeup = false; // woken by the NOTIFY, as by an order service's commit
        RelayThread relay(db->url(), o);
        relay.start();
        // Up and registered (after its doorbell's temporary slot, which waits for the transactions
        // open on the server: other tests' under the suite; 10.5 s once in a rehearsal).
        QTRY_VERIFY_WITH_TIMEOUT(countRows(*db, QStringLiteral("{relays}")) == 1, 30000);
        QTest::qWait(1200); // idle: several empty polls, no claim found anything yet
        QElapsedTimer alone;
        alone.start();
        insertEvents(*db, 1);
        QTRY_VERIFY_WITH_TIMEOUT(count(*db, "SENT") == 1, 5000);
        const qint64 aloneMs = alone.elapsed();
        // A trickle right after that claim: 12 commits 15 ms apart (about 180 ms, inside the linger).
        for (int i = 0; i < 12; ++i) {
            insertEvents(*db, 1);
            QTest::qWait(15);
        }
        QTRY_VERIFY_WITH_TIMEOUT(count(*db, "SENT") == 13, 10000);
        relay.stop();
        auto marks = db->scalar(QStringLiteral("SELECT COUNT(DISTINCT sent_at) FROM {events}"));
        QVERIFY2(marks, qPrintable(marks.message()));
        const qint64 markCount = marks->toLongLong();
        if (lingerMs > 0) {
            QVERIFY2(aloneMs < 500, qPrintable(QStringLiteral("a lone event waited %1 ms").arg(aloneMs)));
            // The lone event's mark and one (at most two, should a commit straddle it) for the trickle.
            QVERIFY2(markCount <= 3, qPrintable(QStringLiteral("%1 marks for 13 events").arg(markCount)));
        } else {
            QVERIFY2(markCount >= 6, qPrintable(QStringLiteral("%1 marks for 13 events").arg(markCount)));
        }
    }

    // SQLite has no NOTIFY: a writer in the relay's process wakes it through NewEventsHub at
    // commit, and a writer elsewhere through PRAGMA data_version, polled every few milliseconds.
    void sqliteRelayWakesOnACommitInItsProcess() { sqliteWakeUp(true); }
    void sqliteRelayNoticesOtherWritersThroughDataVersion() { sqliteWakeUp(false); }

    void unsafeConfigurationIsRefusedAtStart()
    {
        RelayOptions o = testRelayOptions(QStringLiteral("127.0.0.1:1"), QStringLiteral("bad"));
        o.leaseMs = 5000;
        (void)kafkaProducer(o).set(QStringLiteral("message.timeout.ms"), QStringLiteral("60000"));
        const Status s = o.validate();
        QVERIFY(!s.ok());
        QCOMPARE(s.error().kind, ErrorKind::Usage);
        QVERIFY2(s.message().contains(QStringLiteral("message.timeout.ms")), qPrintable(s.message()));
        // 0 is librdkafka's "no timeout": longer than any lease, so refused like 40000 is.
        for (const char* name : {"message.timeout.ms", "delivery.timeout.ms"}) {
            RelayOptions infinite = testRelayOptions(QStringLiteral("127.0.0.1:1"), QStringLiteral("bad"));
            infinite.leaseMs = 30000;
            QVERIFY(infinite.validate().ok());
            QVERIFY(kafkaProducer(infinite).set(QLatin1String(name), QStringLiteral("0")).ok());
            const Status refused = infinite.validate();
            QVERIFY2(!refused.ok(), name);
            QCOMPARE(refused.error().kind, ErrorKind::Usage);
            QVERIFY2(refused.message().contains(QStringLiteral("no delivery timeout")),
                     qPrintable(refused.message()));
        }
        RelayOptions t = testRelayOptions(QStringLiteral("127.0.0.1:1"), QStringLiteral("bad"));
        t.topicTemplate = QStringLiteral("orders/{aggregate_type}");
        QVERIFY(!t.validate().ok());
    }

    void aggregateOrderingHoldsUnderFailures()
    {
        auto b = broker(1, 4);
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("ordering"));
        QVector<NewEvent> events;
        for (int v = 1; v <= 10; ++v)
            for (int a = 0; a < 20; ++a)
                events << orderEvent(QStringLiteral("agg-%1").arg(a), v,
                                     QByteArray("{\"v\":") + QByteArray::number(v) + "}");
        // agg-7's fourth event is poison: it must block agg-7's later events.
        events[3 * 20 + 7].payload = "{\"blob\":\"" + QByteArray(30000, 'x') + "\"}";
        write(*db, events);
        RelayOptions o = testRelayOptions(b->bootstrap(), QStringLiteral("r-ordered"));
        o.ordering = OrderingMode::Aggregate;
        o.batchSize = 50;
        (void)kafkaProducer(o).set(QStringLiteral("message.max.bytes"), QStringLiteral("20000"));
        (void)kafkaProducer(o).set(QStringLiteral("message.timeout.ms"), QStringLiteral("800"));
        RelayThread relay(db->url(), o);
        // Transient trouble while it runs: answers slower than the timeout, until the relay has
        // retried at least once. (A fixed 6 s was over before a relay on a busy machine had sent
        // anything: CI saw no retry at all.)
        b->setLatency(1, 2500);
        relay.start();
        QTRY_VERIFY_WITH_TIMEOUT(relay.stats().retried.load() > 0, 60000);
        QTest::qWait(1000);
        b->setLatency(1, 0);
        QTRY_VERIFY_WITH_TIMEOUT(count(*db, "SENT") == 200 - 7, 90000);
        QTest::qWait(500);
        relay.stop();
        QCOMPARE(count(*db, "FAILED"), qint64(1));
        QCOMPARE(count(*db, "PENDING"), qint64(6)); // agg-7 versions 5..10 wait behind the FAILED one
        QVERIFY(relay.stats().retried.load() > 0);

        const auto messages = readTopic(b->bootstrap(), QStringLiteral("order"), -1, 3000);
        QHash<QByteArray, int> lastVersion;
        for (const ConsumedMessage& m : messages) {
            const int v = m.headers.value("aggregate_version").toInt();
            const int last = lastVersion.value(m.key, 0);
            // A redelivery repeats a version already seen; a new version must be the next one.
            QVERIFY2(v <= last || v == last + 1, qPrintable(QStringLiteral("%1: version %2 after %3")
                                                                .arg(QString::fromUtf8(m.key))
                                                                .arg(v)
                                                                .arg(last)));
            lastVersion[m.key] = std::max(last, v);
        }
        QCOMPARE(lastVersion.value("agg-7"), 3);
        QCOMPARE(lastVersion.value("agg-8"), 10);
    }
};

QTEST_GUILESS_MAIN(TestRelay)
#include "tst_relay.moc"
