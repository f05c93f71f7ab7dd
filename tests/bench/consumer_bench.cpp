// Consumer benchmark (not a unit test): how fast the InboxConsumer processes new messages (inbox
// row + business row per message, batches of consumer.batch_size in one transaction, the business
// rows written by a batch handler in multi-row inserts or, with --handler message, one insert per
// message; savepoints only after a handler failed, offsets committed after the commit; with
// --handler inventory the demo's inventory service, its failures included: about 5 % of first
// attempts fail transiently, every 53rd order names an unknown SKU and becomes a dead letter) and how fast it
// skips duplicates, against the embedded broker and each given database, next to a reference measured in the
// same run on the same database: the same insert on a minimal inbox table (primary key only), one transaction
// per message and 100 messages per transaction (what pgbench would measure).
//
//   outbox-consumer-bench --db postgresql://outbox@127.0.0.1:25432/bench [--db mysql://…] [--db sqlite://…]
//                         [--messages 20000] [--partitions 6] [--batch-size 500]
//                         [--handler batch|message|inventory]
//                         [--smoke]
#include "core/broker/kafka/EmbeddedBroker.h"
#include "core/broker/kafka/KafkaPublisher.h"
#include "core/consumer/InboxConsumer.h"
#include "core/db/Database.h"
#include "core/db/Migrator.h"
#include "core/demo/InventoryService.h"
#include "core/support/TimeZone.h"
#include "tests/support/BrokerTestKit.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QThread>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>

using namespace outbox;

namespace {

void die(const QString& why)
{
    std::fprintf(stderr, "outbox-consumer-bench: %s\n", qPrintable(why));
    std::exit(1);
}

void produceAll(const QString& bootstrap, const QString& topic, int messages)
{
    auto publisher = KafkaPublisher::create(bootstrap, KafkaProperties());
    if (!publisher)
        die(publisher.message());
    QVector<BrokerMessage> batch;
    for (int i = 0; i < messages; ++i) {
        BrokerMessage m;
        m.topic = topic;
        m.key = QByteArray("order-") + QByteArray::number(i % 997);
        // The demo's order: every 53rd names a SKU the inventory does not know.
        m.payload =
            QByteArray("{\"order_id\":\"O") + QByteArray::number(i) + QByteArray("\",\"sku\":\"SKU-") +
            (i % 53 == 0 ? QByteArray("404") : QByteArray::number(i % 40)) + QByteArray("\",\"quantity\":1}");
        m.headers = {{"event_id", QByteArray("bench-") + QByteArray::number(i)},
                     {"event_type", "OrderCreated"},
                     {"schema_version", "1"}};
        batch << m;
    }
    auto pending = (*publisher)->enqueue(batch);
    (*publisher)->await(*pending, 120000);
    for (const DeliveryReport& r : pending->reports())
        if (r.deliveryClass != DeliveryClass::Success)
            die(QStringLiteral("produce failed: %1").arg(r.message));
}

// Waits until `done()` reaches `target`; returns the seconds from the first message on.
double timeUntil(const std::function<qint64()>& done, qint64 target, const std::function<qint64()>& started)
{
    QElapsedTimer wait;
    wait.start();
    while (started() == 0 && wait.elapsed() < 120000)
        QThread::msleep(1);
    QElapsedTimer t;
    t.start();
    while (done() < target && t.elapsed() < 600000)
        QThread::msleep(2);
    if (done() < target)
        die(QStringLiteral("timed out"));
    return double(t.elapsed()) / 1000.0;
}

// The reference: `messages` inserts into a minimal inbox table, `perTransaction` per transaction,
// one prepared statement (one round trip per insert). Returns inserts per second.
double reference(Database& db, int messages, int perTransaction)
{
    (void)db.exec(QStringLiteral("DROP TABLE IF EXISTS bench_ref_inbox"));
    if (!db.exec(QStringLiteral("CREATE TABLE bench_ref_inbox (event_id VARCHAR(191) NOT NULL, consumer_name "
                                "VARCHAR(191) NOT NULL, PRIMARY KEY (event_id, consumer_name))")))
        die(QStringLiteral("cannot create bench_ref_inbox"));
    QElapsedTimer t;
    t.start();
    for (int i = 0; i < messages;) {
        if (Status s = db.beginWrite(); !s)
            die(s.message());
        for (int k = 0; k < perTransaction && i < messages; ++k, ++i) {
            auto q = db.execPrepared(
                QStringLiteral("INSERT INTO bench_ref_inbox (event_id, consumer_name) VALUES (:e, 'bench')"),
                {{QStringLiteral(":e"), QStringLiteral("ref-%1").arg(i)}});
            if (!q)
                die(q.message());
        }
        if (Status s = db.commit(); !s)
            die(s.message());
    }
    const double seconds = double(t.nsecsElapsed()) / 1e9;
    (void)db.exec(QStringLiteral("DROP TABLE IF EXISTS bench_ref_inbox"));
    return messages / seconds;
}

struct Figures
{
    double fresh = 0;
    double duplicates = 0;
    double reference1 = 0;
    double reference100 = 0;
    qint64 batches = 0;
    double statementsPerMessage = 0; // on the consumer's connection, its handler's included
};

enum class Handler { Batch, Message, Inventory };

// The messages of produceAll() the demo's inventory service dead-letters (unknown SKU).
int unknownSkus(int messages)
{
    return (messages + 52) / 53;
}

Figures run(const DatabaseUrl& url, int messages, int partitions, int batchSize, int referenceMessages,
            Handler handler)
{
    Figures f;
    {
        auto db = Database::open(url);
        if (!db)
            die(db.message());
        if (auto m = Migrator(**db).migrate(); !m)
            die(m.message());
        (void)(*db)->exec(QStringLiteral("DROP TABLE IF EXISTS bench_effects"));
        if (!(*db)->exec(QStringLiteral(
                "CREATE TABLE bench_effects (event_id VARCHAR(64) NOT NULL, order_id VARCHAR(64) NOT NULL)")))
            die(QStringLiteral("cannot create bench_effects"));
        if (!(*db)->exec(QStringLiteral("DELETE FROM {inbox} WHERE consumer_name = 'bench'")) ||
            !(*db)->exec(QStringLiteral("DELETE FROM {dead_letters} WHERE consumer_name = 'bench'")))
            die(QStringLiteral("cannot empty the inbox and the dead letters"));
        if (handler == Handler::Inventory) {
            (void)(*db)->exec(QStringLiteral("DROP TABLE IF EXISTS demo_reservations"));
            (void)(*db)->exec(QStringLiteral("DROP TABLE IF EXISTS demo_inventory"));
            if (Status s = demo::InventoryService::prepare(**db); !s)
                die(s.message());
        }
        f.reference1 = reference(**db, std::max(50, referenceMessages / 10), 1);
        f.reference100 = reference(**db, referenceMessages, 100);
    }
    auto broker = EmbeddedBroker::start(1);
    if (!broker || !(*broker)->createTopic(QStringLiteral("bench"), partitions))
        die(QStringLiteral("cannot start the embedded broker"));
    produceAll((*broker)->bootstrap(), QStringLiteral("bench"), messages);

    ConsumerOptions options;
    options.consumerName = QStringLiteral("bench");
    options.broker = test::kafkaAt((*broker)->bootstrap());
    options.topics = {QStringLiteral("bench")};
    options.pollMs = 20;
    options.batchSize = batchSize;
    InboxConsumerStats stats;
    std::atomic<bool> stop{false};
    std::atomic<quint64> firstStatement{0};
    std::atomic<quint64> lastStatement{0};
    std::atomic<qint64> handled{0};
    const demo::InventoryService inventory(5); // as in `outboxctl demo`
    auto consume = [&] {
        auto orderId = [](const InboxMessage& m) {
            return m.json.object().value(QStringLiteral("order_id")).toString();
        };
        InboxConsumer consumer(
            DatabaseTarget(url, QString()), options,
            [&](Database& db, const InboxMessage& m) {
                if (handler == Handler::Inventory) {
                    const HandlerResult r = inventory.handle(db, m);
                    lastStatement = db.statementsSent();
                    return r;
                }
                if (handled.fetch_add(1) == 0)
                    firstStatement = db.statementsSent();
                auto q = db.execPrepared(
                    QStringLiteral("INSERT INTO bench_effects (event_id, order_id) VALUES (:e, :o)"),
                    {{QStringLiteral(":e"), m.eventId}, {QStringLiteral(":o"), orderId(m)}});
                lastStatement = db.statementsSent();
                return q ? HandlerResult::ok() : HandlerResult::transient(q.message());
            },
            stats);
        if (handler == Handler::Inventory) {
            consumer.setBatchHandler([&](Database& db, const QVector<const InboxMessage*>& ms) {
                if (handled.fetch_add(ms.size()) == 0)
                    firstStatement = db.statementsSent();
                BatchHandlerResult r = inventory.handleBatch(db, ms);
                lastStatement = db.statementsSent();
                return r;
            });
        } else if (handler == Handler::Batch) {
            // The business rows of the batch in multi-row inserts of up to 100 rows (the full
            // one kept prepared), what an application's batch handler would do.
            consumer.setBatchHandler([&](Database& db, const QVector<const InboxMessage*>& ms) {
                if (handled.fetch_add(ms.size()) == 0)
                    firstStatement = db.statementsSent();
                constexpr int Chunk = 100;
                for (int first = 0; first < ms.size(); first += Chunk) {
                    const int n = std::min<int>(Chunk, int(ms.size()) - first);
                    QVariantList values;
                    values.reserve(2 * n);
                    for (int i = first; i < first + n; ++i)
                        values << ms.at(i)->eventId << orderId(*ms.at(i));
                    const QString statement =
                        QStringLiteral("INSERT INTO bench_effects (event_id, order_id) VALUES ") +
                        QStringList(n, QStringLiteral("(?, ?)")).join(QLatin1Char(','));
                    QString error;
                    if (n == Chunk) {
                        if (auto q = db.execPreparedPositional(statement, values); !q)
                            error = q.message();
                    } else if (auto q = db.execPositional(statement, values); !q) {
                        error = q.message();
                    }
                    if (!error.isEmpty())
                        return BatchHandlerResult::failed(HandlerResult::transient(error));
                }
                lastStatement = db.statementsSent();
                return BatchHandlerResult::ok();
            });
        }
        if (Status s = consumer.run(stop); !s)
            die(s.message());
    };
    std::unique_ptr<QThread> thread(QThread::create(consume));
    thread->start();
    const int deadLetters = handler == Handler::Inventory ? unknownSkus(messages) : 0;
    const double fresh = timeUntil([&] { return stats.processed.load() + stats.deadLettered.load(); },
                                   messages, [&] { return stats.received.load(); });
    stop = true;
    thread->wait();
    // The same event_ids again, all in the topic before a consumer of the group starts on them
    // (from the committed offsets): the time runs from its first message to the last duplicate,
    // not from the end of the production, which it would overlap.
    produceAll((*broker)->bootstrap(), QStringLiteral("bench"), messages);
    const qint64 receivedBefore = stats.received.load();
    stop = false;
    thread.reset(QThread::create(consume));
    thread->start();
    // The dead-lettered ones are not duplicates: they come again as messages to try again (and
    // fail again, each a dead letter of its own).
    const double dup =
        timeUntil([&] { return stats.duplicates.load() + stats.deadLettered.load() - deadLetters; }, messages,
                  [&] { return stats.received.load() - receivedBefore; });
    stop = true;
    thread->wait();
    if (stats.processed.load() != messages - deadLetters || stats.deadLettered.load() != 2 * deadLetters)
        die(QStringLiteral("processed %1 of %2, %3 dead letters (expected %4)")
                .arg(stats.processed.load())
                .arg(messages)
                .arg(stats.deadLettered.load())
                .arg(deadLetters));
    f.fresh = messages / fresh;
    f.duplicates = messages / dup;
    f.batches = stats.batches.load();
    // Per message of the run: a batch call the consumer undid and made again counts its messages
    // twice in `handled`.
    const qint64 per = handler == Handler::Inventory ? messages : handled.load();
    if (per > 1)
        f.statementsPerMessage = double(lastStatement.load() - firstStatement.load()) / double(per - 1);
    return f;
}

} // namespace

int main(int argc, char* argv[])
{
    outbox::pinLocalTimeZone();
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.addOptions(
        {{QStringLiteral("db"), QStringLiteral("Database URL (repeatable)."), QStringLiteral("url")},
         {QStringLiteral("messages"), QStringLiteral("Messages (default 20000)."), QStringLiteral("n")},
         {QStringLiteral("partitions"), QStringLiteral("Partitions (default 6)."), QStringLiteral("n")},
         {QStringLiteral("batch-size"), QStringLiteral("consumer.batch_size (default 500)."),
          QStringLiteral("n")},
         {QStringLiteral("handler"),
          QStringLiteral(
              "batch (default: one call per batch, multi-row inserts), message (one call and "
              "one insert per message) or inventory (the demo's inventory service and its failures)."),
          QStringLiteral("kind")},
         {QStringLiteral("smoke"), QStringLiteral("A few hundred messages (CI).")}});
    p.process(app);
    if (p.values(QStringLiteral("db")).isEmpty())
        die(QStringLiteral("give at least one --db"));
    const bool smoke = p.isSet(QStringLiteral("smoke"));
    const int messages = smoke ? 300
                         : p.value(QStringLiteral("messages")).isEmpty()
                             ? 20000
                             : p.value(QStringLiteral("messages")).toInt();
    const int partitions =
        p.value(QStringLiteral("partitions")).isEmpty() ? 6 : p.value(QStringLiteral("partitions")).toInt();
    const int batchSize =
        p.value(QStringLiteral("batch-size")).isEmpty() ? 500 : p.value(QStringLiteral("batch-size")).toInt();
    if (messages < 1 || partitions < 1 || batchSize < 1)
        die(QStringLiteral("--messages, --partitions and --batch-size take positive numbers"));
    const QString handler = p.value(QStringLiteral("handler")).isEmpty() ? QStringLiteral("batch")
                                                                         : p.value(QStringLiteral("handler"));
    if (handler != QLatin1String("batch") && handler != QLatin1String("message") &&
        handler != QLatin1String("inventory"))
        die(QStringLiteral("--handler takes batch, message or inventory"));
    const Handler kind = handler == QLatin1String("batch")     ? Handler::Batch
                         : handler == QLatin1String("message") ? Handler::Message
                                                               : Handler::Inventory;
    int failed = 0;
    for (const QString& text : p.values(QStringLiteral("db"))) {
        auto url = DatabaseUrl::parse(text);
        if (!url)
            die(url.message());
        const Figures f = run(*url, messages, partitions, batchSize, smoke ? 300 : 20000, kind);
        std::printf("outbox-consumer-bench: %s, %d messages, %d partitions, batch size %d (%lld batches), %s "
                    "handler\n",
                    qPrintable(url->redacted()), messages, partitions, batchSize, f.batches,
                    qPrintable(handler));
        std::printf("  reference, minimal inbox insert, 1 per transaction:     %8.0f msg/s\n", f.reference1);
        std::printf("  reference, minimal inbox insert, 100 per transaction:   %8.0f msg/s\n",
                    f.reference100);
        std::printf("  new messages (inbox + business row, batch transaction): %8.0f msg/s = %5.1f %% of the "
                    "100-per-transaction reference\n",
                    f.fresh, 100.0 * f.fresh / f.reference100);
        std::printf("    statements per new message (consumer's and handler's): %.3f\n",
                    f.statementsPerMessage);
        std::printf(
            "  duplicates skipped (one lookup per batch):              %8.0f msg/s = %5.1f %% of it\n",
            f.duplicates, 100.0 * f.duplicates / f.reference100);
        if (kind == Handler::Inventory) {
            // `outboxctl demo --rate 2000`: 2,000 OrderCreated and 1,000 OrderPaid events a second.
            std::printf("  the demo's inventory consumer at 2,000 orders/s needs 3,000 msg/s: %.1f x that "
                        "(%d dead letters of %d, every 53rd order)\n",
                        f.fresh / 3000.0, unknownSkus(messages), messages);
        } else if (url->kind == DatabaseKind::PostgreSql && !smoke) {
            const bool met = f.fresh >= 10000 && f.duplicates >= 20000;
            std::printf("  goal (PostgreSQL): >= 10000 new msg/s and >= 20000 duplicates/s: %s\n",
                        met ? "met" : "MISSED");
            failed += met ? 0 : 1;
        }
    }
    return failed == 0 ? 0 : 2;
}
