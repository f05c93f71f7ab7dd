// The consumer side on PostgreSQL, MariaDB and SQLite: the inbox browser's exact filters and
// keyset pages, the persistent duplicate counter, and `outboxctl consumers` / `outboxctl inbox`
// against a real demo run and the embedded broker (lag per partition).
#include "core/consumer/ConsumerOverview.h"
#include "core/consumer/Reconciler.h"
#include "core/db/DeadLetterStore.h"
#include "core/db/InboxStore.h"
#include "tests/consumer/ConsumerTestKit.h"
#include "tests/support/ConsumerGroupKit.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace outbox;
using namespace outbox::test;

namespace {

OutboxctlRun outboxctl(const QStringList& args)
{
    return runOutboxctl(args);
}

// Inbox rows that differ in one field at a time.
void seedInbox(Database& db)
{
    InboxStore inbox(db);
    const auto processed = [&](const char* event, const char* consumer) {
        if (!inbox
                 .recordProcessed(QString::fromLatin1(event), QString::fromLatin1(consumer),
                                  QStringLiteral("o-1"), 1)
                 .value())
            qFatal("seed failed");
    };
    processed("e-1", "inventory");
    processed("e-10", "inventory");
    processed("e-1", "inventory-eu");
    processed("e-11", "inv");
    if (!inbox
             .recordFailed(QStringLiteral("e-2"), QStringLiteral("inventory"), QStringLiteral("o-2"), 3,
                           QStringLiteral("stock service down"))
             .ok())
        qFatal("seed failed");
}

QStringList eventIdsOf(const QJsonArray& rows)
{
    QStringList ids;
    for (const QJsonValue& v : rows)
        ids << v.toObject().value(QStringLiteral("consumer")).toString() + QLatin1Char('/') +
                   v.toObject().value(QStringLiteral("event_id")).toString();
    ids.sort();
    return ids;
}

} // namespace

class TestConsumerSide : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(!qEnvironmentVariable("OUTBOXCTL").isEmpty(), "OUTBOXCTL must point at the binary");
    }

    void inboxListFiltersAreExact_data() { TestDatabases::addKinds(); }
    void inboxListFiltersAreExact()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("inboxlist")));
        seedInbox(*db);
        const QString url = TestDatabases::urlText(db->url());
        const auto list = [&](const QStringList& filters) {
            const OutboxctlRun r =
                outboxctl(QStringList{QStringLiteral("inbox"), QStringLiteral("list"), QStringLiteral("--db"),
                                      url, QStringLiteral("--json")} +
                          filters);
            if (r.exitCode != 0)
                qWarning("%s", r.err.constData());
            return eventIdsOf(r.json().value(QStringLiteral("inbox")).toArray());
        };
        QCOMPARE(list({}).size(), 5);
        QCOMPARE(list({QStringLiteral("--consumer"), QStringLiteral("inventory")}),
                 (QStringList{QStringLiteral("inventory/e-1"), QStringLiteral("inventory/e-10"),
                              QStringLiteral("inventory/e-2")}));
        QCOMPARE(list({QStringLiteral("--event-id"), QStringLiteral("e-1")}),
                 (QStringList{QStringLiteral("inventory-eu/e-1"), QStringLiteral("inventory/e-1")}));
        QCOMPARE(list({QStringLiteral("--status"), QStringLiteral("FAILED")}),
                 QStringList{QStringLiteral("inventory/e-2")});
        QCOMPARE(list({QStringLiteral("--consumer"), QStringLiteral("inventory"), QStringLiteral("--status"),
                       QStringLiteral("processed"), QStringLiteral("--event-id"), QStringLiteral("e-10")}),
                 QStringList{QStringLiteral("inventory/e-10")});
        QCOMPARE(list({QStringLiteral("--consumer"), QStringLiteral("inv")}),
                 QStringList{QStringLiteral("inv/e-11")});

        // Injection in any filter: zero rows, nothing changed.
        const QString attack = QStringLiteral("x' OR '1'='1'; DELETE FROM inbox_events; --");
        for (const QString& option : {QStringLiteral("--consumer"), QStringLiteral("--event-id")})
            QCOMPARE(list({option, attack}).size(), 0);
        const OutboxctlRun badStatus =
            outboxctl({QStringLiteral("inbox"), QStringLiteral("list"), QStringLiteral("--db"), url,
                       QStringLiteral("--status"), attack});
        QCOMPARE(badStatus.exitCode, 2);
        QCOMPARE(badStatus.err.trimmed().count('\n'), 0);
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}")), qint64(5));

        // Keyset pages: newest first, no row twice, the cursor ends.
        const OutboxctlRun first =
            outboxctl({QStringLiteral("inbox"), QStringLiteral("list"), QStringLiteral("--db"), url,
                       QStringLiteral("--limit"), QStringLiteral("3"), QStringLiteral("--json")});
        QCOMPARE(first.exitCode, 0);
        const QJsonArray page1 = first.json().value(QStringLiteral("inbox")).toArray();
        QCOMPARE(page1.size(), 3);
        const qint64 cursor = first.json().value(QStringLiteral("next_after_id")).toInteger();
        QCOMPARE(cursor, page1.last().toObject().value(QStringLiteral("id")).toInteger());
        const OutboxctlRun second =
            outboxctl({QStringLiteral("inbox"), QStringLiteral("list"), QStringLiteral("--db"), url,
                       QStringLiteral("--limit"), QStringLiteral("3"), QStringLiteral("--after-id"),
                       QString::number(cursor), QStringLiteral("--json")});
        const QJsonArray page2 = second.json().value(QStringLiteral("inbox")).toArray();
        QCOMPARE(page2.size(), 2);
        QVERIFY(second.json().value(QStringLiteral("next_after_id")).isNull());
        QVERIFY(page2.first().toObject().value(QStringLiteral("id")).toInteger() < cursor);
        QStringList both = eventIdsOf(page1) + eventIdsOf(page2);
        QCOMPARE(both.size(), 5);
        QCOMPARE(both.removeDuplicates(), 0);
    }

    void duplicatesAreCountedPersistently_data() { TestDatabases::addKinds(); }
    void duplicatesAreCountedPersistently()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("dups")));
        auto broker = startBroker(QStringLiteral("dups"), 2);
        QVector<BrokerMessage> messages;
        for (int i = 0; i < 5; ++i)
            messages << orderMessage(QStringLiteral("dups"), QStringLiteral("dup-%1").arg(i),
                                     QStringLiteral("order-%1").arg(i), QStringLiteral("sku"));
        produce(broker->bootstrap(), messages + messages.mid(0, 3)); // three come twice
        ConsumerThread consumer(
            db->url(),
            testConsumerOptions(broker->bootstrap(), QStringLiteral("dups"), QStringLiteral("ledger")),
            [](Database&, const InboxMessage&) { return HandlerResult::ok(); });
        consumer.start();
        QTRY_VERIFY_WITH_TIMEOUT(consumer.stats().processed.load() + consumer.stats().duplicates.load() >= 8,
                                 60000);
        consumer.stop();
        QCOMPARE(consumer.stats().duplicates.load(), qint64(3));
        QCOMPARE(InboxStore(*db).duplicateCounts()->value(QStringLiteral("ledger")), qint64(3));

        ConsumerOverviewQuery::Options o;
        o.reconcile = false;
        auto overview = ConsumerOverviewQuery(*db).load(o);
        QVERIFY2(overview.ok(), qPrintable(overview.message()));
        QCOMPARE(overview->consumers.size(), 1);
        const ConsumerSummary& c = overview->consumers.first();
        QCOMPARE(c.consumerName, QStringLiteral("ledger"));
        QCOMPARE(c.processed, qint64(5));
        QCOMPARE(c.duplicates, qint64(3));
        qint64 inRate = 0;
        for (qint64 n : c.rateCounts)
            inRate += n;
        QCOMPARE(inRate, qint64(5)); // all processed within the last hour
        QVERIFY(c.lastProcessedAt.isValid());
        QVERIFY(qAbs(c.lastProcessedAt.secsTo(overview->takenAt)) < 120);
    }

    // The acceptance: after the demo, `consumers --json` lists inventory with its
    // processed count and dead letters, exactly what its tables hold.
    void consumersAfterDemo()
    {
        QTemporaryDir dir;
        const QString url = QStringLiteral("sqlite://") + dir.filePath(QStringLiteral("demo.db"));
        const OutboxctlRun demo =
            outboxctl({QStringLiteral("demo"), QStringLiteral("--db"), url, QStringLiteral("--duration"),
                       QStringLiteral("5"), QStringLiteral("--rate"), QStringLiteral("200")});
        QVERIFY2(demo.exitCode == 0, demo.err.constData());
        auto db = TestDatabases::open(DatabaseUrl::parse(url).value());
        const qint64 processed =
            countRows(*db, QStringLiteral("{inbox}"),
                      QStringLiteral("consumer_name = 'inventory' AND status = 'PROCESSED'"));
        const qint64 letters = countRows(*db, QStringLiteral("{dead_letters}"),
                                         QStringLiteral("consumer_name = 'inventory' AND status = 'NEW'"));
        QVERIFY(processed > 100);
        QVERIFY(letters > 0); // every 53rd order is refused for good

        const OutboxctlRun r =
            outboxctl({QStringLiteral("consumers"), QStringLiteral("--db"), url, QStringLiteral("--json"),
                       QStringLiteral("--older-than"), QStringLiteral("0s")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonObject inventory;
        for (const QJsonValue& v : r.json().value(QStringLiteral("consumers")).toArray())
            if (v.toObject().value(QStringLiteral("consumer")).toString() == QLatin1String("inventory"))
                inventory = v.toObject();
        QVERIFY2(!inventory.isEmpty(), r.out.constData());
        QCOMPARE(inventory.value(QStringLiteral("processed")).toInteger(), processed);
        QCOMPARE(inventory.value(QStringLiteral("dead_letters_new")).toInteger(), letters);
        QCOMPARE(inventory.value(QStringLiteral("failed")).toInteger(),
                 countRows(*db, QStringLiteral("{inbox}"),
                           QStringLiteral("consumer_name = 'inventory' AND status = 'FAILED'")));
        // Unconsumed: the reconciliation's own answer for the same question.
        ReconcileOptions ro;
        ro.consumerName = QStringLiteral("inventory");
        ro.olderThanMs = 0;
        QCOMPARE(inventory.value(QStringLiteral("unconsumed")).toInteger(),
                 Reconciler(*db).run(ro)->unconsumed);
        qint64 inRate = 0;
        for (const QJsonValue& v : inventory.value(QStringLiteral("rate"))
                                       .toObject()
                                       .value(QStringLiteral("processed_per_bucket"))
                                       .toArray())
            inRate += v.toInteger();
        QCOMPARE(inRate, processed);
        QVERIFY(inventory.value(QStringLiteral("lag")).isNull()); // no bootstrap, no lag

        const OutboxctlRun text = outboxctl({QStringLiteral("consumers"), QStringLiteral("--db"), url});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("inventory") && text.out.contains(QByteArray::number(processed)),
                 text.out.constData());
    }

    void lagPerPartitionFromTheEmbeddedBroker()
    {
        auto db =
            TestDatabases::fresh(QStringLiteral("sqlite"), TestDatabases::uniqueName(QStringLiteral("lag")));
        auto broker = startBroker(QStringLiteral("order"), 3);
        QVERIFY(produceToPartitions(broker->bootstrap(), QStringLiteral("order"), {{0, 4}, {1, 3}},
                                    QStringLiteral("a")));
        ConsumerThread consumer(
            db->url(),
            testConsumerOptions(broker->bootstrap(), QStringLiteral("order"), QStringLiteral("inventory")),
            [](Database&, const InboxMessage&) { return HandlerResult::ok(); });
        consumer.start();
        QTRY_VERIFY_WITH_TIMEOUT(consumer.stats().processed.load() >= 7, 60000);
        consumer.stop(); // offsets committed after each commit: 4 on partition 0, 3 on partition 1
        QVERIFY(produceToPartitions(broker->bootstrap(), QStringLiteral("order"), {{0, 3}, {1, 1}},
                                    QStringLiteral("b")));

        const QString url = TestDatabases::urlText(db->url());
        const OutboxctlRun r =
            outboxctl({QStringLiteral("consumers"), QStringLiteral("--db"), url, QStringLiteral("--json"),
                       QStringLiteral("--kafka-bootstrap"), broker->bootstrap()});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonArray consumers = r.json().value(QStringLiteral("consumers")).toArray();
        QCOMPARE(consumers.size(), 1);
        const QJsonObject inventory = consumers.first().toObject();
        QCOMPARE(inventory.value(QStringLiteral("processed")).toInteger(), qint64(7));
        const QJsonArray lag = inventory.value(QStringLiteral("lag")).toArray();
        QCOMPARE(lag.size(), 2); // partition 2: the group never committed there
        const auto partition = [&](int i) { return lag.at(i).toObject(); };
        QCOMPARE(partition(0).value(QStringLiteral("topic")).toString(), QStringLiteral("order"));
        QCOMPARE(partition(0).value(QStringLiteral("partition")).toInt(), 0);
        QCOMPARE(partition(0).value(QStringLiteral("committed_offset")).toInteger(), qint64(4));
        QCOMPARE(partition(0).value(QStringLiteral("high_watermark")).toInteger(), qint64(7));
        QCOMPARE(partition(0).value(QStringLiteral("lag")).toInteger(), qint64(3));
        QCOMPARE(partition(1).value(QStringLiteral("partition")).toInt(), 1);
        QCOMPARE(partition(1).value(QStringLiteral("lag")).toInteger(), qint64(1));
        QCOMPARE(inventory.value(QStringLiteral("total_lag")).toInteger(), qint64(4));

        // The text form prints the partitions too; an unreachable broker is one clear error.
        const OutboxctlRun text = outboxctl({QStringLiteral("consumers"), QStringLiteral("--db"), url,
                                             QStringLiteral("--kafka-bootstrap"), broker->bootstrap()});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("HIGH WATERMARK"), text.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestConsumerSide)
#include "tst_consumerside.moc"
