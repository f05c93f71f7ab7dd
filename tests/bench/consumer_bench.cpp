// Consumer benchmark (not a unit test): prints how fast the InboxConsumer processes new messages
// (inbox row + business row in one transaction, then a synchronous offset commit) and how fast it
// skips duplicates, against the embedded broker and the given database.
//
//   outbox-consumer-bench --db postgresql://outbox@127.0.0.1:55432/bench [--messages 20000]
//                         [--partitions 6] [--smoke]
#include "core/broker/EmbeddedBroker.h"
#include "core/broker/KafkaPublisher.h"
#include "core/consumer/InboxConsumer.h"
#include "core/db/Database.h"
#include "core/db/Migrator.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>
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

void produceAll(const QString& bootstrap, int messages)
{
    auto publisher = KafkaPublisher::create(bootstrap, KafkaProperties());
    if (!publisher)
        die(publisher.message());
    QVector<KafkaMessage> batch;
    for (int i = 0; i < messages; ++i) {
        KafkaMessage m;
        m.topic = QStringLiteral("bench");
        m.key = QByteArray("order-") + QByteArray::number(i % 997);
        m.payload =
            QByteArray("{\"order_id\":\"O") + QByteArray::number(i) + QByteArray("\",\"quantity\":1}");
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
        QThread::msleep(5);
    if (done() < target)
        die(QStringLiteral("timed out"));
    return double(t.elapsed()) / 1000.0;
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.addOptions(
        {{QStringLiteral("db"), QStringLiteral("Database URL."), QStringLiteral("url")},
         {QStringLiteral("messages"), QStringLiteral("Messages (default 20000)."), QStringLiteral("n")},
         {QStringLiteral("partitions"), QStringLiteral("Partitions (default 6)."), QStringLiteral("n")},
         {QStringLiteral("smoke"), QStringLiteral("A few hundred messages (CI).")}});
    p.process(app);
    auto url = DatabaseUrl::parse(p.value(QStringLiteral("db")));
    if (!url)
        die(url.message());
    const int messages = p.isSet(QStringLiteral("smoke")) ? 300
                         : p.value(QStringLiteral("messages")).isEmpty()
                             ? 20000
                             : p.value(QStringLiteral("messages")).toInt();
    const int partitions =
        p.value(QStringLiteral("partitions")).isEmpty() ? 6 : p.value(QStringLiteral("partitions")).toInt();
    {
        auto db = Database::open(*url);
        if (!db)
            die(db.message());
        if (auto m = Migrator(**db).migrate(); !m)
            die(m.message());
        (void)(*db)->exec(QStringLiteral("DROP TABLE IF EXISTS bench_effects"));
        if (!(*db)->exec(QStringLiteral(
                "CREATE TABLE bench_effects (event_id VARCHAR(64) NOT NULL, order_id VARCHAR(64) NOT NULL)")))
            die(QStringLiteral("cannot create bench_effects"));
        if (!(*db)->exec(QStringLiteral("DELETE FROM {inbox} WHERE consumer_name = 'bench'")))
            die(QStringLiteral("cannot empty the inbox"));
    }
    auto broker = EmbeddedBroker::start(1);
    if (!broker || !(*broker)->createTopic(QStringLiteral("bench"), partitions))
        die(QStringLiteral("cannot start the embedded broker"));
    produceAll((*broker)->bootstrap(), messages);

    ConsumerOptions options;
    options.consumerName = QStringLiteral("bench");
    options.bootstrap = (*broker)->bootstrap();
    options.topics = {QStringLiteral("bench")};
    options.pollMs = 20;
    InboxConsumerStats stats;
    std::atomic<bool> stop{false};
    std::unique_ptr<QThread> thread(QThread::create([&] {
        InboxConsumer consumer(
            *url, options,
            [](Database& db, const InboxMessage& m) {
                auto q = db.exec(
                    QStringLiteral("INSERT INTO bench_effects (event_id, order_id) VALUES (:e, :o)"),
                    {{QStringLiteral(":e"), m.eventId},
                     {QStringLiteral(":o"), m.json.object().value(QStringLiteral("order_id")).toString()}});
                return q ? HandlerResult::ok() : HandlerResult::transient(q.message());
            },
            stats);
        if (Status s = consumer.run(stop); !s)
            die(s.message());
    }));
    thread->start();
    const double fresh =
        timeUntil([&] { return stats.processed.load(); }, messages, [&] { return stats.received.load(); });
    produceAll((*broker)->bootstrap(), messages); // the same event_ids again
    const double dup = timeUntil([&] { return stats.duplicates.load(); }, messages, [] { return qint64(1); });
    stop = true;
    thread->wait();
    std::printf("outbox-consumer-bench: %s, %d messages, %d partitions\n", qPrintable(url->redacted()),
                messages, partitions);
    std::printf("  new messages (inbox + business row, commit, sync offset commit): %.2f s = %.0f msg/s\n",
                fresh, messages / fresh);
    std::printf("  duplicates skipped (inbox lookup, sync offset commit):           %.2f s = %.0f msg/s\n",
                dup, messages / dup);
    std::printf("  processed %lld, duplicates %lld, dead letters %lld\n", stats.processed.load(),
                stats.duplicates.load(), stats.deadLettered.load());
    return stats.processed.load() == messages && stats.deadLettered.load() == 0 ? 0 : 1;
}
