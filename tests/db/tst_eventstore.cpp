#include "core/db/EventStatus.h"
#include "core/db/EventStore.h"
#include "tests/support/TestDatabases.h"

#include <QJsonDocument>
#include <QSet>
#include <QTest>
#include <QThread>

using namespace outbox;
using namespace outbox::test;

class TestEventStore : public QObject
{
    Q_OBJECT

private slots:
    void writerInsertsInsideTheCallersTransaction_data() { TestDatabases::addKinds(); }
    void writerInsertsInsideTheCallersTransaction()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        NewEvent e;
        e.eventType = QStringLiteral("OrderCreated");
        e.aggregateType = QStringLiteral("Order");
        e.aggregateId = QStringLiteral("O1001");
        e.aggregateVersion = 1;
        e.payload = R"({"order_id":"O1001","total":199.0})";
        e.headers = QJsonObject{{QStringLiteral("trace_id"), QStringLiteral("abc")}};

        // Rolled back with the business change: nothing remains.
        QVERIFY(db->beginWrite().ok());
        QVERIFY(EventWriter(*db).append(e).ok());
        db->rollback();
        QCOMPARE(countRows(*db, QStringLiteral("{events}")), qint64(0));

        QVERIFY(db->beginWrite().ok());
        auto id = EventWriter(*db).append(e);
        QVERIFY2(id.ok(), qPrintable(id.message()));
        QVERIFY(db->commit().ok());
        auto stored = EventStore(*db).find(*id);
        QVERIFY2(stored.ok(), qPrintable(stored.message()));
        QCOMPARE(stored->status, EventStatus::Pending);
        QCOMPARE(stored->attempts, 0);
        QCOMPARE(stored->aggregateId, QStringLiteral("O1001"));
        QCOMPARE(*stored->aggregateVersion, qint64(1));
        QCOMPARE(
            QJsonDocument::fromJson(stored->payload).object().value(QStringLiteral("order_id")).toString(),
            QStringLiteral("O1001"));
        QCOMPARE(
            QJsonDocument::fromJson(stored->headers).object().value(QStringLiteral("trace_id")).toString(),
            QStringLiteral("abc"));
        QVERIFY(stored->createdAt.isValid());
        QVERIFY(qAbs(stored->createdAt.secsTo(QDateTime::currentDateTimeUtc())) < 120);

        // A duplicate event_id is refused by the database.
        QVERIFY(db->beginWrite().ok());
        NewEvent dup = e;
        dup.eventId = *id;
        QVERIFY(!EventWriter(*db).append(dup).ok());
        db->rollback();
    }

    void writerRejectsBadEvents_data()
    {
        QTest::addColumn<QByteArray>("payload");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << QByteArray("{oops") << "OrderCreated"
                                  << "not valid JSON";
        QTest::newRow("no type") << QByteArray("{}") << ""
                                 << "event_type";
        QTest::newRow("oversized") << (QByteArray("{\"x\":\"") + QByteArray(2 * 1024 * 1024, 'a') +
                                       QByteArray("\"}"))
                                   << "OrderCreated"
                                   << "exceeds the limit";
    }
    void writerRejectsBadEvents()
    {
        QFETCH(QByteArray, payload);
        QFETCH(QString, type);
        QFETCH(QString, expected);
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("bad"));
        NewEvent e;
        e.eventType = type;
        e.aggregateType = QStringLiteral("Order");
        e.aggregateId = QStringLiteral("1");
        e.payload = payload;
        auto r = EventWriter(*db).append(e);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, ErrorKind::Usage);
        QVERIFY2(r.message().contains(expected), qPrintable(r.message()));
        QCOMPARE(countRows(*db, QStringLiteral("{events}")), qint64(0));
    }

    // The outbox promise: an event is written in the business transaction or not at all.
    void writerRefusesToWriteOutsideATransaction_data() { TestDatabases::addKinds(); }
    void writerRefusesToWriteOutsideATransaction()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        NewEvent e;
        e.eventType = QStringLiteral("OrderCreated");
        e.aggregateType = QStringLiteral("Order");
        e.aggregateId = QStringLiteral("O1");
        e.payload = "{}";
        QVERIFY(!db->inTransaction());
        auto single = EventWriter(*db).append(e);
        QVERIFY(!single.ok());
        QCOMPARE(single.error().kind, ErrorKind::Usage);
        QVERIFY2(single.message().contains(QStringLiteral("no transaction is open")),
                 qPrintable(single.message()));
        auto batch = EventWriter(*db).appendBatch({e, e});
        QVERIFY(!batch.ok());
        QVERIFY2(batch.message().contains(QStringLiteral("no transaction is open")),
                 qPrintable(batch.message()));
        QCOMPARE(countRows(*db, QStringLiteral("{events}")), qint64(0));
        // After a commit the connection is outside a transaction again.
        QVERIFY(db->beginWrite().ok());
        QVERIFY(EventWriter(*db).append(e).ok());
        QVERIFY(db->commit().ok());
        QVERIFY(!EventWriter(*db).append(e).ok());
        QCOMPARE(countRows(*db, QStringLiteral("{events}")), qint64(1));
    }

    void claimTakesDueEventsInIdOrder_data() { TestDatabases::addKinds(); }
    void claimTakesDueEventsInIdOrder()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        const auto ids = insertEvents(*db, 25);
        EventStore store(*db);
        auto batch = store.claim(QStringLiteral("worker-a"), 10, 30000);
        QVERIFY2(batch.ok(), qPrintable(batch.message()));
        QCOMPARE(batch->events.size(), 10);
        QVERIFY(!batch->leaseToken.isEmpty());
        for (int i = 0; i < 10; ++i) {
            const OutboxEvent& e = batch->events.at(i);
            QCOMPARE(e.id, ids.at(i));
            QCOMPARE(e.status, EventStatus::Sending);
            QCOMPARE(e.attempts, 1);
            QCOMPARE(e.workerId, QStringLiteral("worker-a"));
            QCOMPARE(e.leaseToken, batch->leaseToken);
            QVERIFY(e.leaseUntil > QDateTime::currentDateTimeUtc().addSecs(20));
        }
        auto second = store.claim(QStringLiteral("worker-b"), 100, 30000);
        QVERIFY(second.ok());
        QCOMPARE(second->events.size(), 15);
        QCOMPARE(second->events.first().id, ids.at(10));
        auto empty = store.claim(QStringLiteral("worker-c"), 100, 30000);
        QVERIFY(empty.ok());
        QVERIFY(empty->events.isEmpty());
    }

    void markSentIsFencedByTheLeaseToken_data() { TestDatabases::addKinds(); }
    void markSentIsFencedByTheLeaseToken()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        insertEvents(*db, 4);
        EventStore store(*db);
        auto batch = store.claim(QStringLiteral("w1"), 4, 30000);
        QVERIFY(batch.ok());
        QVector<SentMark> marks;
        for (const OutboxEvent& e : batch->events)
            marks << SentMark{e.id, 2, 1000 + e.id, QStringLiteral("orders")};
        // The topic sent to: none (NULL, not the text "NULL" or ""), and one an array literal must
        // quote and escape.
        marks[1].topic.clear();
        marks[2].topic = QStringLiteral("we\"ird\\,{topic} NULL");

        auto stale = store.markSent(QStringLiteral("not-the-token"), marks);
        QVERIFY2(stale.ok(), qPrintable(stale.message()));
        QCOMPARE(stale->updated, 0);
        QCOMPARE(stale->fenced.size(), 4);
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENDING'")), qint64(4));

        auto ok = store.markSent(batch->leaseToken, marks);
        QVERIFY2(ok.ok(), qPrintable(ok.message()));
        QCOMPARE(ok->updated, 4);
        QVERIFY(ok->fenced.isEmpty());
        auto sent = store.find(QString::number(marks.first().id));
        QVERIFY(sent.ok());
        QCOMPARE(sent->status, EventStatus::Sent);
        QCOMPARE(*sent->brokerPartition, 2);
        QCOMPARE(*sent->brokerOffset, 1000 + marks.first().id);
        QVERIFY(sent->sentAt.isValid());
        QVERIFY(sent->leaseToken.isEmpty());
        QCOMPARE(sent->sentTopic, QStringLiteral("orders"));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"),
                           QStringLiteral("sent_topic IS NULL AND id = %1").arg(marks.at(1).id)),
                 qint64(1));
        auto odd = store.find(QString::number(marks.at(2).id));
        QVERIFY(odd.ok());
        QCOMPARE(odd->sentTopic, marks.at(2).topic);

        // Marking again with the same (now spent) token changes nothing.
        auto again = store.markSent(batch->leaseToken, marks);
        QVERIFY(again.ok());
        QCOMPARE(again->updated, 0);
        QCOMPARE(again->fenced.size(), 4);
    }

    void staleWorkerCannotOverwriteANewerLease_data() { TestDatabases::addKinds(); }
    void staleWorkerCannotOverwriteANewerLease()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        insertEvents(*db, 2);
        EventStore store(*db);
        auto old = store.claim(QStringLiteral("old-worker"), 2, 1);
        QVERIFY(old.ok());
        QCOMPARE(old->events.size(), 2);
        QThread::msleep(30);
        auto reaped = store.reapExpiredLeases(10);
        QVERIFY(reaped.ok());
        QCOMPARE(reaped->returned, 2);
        auto fresh = store.claim(QStringLiteral("new-worker"), 2, 60000);
        QVERIFY(fresh.ok());
        QCOMPARE(fresh->events.size(), 2);
        QCOMPARE(fresh->events.first().attempts, 2);

        const qint64 id = old->events.first().id;
        auto failed = store.markFailed(old->leaseToken, {ErrorMark{id, QStringLiteral("late failure"),
                                                                   QStringLiteral("deterministic"), 0}});
        QVERIFY(failed.ok());
        QCOMPARE(failed->updated, 0);
        QCOMPARE(failed->fenced, QVector<qint64>{id});
        auto sent = store.markSent(old->leaseToken, {SentMark{id, 0, 1}});
        QVERIFY(sent.ok());
        QCOMPARE(sent->fenced, QVector<qint64>{id});
        auto row = store.find(QString::number(id));
        QCOMPARE(row->status, EventStatus::Sending);
        QCOMPARE(row->workerId, QStringLiteral("new-worker"));
        QCOMPARE(row->leaseToken, fresh->leaseToken);
    }

    void errorTransitions_data() { TestDatabases::addKinds(); }
    void errorTransitions()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        insertEvents(*db, 4);
        EventStore store(*db);
        auto batch = store.claim(QStringLiteral("w"), 4, 30000);
        QVERIFY(batch.ok());
        const auto& ev = batch->events;
        auto retry =
            store.retryLater(batch->leaseToken, {ErrorMark{ev[0].id, QStringLiteral("broker timeout"),
                                                           QStringLiteral("unknown_outcome"), 60000}});
        QVERIFY2(retry.ok(), qPrintable(retry.message()));
        QCOMPARE(retry->updated, 1);
        auto failed = store.markFailed(batch->leaseToken,
                                       {ErrorMark{ev[1].id, QStringLiteral("Broker: Message size too large"),
                                                  QStringLiteral("deterministic"), 0}});
        QVERIFY(failed.ok());
        auto dead = store.markDead(
            batch->leaseToken,
            {ErrorMark{ev[2].id, QStringLiteral("attempts exhausted"), QStringLiteral("transient"), 0}});
        QVERIFY(dead.ok());
        auto released = store.release(batch->leaseToken, {ev[3].id});
        QVERIFY(released.ok());
        QCOMPARE(released->updated, 1);

        auto r0 = store.find(QString::number(ev[0].id));
        QCOMPARE(r0->status, EventStatus::Pending);
        QCOMPARE(r0->attempts, 1);
        QCOMPARE(r0->lastError, QStringLiteral("broker timeout"));
        QCOMPARE(r0->lastErrorClass, QStringLiteral("unknown_outcome"));
        QVERIFY(r0->availableAt > QDateTime::currentDateTimeUtc().addSecs(30));
        QVERIFY(r0->leaseToken.isEmpty());
        auto r1 = store.find(QString::number(ev[1].id));
        QCOMPARE(r1->status, EventStatus::Failed);
        QCOMPARE(r1->lastErrorClass, QStringLiteral("deterministic"));
        QCOMPARE(store.find(QString::number(ev[2].id))->status, EventStatus::Dead);
        auto r3 = store.find(QString::number(ev[3].id));
        QCOMPARE(r3->status, EventStatus::Pending);
        QCOMPARE(r3->attempts, 0); // a released claim was never sent

        // The backed-off event is not due: only the released one is claimable now.
        auto next = store.claim(QStringLiteral("w2"), 10, 30000);
        QVERIFY(next.ok());
        QCOMPARE(next->events.size(), 1);
        QCOMPARE(next->events.first().id, ev[3].id);
    }

    void reaperReturnsOnlyExpiredLeases_data() { TestDatabases::addKinds(); }
    void reaperReturnsOnlyExpiredLeases()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        insertEvents(*db, 6);
        EventStore store(*db);
        auto expired = store.claim(QStringLiteral("dead-worker"), 3, 1);
        auto live = store.claim(QStringLiteral("live-worker"), 3, 600000);
        QVERIFY(expired.ok() && live.ok());
        QThread::msleep(30);
        auto reaped = store.reapExpiredLeases(10);
        QVERIFY2(reaped.ok(), qPrintable(reaped.message()));
        QCOMPARE(reaped->returned, 3);
        QCOMPARE(reaped->exhausted, 0);
        for (const OutboxEvent& e : expired->events) {
            auto row = store.find(QString::number(e.id));
            QCOMPARE(row->status, EventStatus::Pending);
            QCOMPARE(row->lastErrorClass, QStringLiteral("lease_expired"));
            QVERIFY(row->workerId.isEmpty());
        }
        for (const OutboxEvent& e : live->events) {
            auto row = store.find(QString::number(e.id));
            QCOMPARE(row->status, EventStatus::Sending);
            QCOMPARE(row->leaseToken, live->leaseToken);
        }
        QCOMPARE(store.reapExpiredLeases(10)->returned, 0);
    }

    // An event whose every send crashes its relay must not cycle SENDING -> PENDING for ever.
    void reaperAppliesMaxAttempts_data() { TestDatabases::addKinds(); }
    void reaperAppliesMaxAttempts()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        const auto ids = insertEvents(*db, 4);
        EventStore store(*db);
        for (int round = 1; round <= 3; ++round) {
            auto claimed = store.claim(QStringLiteral("crashing"), 4, 1);
            QVERIFY2(claimed.ok(), qPrintable(claimed.message()));
            QCOMPARE(claimed->events.size(), round == 1 ? 4 : 2);
            QThread::msleep(30);
            if (round == 1) // two of them only ever crash the relay; the others once
                QVERIFY(store.markSent(claimed->leaseToken, {SentMark{ids[2], 0, 1}, SentMark{ids[3], 0, 2}})
                            .ok());
            auto reaped = store.reapExpiredLeases(3);
            QVERIFY2(reaped.ok(), qPrintable(reaped.message()));
            QCOMPARE(reaped->returned, round < 3 ? 2 : 0);
            QCOMPARE(reaped->exhausted, round < 3 ? 0 : 2);
        }
        for (qint64 id : {ids[0], ids[1]}) {
            auto row = store.find(QString::number(id));
            QCOMPARE(row->status, EventStatus::Dead);
            QCOMPARE(row->attempts, 3);
            QCOMPARE(row->lastErrorClass, QStringLiteral("lease_expired"));
            QVERIFY2(row->lastError.startsWith(QStringLiteral("lease expired after 3 attempts")),
                     qPrintable(row->lastError));
            QVERIFY(row->leaseToken.isEmpty());
        }
        QCOMPARE(statusOf(*db, ids[2]), EventStatus::Sent);
        // In ordering mode the exhausted event keeps blocking its aggregate: FAILED, not DEAD.
        const auto more = insertEvents(*db, 1, QStringLiteral("OrderShipped"), QStringLiteral("ship-"));
        forceStatus(*db, more, QStringLiteral("PENDING"));
        QVERIFY(db->exec(QStringLiteral("UPDATE {events} SET attempts = 2 WHERE id = :id"),
                         {{QStringLiteral(":id"), more[0]}})
                    .ok());
        QVERIFY(store.claim(QStringLiteral("crashing"), 4, 1).ok());
        QThread::msleep(30);
        auto ordered = store.reapExpiredLeases(3, OrderingMode::Aggregate);
        QVERIFY(ordered.ok());
        QCOMPARE(ordered->exhausted, 1);
        QCOMPARE(statusOf(*db, more[0]), EventStatus::Failed);
    }

    // MariaDB/MySQL have no UPDATE … RETURNING: the claim reads its rows back. By lease_token (no
    // index) that was a full scan of the table per claim; by the claimed ids it is a few lookups.
    void mysqlClaimReadsBackByPrimaryKey()
    {
        if (!TestDatabases::available(QStringLiteral("mysql")))
            QSKIP("no MariaDB test server configured");
        auto db = TestDatabases::fresh(QStringLiteral("mysql"), QStringLiteral("readback"));
        const auto ids = insertEvents(*db, 6000);
        forceStatus(*db, ids.mid(0, 5990), QStringLiteral("SENT"));
        const auto fullScanReads = [&] {
            auto q = db->exec(QStringLiteral("SHOW SESSION STATUS LIKE 'Handler_read_rnd_next'"));
            return q && q->next() ? q->value(1).toLongLong() : -1;
        };
        const qint64 a = fullScanReads();
        const qint64 b = fullScanReads(); // what the status query itself costs
        EventStore store(*db);
        auto claimed = store.claim(QStringLiteral("w"), 100, 60000);
        QVERIFY2(claimed.ok(), qPrintable(claimed.message()));
        QCOMPARE(claimed->events.size(), 10);
        const qint64 c = fullScanReads();
        const qint64 claimCost = (c - b) - (b - a);
        qInfo("rows read by full scans during the claim: %lld", static_cast<long long>(claimCost));
        QVERIFY2(claimCost < 1000, qPrintable(QString::number(claimCost)));
    }

    void aggregateOrderingHoldsBackLaterEvents_data() { TestDatabases::addKinds(); }
    void aggregateOrderingHoldsBackLaterEvents()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        // Three events of one aggregate, one of another.
        QVector<NewEvent> events;
        for (const char* agg : {"A", "A", "B", "A"}) {
            NewEvent e;
            e.eventType = QStringLiteral("OrderChanged");
            e.aggregateType = QStringLiteral("Order");
            e.aggregateId = QLatin1String(agg);
            e.payload = "{}";
            events << e;
        }
        QVERIFY(db->beginWrite().ok());
        QVERIFY(EventWriter(*db).appendBatch(events).ok());
        QVERIFY(db->commit().ok());
        EventStore store(*db);
        auto first = store.claim(QStringLiteral("w"), 10, 30000, OrderingMode::Aggregate);
        QVERIFY2(first.ok(), qPrintable(first.message()));
        QCOMPARE(first->events.size(), 2); // the first A and the B
        QCOMPARE(first->events.at(0).aggregateId, QStringLiteral("A"));
        QCOMPARE(first->events.at(1).aggregateId, QStringLiteral("B"));
        auto blocked = store.claim(QStringLiteral("w"), 10, 30000, OrderingMode::Aggregate);
        QVERIFY(blocked->events.isEmpty());
        // A FAILED event keeps blocking its aggregate.
        QVERIFY(store
                    .markFailed(first->leaseToken, {ErrorMark{first->events.at(0).id, QStringLiteral("bad"),
                                                              QStringLiteral("deterministic"), 0}})
                    .ok());
        QVERIFY(store.claim(QStringLiteral("w"), 10, 30000, OrderingMode::Aggregate)->events.isEmpty());
        forceStatus(*db, {first->events.at(0).id}, QStringLiteral("DEAD"));
        auto next = store.claim(QStringLiteral("w"), 10, 30000, OrderingMode::Aggregate);
        QCOMPARE(next->events.size(), 1);
        QCOMPARE(next->events.first().id, first->events.at(0).id + 1);
    }

    void listPagesByKeysetWithFilters_data() { TestDatabases::addKinds(); }
    void listPagesByKeysetWithFilters()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        const auto ids = insertEvents(*db, 30);
        insertEvents(*db, 5, QStringLiteral("OrderPaid"), QStringLiteral("paid-"));
        forceStatus(*db, ids.mid(0, 7), QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Topic authorization failed"));
        EventStore store(*db);

        EventPageRequest r;
        r.limit = 10;
        QVector<qint64> seen;
        for (int page = 0; page < 10; ++page) {
            auto p = store.list(r);
            QVERIFY2(p.ok(), qPrintable(p.message()));
            for (const OutboxEvent& e : p->events)
                seen << e.id;
            if (p->nextAfterId == 0)
                break;
            r.afterId = p->nextAfterId;
        }
        QCOMPARE(seen.size(), 35);
        QVERIFY(std::is_sorted(seen.rbegin(), seen.rend()));

        EventPageRequest byStatus;
        byStatus.filter.statuses = {EventStatus::Failed};
        byStatus.ascending = true;
        QCOMPARE(store.list(byStatus)->events.size(), 7);
        QCOMPARE(store.list(byStatus)->events.first().id, ids.first());

        EventPageRequest byError;
        byError.filter.errorText = QStringLiteral("AUTHORIZATION");
        QCOMPARE(store.list(byError)->events.size(), 7);
        EventPageRequest byType;
        byType.filter.eventType = QStringLiteral("OrderPaid");
        QCOMPARE(store.list(byType)->events.size(), 5);
        EventPageRequest byAggregate;
        byAggregate.filter.aggregateId = QStringLiteral("order-3");
        QCOMPARE(store.list(byAggregate)->events.size(), 1);
        EventPageRequest byTime;
        byTime.filter.createdFrom = QDateTime::currentDateTimeUtc().addSecs(-600);
        byTime.filter.createdUntil = QDateTime::currentDateTimeUtc().addSecs(600);
        byTime.limit = 100;
        QCOMPARE(store.list(byTime)->events.size(), 35);
        byTime.filter.createdFrom = QDateTime::currentDateTimeUtc().addSecs(600);
        QCOMPARE(store.list(byTime)->events.size(), 0);
    }

    void injectionTextInFiltersMatchesNothingAndChangesNothing_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("text");
        const QStringList attacks = {QStringLiteral("' OR '1'='1"),
                                     QStringLiteral("x'); DROP TABLE outbox_events; --"),
                                     QStringLiteral("%"),
                                     QStringLiteral("_"),
                                     QStringLiteral("\\' OR 1=1 #"),
                                     QStringLiteral("1; DELETE FROM outbox_events")};
        for (const QString& k : TestDatabases::kinds())
            for (int i = 0; i < attacks.size() && TestDatabases::available(k); ++i)
                QTest::newRow(qPrintable(QStringLiteral("%1-%2").arg(k).arg(i))) << k << attacks.at(i);
    }
    void injectionTextInFiltersMatchesNothingAndChangesNothing()
    {
        QFETCH(QString, kind);
        QFETCH(QString, text);
        auto db = TestDatabases::fresh(kind, QStringLiteral("inject"));
        insertEvents(*db, 5);
        forceStatus(*db, {1, 2}, QStringLiteral("FAILED"), QStringLiteral("plain error"));
        EventStore store(*db);
        for (int field = 0; field < 5; ++field) {
            EventPageRequest r;
            switch (field) {
            case 0:
                r.filter.eventType = text;
                break;
            case 1:
                r.filter.aggregateType = text;
                break;
            case 2:
                r.filter.aggregateId = text;
                break;
            case 3:
                r.filter.errorText = text;
                break;
            case 4:
                r.filter.statuses = {text};
                break;
            }
            auto page = store.list(r);
            QVERIFY2(page.ok(), qPrintable(page.message()));
            QCOMPARE(page->events.size(), 0);
        }
        QVERIFY(!store.find(text).ok());
        QCOMPARE(countRows(*db, QStringLiteral("{events}")), qint64(5));
    }

    void countsAndOldestPendingAge_data() { TestDatabases::addKinds(); }
    void countsAndOldestPendingAge()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        EventStore store(*db);
        auto empty = store.counts();
        QVERIFY(empty.ok());
        QCOMPARE(empty->oldestPendingAgeMs, qint64(-1));
        const auto ids = insertEvents(*db, 10);
        forceStatus(*db, ids.mid(0, 3), QStringLiteral("SENT"));
        forceStatus(*db, ids.mid(3, 2), QStringLiteral("DEAD"));
        QThread::msleep(50);
        auto c = store.counts();
        QVERIFY(c.ok());
        QCOMPARE(c->byStatus.value(EventStatus::Pending), qint64(5));
        QCOMPARE(c->byStatus.value(EventStatus::Sent), qint64(3));
        QCOMPARE(c->byStatus.value(EventStatus::Dead), qint64(2));
        QCOMPARE(c->byStatus.value(EventStatus::Failed), qint64(0));
        QVERIFY2(c->oldestPendingAgeMs >= 40 && c->oldestPendingAgeMs < 60000,
                 qPrintable(QString::number(c->oldestPendingAgeMs)));
    }

    void retentionDeletesOnlyOldSentRows_data() { TestDatabases::addKinds(); }
    void retentionDeletesOnlyOldSentRows()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, kind);
        const auto ids = insertEvents(*db, 12);
        forceStatus(*db, ids.mid(0, 6), QStringLiteral("SENT"));
        forceStatus(*db, ids.mid(6, 2), QStringLiteral("DEAD"));
        forceStatus(*db, ids.mid(8, 2), QStringLiteral("FAILED"));
        QThread::msleep(1100);
        forceStatus(*db, {ids[5]}, QStringLiteral("SENT")); // sent just now: too young
        EventStore store(*db);
        auto first = store.deleteSentOlderThan(1000, 3);
        QVERIFY2(first.ok(), qPrintable(first.message()));
        QCOMPARE(*first, 3); // bounded
        auto second = store.deleteSentOlderThan(1000, 100);
        QVERIFY(second.ok());
        QCOMPARE(*second, 2);
        QCOMPARE(countRows(*db, QStringLiteral("{events}")), qint64(7));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(1));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"),
                           QStringLiteral("status IN ('DEAD', 'FAILED', 'PENDING')")),
                 qint64(6));
    }

    void findByIdOrEventId()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("find"));
        const auto ids = insertEvents(*db, 2);
        EventStore store(*db);
        auto byId = store.find(QString::number(ids.last()));
        QVERIFY(byId.ok());
        auto byEventId = store.find(byId->eventId);
        QVERIFY(byEventId.ok());
        QCOMPARE(byEventId->id, ids.last());
        auto missing = store.find(QStringLiteral("999999"));
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().kind, ErrorKind::NotFound);
    }
};

QTEST_GUILESS_MAIN(TestEventStore)
#include "tst_eventstore.moc"
