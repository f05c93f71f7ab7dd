// Relay benchmark (not a unit test): prints events/s and latency percentiles, and compares the
// relay with the limits measured in the same run on the same machine.
//
//   outbox-relay-bench --db postgresql://outbox@127.0.0.1:55432/bench [--events 200000] [--relays 2]
//                      [--rate 2000] [--seconds 20] [--batch 500] [--smoke]
//
// 1. database bound: K threads run the relay's own claim + fenced mark-SENT SQL with no broker;
// 2. broker bound:   one producer sends the same messages to the embedded broker, all acked;
// 3. relay:          K relays drain the same N events to the embedded broker;
// 4. latency:        a writer commits events at a steady rate while one relay runs; commit -> ack
//                    p50/p99, with LISTEN/NOTIFY and with polling only.
#include "core/broker/EmbeddedBroker.h"
#include "core/broker/KafkaPublisher.h"
#include "core/db/Database.h"
#include "core/db/EventStore.h"
#include "core/db/EventWriter.h"
#include "core/db/Migrator.h"
#include "core/relay/Relay.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>
#include <atomic>
#include <cstdio>
#include <memory>
#include <vector>

using namespace outbox;

namespace {

struct Latency
{
    qint64 p50 = -1, p99 = -1, samples = 0;
};

void die(const QString& why)
{
    std::fprintf(stderr, "outbox-relay-bench: %s\n", qPrintable(why));
    std::exit(1);
}

std::unique_ptr<Database> open(const DatabaseUrl& url, const QString& purpose)
{
    Database::Options o;
    o.purpose = purpose;
    auto db = Database::open(url, o);
    if (!db)
        die(db.message());
    return std::move(db).value();
}

void reset(Database& db)
{
    if (!db.exec(QStringLiteral("DELETE FROM {events}")) || !db.exec(QStringLiteral("DELETE FROM {relays}")))
        die(QStringLiteral("cannot empty the outbox"));
    if (db.kind() == DatabaseKind::PostgreSql)
        (void)db.exec(QStringLiteral("VACUUM ANALYZE {events}"));
}

NewEvent sampleEvent(qint64 n)
{
    NewEvent e;
    e.eventType = n % 2 ? QStringLiteral("OrderPaid") : QStringLiteral("OrderCreated");
    e.aggregateType = QStringLiteral("Order");
    e.aggregateId = QStringLiteral("O%1").arg(n % 50000);
    e.aggregateVersion = n / 50000 + 1;
    e.payload = QJsonDocument(QJsonObject{{QStringLiteral("order_id"), e.aggregateId},
                                          {QStringLiteral("total_cents"), qint64(1999 + n % 1000)},
                                          {QStringLiteral("sku"), QStringLiteral("SKU-%1").arg(n % 97)},
                                          {QStringLiteral("note"),
                                           QStringLiteral("benchmark event with a realistic payload size")}})
                    .toJson(QJsonDocument::Compact);
    e.headers =
        QJsonObject{{QStringLiteral("trace_id"), QStringLiteral("%1").arg(n, 16, 16, QLatin1Char('0'))}};
    return e;
}

void preload(Database& db, qint64 events)
{
    QVector<NewEvent> chunk;
    for (qint64 n = 0; n < events; ++n) {
        chunk << sampleEvent(n);
        if (chunk.size() == 1000 || n + 1 == events) {
            if (!db.beginWrite())
                die(QStringLiteral("begin failed"));
            auto ids = EventWriter(db).appendBatch(chunk);
            if (!ids || !db.commit())
                die(QStringLiteral("preload failed: %1").arg(ids ? QStringLiteral("commit") : ids.message()));
            chunk.clear();
        }
    }
    if (db.kind() == DatabaseKind::PostgreSql)
        (void)db.exec(QStringLiteral("VACUUM ANALYZE {events}"));
}

double databaseBound(const DatabaseUrl& url, int threads, int batch)
{
    std::atomic<qint64> done{0};
    QElapsedTimer t;
    t.start();
    std::vector<std::unique_ptr<QThread>> workers;
    for (int i = 0; i < threads; ++i) {
        workers.emplace_back(QThread::create([&, i] {
            auto db = open(url, QStringLiteral("bound-%1").arg(i));
            EventStore store(*db);
            while (true) {
                auto claimed = store.claim(QStringLiteral("bound-%1").arg(i), batch, 60000);
                if (!claimed)
                    die(claimed.message());
                if (claimed->events.isEmpty())
                    break;
                QVector<SentMark> marks;
                for (const OutboxEvent& e : claimed->events)
                    marks << SentMark{e.id, 0, e.id};
                auto marked = store.markSent(claimed->leaseToken, marks);
                if (!marked)
                    die(marked.message());
                done += marked->updated;
            }
        }));
        workers.back()->start();
    }
    for (auto& w : workers)
        w->wait();
    return double(done.load()) * 1000.0 / double(std::max<qint64>(1, t.elapsed()));
}

double brokerBound(const QString& bootstrap, qint64 events)
{
    KafkaProperties props;
    auto p = KafkaPublisher::create(bootstrap, props);
    if (!p)
        die(p.message());
    QElapsedTimer t;
    t.start();
    qint64 acked = 0;
    std::vector<std::unique_ptr<PendingBatch>> inFlight;
    for (qint64 start = 0; start < events; start += 500) {
        QVector<KafkaMessage> batch;
        for (qint64 n = start; n < std::min(events, start + 500); ++n) {
            const NewEvent e = sampleEvent(n);
            batch << KafkaMessage{QStringLiteral("order"),
                                  e.aggregateId.toUtf8(),
                                  e.payload,
                                  {{"event_id", QByteArray::number(n)},
                                   {"event_type", e.eventType.toUtf8()},
                                   {"aggregate_type", "Order"},
                                   {"aggregate_id", e.aggregateId.toUtf8()},
                                   {"schema_version", "1"},
                                   {"trace_id", "0"}}};
        }
        inFlight.push_back((*p)->enqueue(batch)); // no waiting between batches: the producer's own limit
    }
    for (auto& pending : inFlight) {
        (*p)->await(*pending, 60000);
        for (const DeliveryReport& r : pending->reports())
            acked += r.deliveryClass == DeliveryClass::Success ? 1 : 0;
    }
    if (acked != events)
        die(QStringLiteral("broker bound: only %1 of %2 acked").arg(acked).arg(events));
    return double(events) * 1000.0 / double(std::max<qint64>(1, t.elapsed()));
}

// Produce -> ack latency of single messages, for comparison with commit -> ack.
Latency brokerLatency(const QString& bootstrap, int messages)
{
    KafkaProperties props;
    auto p = KafkaPublisher::create(bootstrap, props);
    if (!p)
        die(p.message());
    QVector<qint64> samples;
    for (int i = 0; i < messages; ++i) {
        const NewEvent e = sampleEvent(i);
        QElapsedTimer t;
        t.start();
        auto pending = (*p)->enqueue(
            {KafkaMessage{QStringLiteral("order"), e.aggregateId.toUtf8(), e.payload, {{"event_id", "x"}}}});
        (*p)->await(*pending, 10000);
        samples << t.elapsed();
    }
    return Latency{percentile(samples, 50), percentile(samples, 99), samples.size()};
}

RelayOptions relayOptions(const QString& bootstrap, int batch, bool notify)
{
    RelayOptions o;
    o.bootstrap = bootstrap;
    o.batchSize = batch;
    o.notify = notify;
    o.pollIntervalMs = 100;
    o.retentionMs = 0;
    return o;
}

double relayRate(const DatabaseUrl& url, const QString& bootstrap, int relays, int batch, qint64 events)
{
    std::vector<std::unique_ptr<RelayStats>> stats;
    std::atomic<bool> stop{false};
    QElapsedTimer t;
    t.start();
    std::vector<std::unique_ptr<QThread>> threads;
    for (int i = 0; i < relays; ++i) {
        RelayOptions o = relayOptions(bootstrap, batch, true);
        o.workerId = QStringLiteral("bench-%1").arg(i);
        stats.push_back(std::make_unique<RelayStats>());
        RelayStats* mine = stats.back().get();
        threads.emplace_back(QThread::create([&, o, mine] {
            Relay relay(url, o, *mine);
            if (Status s = relay.run(stop); !s)
                die(s.message());
        }));
        threads.back()->start();
    }
    auto sent = [&] {
        qint64 n = 0;
        for (const auto& s : stats)
            n += s->sent.load();
        return n;
    };
    while (sent() < events && t.elapsed() < 600000)
        QThread::msleep(5);
    const qint64 elapsed = t.elapsed();
    stop = true;
    for (auto& th : threads)
        th->wait();
    if (sent() < events)
        die(QStringLiteral("the relays sent only %1 of %2 events").arg(sent()).arg(events));
    return double(events) * 1000.0 / double(std::max<qint64>(1, elapsed));
}

Latency latencyAt(const DatabaseUrl& url, const QString& bootstrap, int rate, int seconds, bool notify,
                  int pollMs)
{
    RelayStats stats;
    std::atomic<bool> stop{false};
    RelayOptions o = relayOptions(bootstrap, 500, notify);
    o.pollIntervalMs = pollMs;
    o.workerId = notify ? QStringLiteral("latency-notify") : QStringLiteral("latency-poll");
    QThread* relayThread = QThread::create([&] {
        Relay relay(url, o, stats);
        if (Status s = relay.run(stop); !s)
            die(s.message());
    });
    relayThread->start();
    QThread::msleep(1000);
    // The order service: small transactions at a steady offered load.
    auto writer = open(url, QStringLiteral("writer"));
    QElapsedTimer t;
    t.start();
    qint64 written = 0;
    const qint64 total = qint64(rate) * seconds;
    while (written < total) {
        const qint64 due = t.elapsed() * rate / 1000;
        if (written >= due) {
            QThread::usleep(500);
            continue;
        }
        QVector<NewEvent> events;
        for (qint64 n = written; n < std::min(due, written + 20); ++n)
            events << sampleEvent(1000000 + n);
        if (!writer->beginWrite() || !EventWriter(*writer).appendBatch(events) || !writer->commit())
            die(QStringLiteral("writer failed"));
        written += events.size();
    }
    QElapsedTimer drain;
    drain.start();
    while (stats.sent.load() < total && drain.elapsed() < 60000)
        QThread::msleep(10);
    stop = true;
    relayThread->wait();
    delete relayThread;
    const QVector<qint64> samples = stats.recentLatencies();
    return Latency{percentile(samples, 50), percentile(samples, 99), samples.size()};
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Outbox relay benchmark"));
    parser.addHelpOption();
    const QCommandLineOption dbOption(QStringLiteral("db"),
                                      QStringLiteral("Database URL (PostgreSQL recommended)."),
                                      QStringLiteral("url"));
    const QCommandLineOption eventsOption(QStringLiteral("events"),
                                          QStringLiteral("Preloaded events (default 200000)."),
                                          QStringLiteral("n"), QStringLiteral("200000"));
    const QCommandLineOption relaysOption(QStringLiteral("relays"),
                                          QStringLiteral("Relays / claim threads (default 2)."),
                                          QStringLiteral("k"), QStringLiteral("2"));
    const QCommandLineOption batchOption(QStringLiteral("batch"), QStringLiteral("Batch size (default 500)."),
                                         QStringLiteral("n"), QStringLiteral("500"));
    const QCommandLineOption rateOption(QStringLiteral("rate"),
                                        QStringLiteral("Offered load for latency (default 2000/s)."),
                                        QStringLiteral("n"), QStringLiteral("2000"));
    const QCommandLineOption secondsOption(QStringLiteral("seconds"),
                                           QStringLiteral("Latency run length (default 20)."),
                                           QStringLiteral("s"), QStringLiteral("20"));
    const QCommandLineOption smokeOption(QStringLiteral("smoke"),
                                         QStringLiteral("Tiny run for CI: checks that every stage works."));
    const QCommandLineOption latencyOnlyOption(QStringLiteral("latency-only"),
                                               QStringLiteral("Skip the throughput stages."));
    parser.addOptions({dbOption, eventsOption, relaysOption, batchOption, rateOption, secondsOption,
                       smokeOption, latencyOnlyOption});
    parser.process(app);
    const bool smoke = parser.isSet(smokeOption);
    const qint64 events = smoke ? 5000 : parser.value(eventsOption).toLongLong();
    const int relays = parser.value(relaysOption).toInt();
    const int batch = parser.value(batchOption).toInt();
    const int rate = smoke ? 500 : parser.value(rateOption).toInt();
    const int seconds = smoke ? 3 : parser.value(secondsOption).toInt();
    if (events <= 0 || relays <= 0 || batch <= 0 || rate <= 0 || seconds <= 0)
        die(QStringLiteral("numbers must be positive"));

    auto url = DatabaseUrl::parse(parser.value(dbOption).isEmpty() ? qEnvironmentVariable("OUTBOX_DB_URL")
                                                                   : parser.value(dbOption));
    if (!url)
        die(url.message());
    auto db = open(*url, QStringLiteral("bench"));
    if (auto m = Migrator(*db).migrate(); !m)
        die(m.message());
    auto broker = EmbeddedBroker::start(1);
    if (!broker)
        die(broker.message());
    if (!(*broker)->createTopic(QStringLiteral("order"), 6))
        die(QStringLiteral("cannot create the topic"));

    std::printf("outbox relay benchmark: %s, %lld events, %d relays, batch %d, %d cores\n",
                qPrintable(url->redacted()), static_cast<long long>(events), relays, batch,
                QThread::idealThreadCount());
    // Database bound and relay alternate (best of `rounds` each), so that other load on the machine
    // hits both alike.
    const int rounds = parser.isSet(latencyOnlyOption) ? 0 : smoke ? 1 : 2;
    double dbBound = 0, relayThroughput = 0;
    const double brokerRate = rounds > 0 ? brokerBound((*broker)->bootstrap(), events) : 0;
    if (rounds > 0)
        std::printf("broker bound (raw produce, embedded broker):   %10.0f events/s\n", brokerRate);
    for (int round = 1; round <= rounds; ++round) {
        reset(*db);
        preload(*db, events);
        const double bound = databaseBound(*url, relays, batch);
        std::printf("round %d  database bound (claim + mark SENT, no broker): %10.0f events/s\n", round,
                    bound);
        reset(*db);
        preload(*db, events);
        const double relayed = relayRate(*url, (*broker)->bootstrap(), relays, batch, events);
        std::printf("round %d  relay (%d relays, to the embedded broker):      %10.0f events/s\n", round,
                    relays, relayed);
        std::fflush(stdout);
        dbBound = std::max(dbBound, bound);
        relayThroughput = std::max(relayThroughput, relayed);
    }
    if (rounds > 0) {
        std::printf("best: database bound %.0f/s, relay %.0f/s\n", dbBound, relayThroughput);
        std::printf("relay / database bound: %5.1f %%   relay / broker bound: %5.1f %%\n",
                    100.0 * relayThroughput / dbBound, 100.0 * relayThroughput / brokerRate);
    }
    const Latency raw = brokerLatency((*broker)->bootstrap(), smoke ? 20 : 300);
    std::printf("produce->ack of single messages (broker alone):  p50 %4lld ms  p99 %4lld ms\n",
                static_cast<long long>(raw.p50), static_cast<long long>(raw.p99));
    reset(*db);
    const Latency withNotify = latencyAt(*url, (*broker)->bootstrap(), rate, seconds, true, 500);
    std::printf(
        "commit->ack at %d/s offered, LISTEN/NOTIFY on:  p50 %4lld ms  p99 %4lld ms  (%lld samples)\n", rate,
        static_cast<long long>(withNotify.p50), static_cast<long long>(withNotify.p99),
        static_cast<long long>(withNotify.samples));
    reset(*db);
    const Latency polling = latencyAt(*url, (*broker)->bootstrap(), rate, seconds, false, 250);
    std::printf("commit->ack at %d/s offered, polling (250 ms): p50 %4lld ms  p99 %4lld ms  (%lld samples)\n",
                rate, static_cast<long long>(polling.p50), static_cast<long long>(polling.p99),
                static_cast<long long>(polling.samples));
    reset(*db);
    if (withNotify.samples == 0 || polling.samples == 0)
        die(QStringLiteral("no latency samples"));
    return 0;
}
