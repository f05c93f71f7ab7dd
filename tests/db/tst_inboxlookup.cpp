// The consumer's per-batch inbox lookup (InboxStore::statuses) and the demo inventory's batch
// handler, on every database. On PostgreSQL the lookup `consumer_name = ? AND event_id IN (…500…)`
// was planned as a sequential scan of the whole inbox (a hashed IN list costed below 500 index
// probes) and slowed the demo's consumer as the inbox grew; it is now one kept-prepared statement
// with the ids as a bound text array, one probe of the unique index per id. The handler's SKUs,
// quantities and reservations are bound arrays on PostgreSQL too.
#include "core/broker/InboxMessage.h"
#include "core/db/InboxStore.h"
#include "core/demo/InventoryService.h"
#include "tests/support/TestDatabases.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

namespace {

InboxMessage orderCreated(const QString& eventId, const QString& orderId, const QString& sku, int quantity)
{
    InboxMessage m;
    m.eventId = eventId;
    m.eventType = QStringLiteral("OrderCreated");
    m.aggregateId = orderId;
    m.json = QJsonDocument(QJsonObject{{QStringLiteral("order_id"), orderId},
                                       {QStringLiteral("sku"), sku},
                                       {QStringLiteral("quantity"), quantity}});
    return m;
}

} // namespace

class TestInboxLookup : public QObject
{
    Q_OBJECT

private slots:
    void statusesAreExactForAnyEventId_data() { TestDatabases::addKinds(); }
    void statusesAreExactForAnyEventId()
    {
        QFETCH(QString, kind);
        if (!TestDatabases::available(kind))
            QSKIP("database not configured");
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("inboxids")));
        InboxStore inbox(*db);
        // Ids that an array literal must quote and escape to stay one element each.
        const QStringList awkward{QStringLiteral("a,b"),         QStringLiteral("say \"hi\""),
                                  QStringLiteral("back\\slash"), QStringLiteral("{braced}"),
                                  QStringLiteral("NULL"),        QStringLiteral(" spaced "),
                                  QStringLiteral("ünïcødé")};
        for (const QString& id : awkward)
            QVERIFY(inbox.recordProcessed(id, QStringLiteral("inventory"), QStringLiteral("o-1"), 1).value());
        QVERIFY(inbox
                    .recordFailed(QStringLiteral("failed-one"), QStringLiteral("inventory"),
                                  QStringLiteral("o-2"), 3, QStringLiteral("boom"))
                    .ok());
        // Another consumer's record of the same event is not this consumer's.
        QVERIFY(
            inbox
                .recordProcessed(QStringLiteral("other"), QStringLiteral("billing"), QStringLiteral("o-3"), 1)
                .value());

        QStringList asked = awkward;
        asked << QStringLiteral("failed-one") << QStringLiteral("other") << QStringLiteral("unknown")
              << QStringLiteral("a") << QStringLiteral("b");
        auto found = inbox.statuses(asked, QStringLiteral("inventory"));
        QVERIFY2(found, qPrintable(found.message()));
        QHash<QString, QString> expected;
        for (const QString& id : awkward)
            expected.insert(id, QStringLiteral("PROCESSED"));
        expected.insert(QStringLiteral("failed-one"), QStringLiteral("FAILED"));
        QCOMPARE(*found, expected);
        auto none = inbox.statuses({}, QStringLiteral("inventory"));
        QVERIFY2(none, qPrintable(none.message()));
        QVERIFY(none->isEmpty());
    }

    void statusesProbeTheUniqueIndexOnALargeInbox()
    {
        const QString kind = QStringLiteral("postgresql");
        if (!TestDatabases::available(kind))
            QSKIP("no PostgreSQL test server configured");
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("inboxplan")));
        // The demo's inbox after a minute at 2,000 orders/s: where the IN list was a sequential scan.
        QVERIFY(db->exec(QStringLiteral(
            "INSERT INTO {inbox} (event_id, consumer_name, aggregate_id, status, attempts, processed_at) "
            "SELECT 'ev-' || g, 'inventory', 'o-' || g, 'PROCESSED', 1, now() FROM generate_series(1, 60000) "
            "g")));
        QVERIFY(db->exec(QStringLiteral("ANALYZE {inbox}")));
        // A generic plan at once: what a kept-prepared statement ends up with.
        QVERIFY(db->exec(QStringLiteral("SET plan_cache_mode = force_generic_plan")));
        QStringList ids;
        for (int i = 0; i < 500; ++i)
            ids << QStringLiteral("ev-%1").arg(59000 + 3 * i); // 334 known, 166 beyond the inbox
        auto found = InboxStore(*db).statuses(ids, QStringLiteral("inventory"));
        QVERIFY2(found, qPrintable(found.message()));
        QCOMPARE(found->size(), 334);

        auto prepared =
            db->exec(QStringLiteral("SELECT name FROM pg_prepared_statements WHERE statement ILIKE "
                                    "'%inbox_events%' AND statement ILIKE '%event_id%'"));
        QVERIFY2(prepared, qPrintable(prepared.message()));
        QVERIFY2(prepared->next(), "the lookup left no prepared statement on its connection");
        const QString name = prepared->value(0).toString();
        QVERIFY2(!prepared->next(), "more than one prepared lookup: its text depends on the batch");
        auto plan =
            db->exec(QStringLiteral("EXPLAIN EXECUTE %1('{\"ev-1\",\"ev-2\"}', 'inventory')").arg(name));
        QVERIFY2(plan, qPrintable(plan.message()));
        QStringList lines;
        while (plan->next())
            lines << plan->value(0).toString();
        const QString text = lines.join(QLatin1Char('\n'));
        QVERIFY2(!text.contains(QLatin1String("Seq Scan on inbox_events")),
                 qPrintable(QStringLiteral("the lookup reads the whole inbox:\n%1").arg(text)));
        QVERIFY2(text.contains(QLatin1String("inbox_events_event_consumer_key")), qPrintable(text));
    }

    void inventoryBatchReservesEveryOrder_data() { TestDatabases::addKinds(); }
    void inventoryBatchReservesEveryOrder()
    {
        QFETCH(QString, kind);
        if (!TestDatabases::available(kind))
            QSKIP("database not configured");
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("invbatch")));
        QVERIFY(demo::InventoryService::prepare(*db).ok());
        const demo::InventoryService inventory(0); // no simulated failures
        QVector<InboxMessage> messages;
        // Three SKUs, one of them twice, an OrderPaid in between (nothing to reserve).
        messages << orderCreated(QStringLiteral("e-1"), QStringLiteral("O1"), QStringLiteral("SKU-3"), 2)
                 << orderCreated(QStringLiteral("e-2"), QStringLiteral("O2"), QStringLiteral("SKU-1"), 1);
        InboxMessage paid;
        paid.eventId = QStringLiteral("e-3");
        paid.eventType = QStringLiteral("OrderPaid");
        messages << paid
                 << orderCreated(QStringLiteral("e-4"), QStringLiteral("O3"), QStringLiteral("SKU-3"), 3)
                 << orderCreated(QStringLiteral("e-5"), QStringLiteral("O4"), QStringLiteral("SKU-7"), 1);
        QVector<const InboxMessage*> batch;
        for (const InboxMessage& m : messages)
            batch << &m;
        QVERIFY(db->beginWrite().ok());
        const BatchHandlerResult r = inventory.handleBatch(*db, batch);
        QVERIFY2(r.result.outcome == HandlerResult::Outcome::Ok, qPrintable(r.result.error));
        QVERIFY(db->commit().ok());

        const auto stockOf = [&](const char* sku) {
            auto v = db->scalar(QStringLiteral("SELECT stock FROM demo_inventory WHERE sku = :s"),
                                {{QStringLiteral(":s"), QString::fromLatin1(sku)}});
            return v ? v->toLongLong() : -1;
        };
        const auto reservedOf = [&](const char* sku) {
            auto v = db->scalar(QStringLiteral("SELECT reserved FROM demo_inventory WHERE sku = :s"),
                                {{QStringLiteral(":s"), QString::fromLatin1(sku)}});
            return v ? v->toLongLong() : -1;
        };
        QCOMPARE(stockOf("SKU-3"), qint64(1000000 - 5));
        QCOMPARE(reservedOf("SKU-3"), qint64(5));
        QCOMPARE(stockOf("SKU-1"), qint64(1000000 - 1));
        QCOMPARE(stockOf("SKU-7"), qint64(1000000 - 1));
        QCOMPARE(stockOf("SKU-2"), qint64(1000000));
        QCOMPARE(countRows(*db, QStringLiteral("demo_reservations")), qint64(4));
        QCOMPARE(countRows(*db, QStringLiteral("demo_reservations"),
                           QStringLiteral(
                               "order_id = 'O3' AND event_id = 'e-4' AND sku = 'SKU-3' AND quantity = 3")),
                 qint64(1));

        // The orders that cannot be reserved are named at once (an unknown SKU, one more than the
        // stock); the others in the call are reserved all the same, and the named ones wrote nothing.
        QVector<InboxMessage> more;
        more << orderCreated(QStringLiteral("e-6"), QStringLiteral("O5"), QStringLiteral("SKU-1"), 1)
             << orderCreated(QStringLiteral("e-7"), QStringLiteral("O6"), QStringLiteral("SKU-404"), 1)
             << orderCreated(QStringLiteral("e-8"), QStringLiteral("O7"), QStringLiteral("SKU-2"), 1000001)
             << orderCreated(QStringLiteral("e-9"), QStringLiteral("O8"), QStringLiteral("SKU-2"), 2);
        QVector<const InboxMessage*> second;
        for (const InboxMessage& m : more)
            second << &m;
        QVERIFY(db->beginWrite().ok());
        const BatchHandlerResult partly = inventory.handleBatch(*db, second);
        QVERIFY(db->commit().ok());
        QVERIFY(partly.result.outcome == HandlerResult::Outcome::Ok);
        QCOMPARE(partly.failures.size(), 2);
        QCOMPARE(partly.failures.at(0).index, 1);
        QVERIFY(partly.failures.at(0).result.outcome == HandlerResult::Outcome::Permanent);
        QVERIFY2(partly.failures.at(0).result.error.contains(QLatin1String("SKU-404")),
                 qPrintable(partly.failures.at(0).result.error));
        QCOMPARE(partly.failures.at(1).index, 2);
        QVERIFY2(partly.failures.at(1).result.error.contains(QLatin1String("out of stock")),
                 qPrintable(partly.failures.at(1).result.error));
        QCOMPARE(stockOf("SKU-1"), qint64(1000000 - 2));
        QCOMPARE(stockOf("SKU-2"), qint64(1000000 - 2));
        QCOMPARE(countRows(*db, QStringLiteral("demo_reservations")), qint64(6));
        QCOMPARE(
            countRows(*db, QStringLiteral("demo_reservations"), QStringLiteral("order_id IN ('O6', 'O7')")),
            qint64(0));
    }
};

QTEST_GUILESS_MAIN(TestInboxLookup)
#include "tst_inboxlookup.moc"
