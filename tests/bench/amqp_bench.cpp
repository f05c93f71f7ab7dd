// RabbitMQ benchmark (not a unit test): the relay's drain rate with publisher confirms next to the
// raw rate of a plain rabbitmq-c publisher with the same window, measured in the same run against
// the same broker; the inbox consumer's rate on the queue; and commit -> ack latency at a steady
// offered load.
//
//   outbox-amqp-bench --db postgresql://outbox@127.0.0.1:25432/postgres --broker
//   amqp://guest@127.0.0.1:25672/%2f
//                     [--events 100000] [--window 1000] [--rate 1000] [--seconds 15] [--smoke]
//                     [--stages raw,relay,consumer,latency] [--broker-pid PID] [--db-pid PID]
//   (password: OUTBOX_BROKER_PASSWORD, default guest)
//
// With --broker-pid (the RabbitMQ node's beam.smp: the fixture's rabbitmq.pid) and --db-pid (the
// postmaster: the first line of postmaster.pid) each stage also prints the CPU time per message of
// this process (publisher or relay), the broker and the database server (backends included), to
// tell a relay that waits from a machine that is out of cores.
//
// 1. raw:      one rabbitmq-c connection publishes N messages (the relay's payloads and headers,
//              persistent, mandatory) with up to `window` unconfirmed, and waits for every confirm;
// 2. relay:    one relay drains N preloaded events through AmqpPublisher (same window);
// 3. consumer: the inbox consumer (no-op handler) reads the N messages from the queue;
// 4. latency:  a writer commits events at `rate`/s while the relay runs: commit -> ack p50/p99, next
//              to the broker's own floor measured just before: the raw publisher sending at `rate`/s,
//              publish -> confirm p50/p99 (persistent messages are confirmed once on disk).
#include "core/broker/amqp/AmqpAdmin.h"
#include "core/broker/amqp/AmqpPublisher.h"
#include "core/consumer/InboxConsumer.h"
#include "core/db/Database.h"
#include "core/db/EventWriter.h"
#include "core/db/Migrator.h"
#include "core/relay/Relay.h"
#include "core/relay/RelayStats.h"
#include "core/support/TimeZone.h"
#include "tests/support/BrokerTestKit.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>
#include <atomic>
#include <cstdio>
#include <memory>
#include <unistd.h>

using namespace outbox;

namespace {

const QString Exchange = QStringLiteral("outbox-bench");
const QString Queue = QStringLiteral("outbox-bench");
// Its own tables in the shared database, so it can run beside the other benchmarks.
const QString Prefix = QStringLiteral("amqpbench_");

void die(const QString& why)
{
    std::fprintf(stderr, "outbox-amqp-bench: %s\n", qPrintable(why));
    std::exit(1);
}

QString loadAverage()
{
    QFile f(QStringLiteral("/proc/loadavg"));
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("unknown");
    return QString::fromLatin1(f.readLine()).section(QLatin1Char(' '), 0, 2);
}

// CPU seconds (user + system) of a process and its children: those it reaped (a postmaster's ended
// backends) and those alive now. 0 when it cannot be read.
double cpuSeconds(qint64 pid)
{
    auto ticks = [](const QString& path, bool withReaped) -> double {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return 0;
        const QByteArray stat = f.readAll();
        // Fields after the command name (which may hold spaces): state is field 3, utime 14.
        const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
        if (fields.size() < 15)
            return 0;
        double t = fields.at(11).toDouble() + fields.at(12).toDouble();
        if (withReaped)
            t += fields.at(13).toDouble() + fields.at(14).toDouble();
        return t;
    };
    if (pid <= 0)
        return 0;
    double total = ticks(QStringLiteral("/proc/%1/stat").arg(pid), true);
    const QByteArray parent = QByteArray::number(pid);
    QDir proc(QStringLiteral("/proc"));
    for (const QString& entry : proc.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool numeric = false;
        (void)entry.toLongLong(&numeric);
        if (!numeric)
            continue;
        QFile f(QStringLiteral("/proc/%1/stat").arg(entry));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QByteArray stat = f.readAll();
        const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields.at(1) == parent)
            total += ticks(f.fileName(), false);
    }
    return total / double(sysconf(_SC_CLK_TCK));
}

// CPU used by this process, the broker and the database over one stage.
struct CpuMeter
{
    qint64 brokerPid = 0;
    qint64 dbPid = 0;
    double self = 0, broker = 0, db = 0;

    void start()
    {
        self = cpuSeconds(getpid());
        broker = cpuSeconds(brokerPid);
        db = cpuSeconds(dbPid);
    }
    // "CPU per message: this process 85 us, broker 120 us, database 40 us" (empty without the pids).
    QString perMessage(const char* self_, qint64 messages) const
    {
        if (brokerPid <= 0 && dbPid <= 0)
            return {};
        auto us = [messages](double seconds) {
            return qint64(seconds * 1e6 / double(std::max<qint64>(1, messages)));
        };
        return QStringLiteral("    CPU per message: %1 %2 us, broker %3 us, database %4 us\n")
            .arg(QLatin1String(self_))
            .arg(us(cpuSeconds(getpid()) - self))
            .arg(brokerPid > 0 ? QString::number(us(cpuSeconds(brokerPid) - broker)) : QStringLiteral("-"))
            .arg(dbPid > 0 ? QString::number(us(cpuSeconds(dbPid) - db)) : QStringLiteral("-"));
    }
};

std::unique_ptr<Database> open(const DatabaseUrl& url, const QString& purpose)
{
    Database::Options o;
    o.purpose = purpose;
    o.tablePrefix = Prefix;
    auto db = Database::open(url, o);
    if (!db)
        die(db.message());
    return std::move(db).value();
}

// The same events as outbox-relay-bench.
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

// The message the relay makes of sampleEvent(n).
BrokerMessage sampleMessage(qint64 n)
{
    const NewEvent e = sampleEvent(n);
    BrokerMessage m;
    m.topic = QStringLiteral("order");
    m.payload = e.payload;
    m.messageId = QStringLiteral("raw-%1").arg(n);
    m.type = e.eventType;
    m.headers = {{"event_id", m.messageId.toUtf8()},
                 {"event_type", e.eventType.toUtf8()},
                 {"aggregate_type", "Order"},
                 {"aggregate_id", e.aggregateId.toUtf8()},
                 {"schema_version", "1"},
                 {"aggregate_version", QByteArray::number(*e.aggregateVersion)},
                 {"trace_id", e.headers.value(QStringLiteral("trace_id")).toString().toUtf8()}};
    return m;
}

void reset(Database& db, AmqpAdmin& admin)
{
    if (!db.exec(QStringLiteral("DELETE FROM {events}")) ||
        !db.exec(QStringLiteral("DELETE FROM {relays}")) || !db.exec(QStringLiteral("DELETE FROM {inbox}")))
        die(QStringLiteral("cannot empty the outbox"));
    (void)db.exec(QStringLiteral("VACUUM ANALYZE {events}"));
    (void)admin.deleteQueue(Queue);
    if (Status s = admin.declareExchange(Exchange); !s)
        die(s.message());
    if (Status s = admin.declareQueue(Queue, Exchange, QStringLiteral("#")); !s)
        die(s.message());
}

void preload(Database& db, qint64 events)
{
    QVector<NewEvent> chunk;
    for (qint64 n = 0; n < events; ++n) {
        chunk << sampleEvent(n);
        if (chunk.size() == 1000 || n + 1 == events) {
            if (!db.beginWrite() || !EventWriter(db).appendBatch(chunk) || !db.commit())
                die(QStringLiteral("preload failed"));
            chunk.clear();
        }
    }
    (void)db.exec(QStringLiteral("VACUUM ANALYZE {events}"));
}

// 1. A plain publisher with confirms and the same window: batches of 500 as the relay hands them.
double rawRate(const AmqpOptions& options, qint64 events)
{
    auto p = AmqpPublisher::create(options);
    if (!p)
        die(p.message());
    QElapsedTimer t;
    t.start();
    std::vector<std::unique_ptr<PendingBatch>> batches;
    for (qint64 n = 0; n < events; n += 500) {
        QVector<BrokerMessage> messages;
        for (qint64 i = n; i < std::min(events, n + 500); ++i)
            messages << sampleMessage(i);
        batches.push_back((*p)->enqueue(messages));
    }
    for (auto& b : batches) {
        (*p)->await(*b, 60000);
        for (const DeliveryReport& r : b->reports())
            if (r.deliveryClass != DeliveryClass::Success)
                die(QStringLiteral("raw publish failed: %1").arg(r.message));
    }
    return double(events) * 1000.0 / double(std::max<qint64>(1, t.elapsed()));
}

// Commits events at `rate`/s for `seconds` (as one transaction each while it keeps up), as an
// application would; returns how many.
qint64 writeAt(const DatabaseUrl& url, int rate, int seconds)
{
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
    return total;
}

// The broker's own publish -> confirm latency at `rate` messages/s: the floor of commit -> ack. With
// `writer`, the writer commits events at the same rate meanwhile (no relay takes them): the floor
// under the load the database puts on the machine during the relay's run.
void rawLatencyAt(const AmqpOptions& options, int rate, int seconds, const DatabaseUrl* writer = nullptr)
{
    QThread* writerThread = nullptr;
    if (writer) {
        writerThread = QThread::create([writer, rate, seconds] { (void)writeAt(*writer, rate, seconds); });
        writerThread->start();
    }
    auto p = AmqpPublisher::create(options);
    if (!p)
        die(p.message());
    struct Sent
    {
        std::unique_ptr<PendingBatch> batch;
        qint64 publishedAtMs = 0;
    };
    std::vector<Sent> sent;
    QElapsedTimer t;
    t.start();
    const qint64 total = qint64(rate) * seconds;
    qint64 published = 0;
    while (published < total) {
        const qint64 due = t.elapsed() * rate / 1000;
        if (published >= due) {
            (*p)->poll(1);
            continue;
        }
        QVector<BrokerMessage> messages;
        for (qint64 n = published; n < std::min(due, published + 20); ++n)
            messages << sampleMessage(2000000 + n);
        Sent s;
        s.publishedAtMs = QDateTime::currentMSecsSinceEpoch();
        s.batch = (*p)->enqueue(messages);
        sent.push_back(std::move(s));
        published += messages.size();
    }
    QVector<qint64> samples;
    for (Sent& s : sent) {
        (*p)->await(*s.batch, 60000);
        for (const DeliveryReport& r : s.batch->reports()) {
            if (r.deliveryClass != DeliveryClass::Success)
                die(QStringLiteral("raw publish failed: %1").arg(r.message));
            samples << r.ackedAtMs - s.publishedAtMs;
        }
    }
    if (writerThread) {
        writerThread->wait();
        delete writerThread;
    }
    std::printf("publish->confirm at %d/s (raw, the broker's floor%s): p50 %lld ms  p99 %lld ms  (%lld "
                "samples)\n",
                rate, writer ? ", writer committing meanwhile" : "",
                static_cast<long long>(percentile(samples, 50)),
                static_cast<long long>(percentile(samples, 99)), static_cast<long long>(samples.size()));
}

RelayOptions relayOptions(const AmqpOptions& amqp)
{
    RelayOptions o;
    o.broker = test::rabbitWith(amqp);
    o.batchSize = 500;
    o.localWakeup = false;
    o.pollIntervalMs = 100;
    o.retentionMs = 0;
    return o;
}

double relayRate(const DatabaseUrl& url, const AmqpOptions& amqp, qint64 events)
{
    RelayStats stats;
    std::atomic<bool> stop{false};
    RelayOptions o = relayOptions(amqp);
    o.workerId = QStringLiteral("amqp-bench");
    QElapsedTimer t;
    t.start();
    QThread* thread = QThread::create([&] {
        Relay relay(DatabaseTarget(url, Prefix), o, stats);
        if (Status s = relay.run(stop); !s)
            die(s.message());
    });
    thread->start();
    while (stats.sent.load() < events && t.elapsed() < 600000)
        QThread::msleep(5);
    const qint64 elapsed = t.elapsed();
    stop = true;
    thread->wait();
    delete thread;
    if (stats.sent.load() < events)
        die(QStringLiteral("the relay sent only %1 of %2 events").arg(stats.sent.load()).arg(events));
    return double(events) * 1000.0 / double(std::max<qint64>(1, elapsed));
}

double consumerRate(const DatabaseUrl& url, const AmqpOptions& amqp, qint64 messages)
{
    ConsumerOptions o;
    o.consumerName = QStringLiteral("amqp-bench");
    o.broker = test::rabbitWith(amqp);
    test::amqpOf(o).queue = Queue;
    InboxConsumerStats stats;
    std::atomic<bool> stop{false};
    QElapsedTimer t;
    t.start();
    QThread* thread = QThread::create([&] {
        InboxConsumer consumer(
            DatabaseTarget(url, Prefix), o,
            [](Database&, const InboxMessage&) { return HandlerResult::ok(); }, stats);
        if (Status s = consumer.run(stop); !s)
            die(s.message());
    });
    thread->start();
    while (stats.processed.load() + stats.duplicates.load() < messages && t.elapsed() < 600000)
        QThread::msleep(5);
    const qint64 elapsed = t.elapsed();
    stop = true;
    thread->wait();
    delete thread;
    const qint64 done = stats.processed.load() + stats.duplicates.load();
    if (done < messages)
        die(QStringLiteral("the consumer took only %1 of %2 messages").arg(done).arg(messages));
    return double(messages) * 1000.0 / double(std::max<qint64>(1, elapsed));
}

void latencyAt(const DatabaseUrl& url, const AmqpOptions& amqp, int rate, int seconds)
{
    RelayStats stats;
    std::atomic<bool> stop{false};
    RelayOptions o = relayOptions(amqp);
    o.workerId = QStringLiteral("amqp-latency");
    QThread* relayThread = QThread::create([&] {
        Relay relay(DatabaseTarget(url, Prefix), o, stats);
        if (Status s = relay.run(stop); !s)
            die(s.message());
    });
    relayThread->start();
    QThread::msleep(1000);
    const qint64 total = writeAt(url, rate, seconds);
    QElapsedTimer drain;
    drain.start();
    while (stats.sent.load() < total && drain.elapsed() < 60000)
        QThread::msleep(10);
    stop = true;
    relayThread->wait();
    delete relayThread;
    const QVector<qint64> samples = stats.recentLatencies();
    std::printf("commit->ack at %d/s offered (RabbitMQ, confirms): p50 %lld ms  p99 %lld ms  (%lld samples; "
                "commit->claim p50 %lld / p99 %lld ms, claim->ack p50 %lld / p99 %lld ms)\n",
                rate, static_cast<long long>(percentile(samples, 50)),
                static_cast<long long>(percentile(samples, 99)), static_cast<long long>(samples.size()),
                static_cast<long long>(percentile(stats.recentCommitToClaim(), 50)),
                static_cast<long long>(percentile(stats.recentCommitToClaim(), 99)),
                static_cast<long long>(percentile(stats.recentClaimToAck(), 50)),
                static_cast<long long>(percentile(stats.recentClaimToAck(), 99)));
}

} // namespace

int main(int argc, char* argv[])
{
    // As outboxctl does: the relay's timestamp conversions must not re-read the zone file each time.
    outbox::pinLocalTimeZone();
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({QStringLiteral("db"), QStringLiteral("PostgreSQL URL"), QStringLiteral("url")});
    parser.addOption({QStringLiteral("broker"), QStringLiteral("amqp:// URL"), QStringLiteral("url")});
    parser.addOption(
        {QStringLiteral("events"), QStringLiteral("events"), QStringLiteral("n"), QStringLiteral("100000")});
    parser.addOption({QStringLiteral("window"), QStringLiteral("unconfirmed publishes"), QStringLiteral("n"),
                      QStringLiteral("1000")});
    parser.addOption({QStringLiteral("rate"), QStringLiteral("events/s for latency"), QStringLiteral("n"),
                      QStringLiteral("1000")});
    parser.addOption({QStringLiteral("seconds"), QStringLiteral("latency run"), QStringLiteral("s"),
                      QStringLiteral("15")});
    parser.addOption({QStringLiteral("smoke"), QStringLiteral("a few seconds, for CI")});
    parser.addOption({QStringLiteral("stages"), QStringLiteral("stages to run (raw,relay,consumer,latency)"),
                      QStringLiteral("list"), QStringLiteral("raw,relay,consumer,latency")});
    parser.addOption({QStringLiteral("broker-pid"), QStringLiteral("the broker's pid (CPU per message)"),
                      QStringLiteral("pid")});
    parser.addOption({QStringLiteral("db-pid"), QStringLiteral("the database server's pid (CPU per message)"),
                      QStringLiteral("pid")});
    parser.process(app);
    const bool smoke = parser.isSet(QStringLiteral("smoke"));
    const qint64 events = smoke ? 2000 : parser.value(QStringLiteral("events")).toLongLong();
    const int rate = parser.value(QStringLiteral("rate")).toInt();
    const int seconds = smoke ? 2 : parser.value(QStringLiteral("seconds")).toInt();
    auto url = DatabaseUrl::parse(parser.value(QStringLiteral("db")));
    if (!url)
        die(url.message());
    auto broker = AmqpUrl::parse(parser.value(QStringLiteral("broker")));
    if (!broker)
        die(QStringLiteral("--broker amqp://… is required"));
    AmqpOptions amqp;
    amqp.url = *broker;
    amqp.url.password = qEnvironmentVariable("OUTBOX_BROKER_PASSWORD", QStringLiteral("guest"));
    amqp.exchange = Exchange;
    amqp.window = parser.value(QStringLiteral("window")).toInt();
    {
        auto db = open(*url, QStringLiteral("migrate"));
        if (auto m = Migrator(*db).migrate(); !m)
            die(m.message());
    }
    auto admin = AmqpAdmin::connect(amqp);
    if (!admin)
        die(admin.message());
    auto db = open(*url, QStringLiteral("bench"));
    std::printf("outbox-amqp-bench: %lld events, window %d, load average %s%s\n",
                static_cast<long long>(events), amqp.window, qPrintable(loadAverage()),
                smoke ? " (smoke)" : "");

    const QStringList stages = parser.value(QStringLiteral("stages")).split(QLatin1Char(','));
    CpuMeter cpu;
    cpu.brokerPid = parser.value(QStringLiteral("broker-pid")).toLongLong();
    cpu.dbPid = parser.value(QStringLiteral("db-pid")).toLongLong();
    double raw = 0;
    if (stages.contains(QLatin1String("raw"))) {
        reset(*db, **admin);
        cpu.start();
        raw = rawRate(amqp, events);
        std::printf("raw publish with confirms (rabbitmq-c, window %d): %8.0f msg/s   load %s\n%s",
                    amqp.window, raw, qPrintable(loadAverage()),
                    qPrintable(cpu.perMessage("publisher", events)));
    }
    if (stages.contains(QLatin1String("relay"))) {
        reset(*db, **admin);
        preload(*db, events);
        cpu.start();
        const double relay = relayRate(*url, amqp, events);
        std::printf("relay drain to RabbitMQ with confirms:            %8.0f ev/s    load %s", relay,
                    qPrintable(loadAverage()));
        if (raw > 0)
            std::printf("  (%.0f %% of raw)", 100.0 * relay / raw);
        std::printf("\n%s", qPrintable(cpu.perMessage("relay", events)));
        if (stages.contains(QLatin1String("consumer"))) {
            cpu.start();
            const double consumer = consumerRate(*url, amqp, events);
            std::printf("inbox consumer from the queue (no-op handler):    %8.0f msg/s   load %s\n%s",
                        consumer, qPrintable(loadAverage()), qPrintable(cpu.perMessage("consumer", events)));
        }
    }
    if (stages.contains(QLatin1String("latency"))) {
        reset(*db, **admin);
        rawLatencyAt(amqp, smoke ? 200 : rate, seconds);
        reset(*db, **admin);
        rawLatencyAt(amqp, smoke ? 200 : rate, seconds, &*url);
        reset(*db, **admin);
        latencyAt(*url, amqp, smoke ? 200 : rate, seconds);
    }
    std::fflush(stdout);
    return 0;
}
