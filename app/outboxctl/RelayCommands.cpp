#include "app/outboxctl/Cli.h"
#include "app/outboxctl/RelayRunner.h"
#include "app/outboxctl/Signals.h"
#include "app/outboxctl/Systemd.h"
#include "core/broker/EmbeddedBroker.h"
#include "core/relay/RelayStats.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSettings>
#include <QThread>
#include <cstdio>
#include <functional>

namespace outbox::cli {

namespace {

// Reads an integer option (or its [relay] config key) within bounds.
Result<qint64> intOption(Context& ctx, const QString& name, qint64 fallback, qint64 min, qint64 max)
{
    QString text = ctx.parser.value(name);
    if (text.isEmpty()) {
        auto configured = ctx.configValue(QStringLiteral("relay/") + name);
        if (!configured)
            return configured.error();
        text = *configured;
    }
    if (text.isEmpty())
        return fallback;
    bool ok = false;
    const qint64 v = text.toLongLong(&ok);
    if (!ok || v < min || v > max)
        return Error::usage(
            QStringLiteral("--%1 must be a number between %2 and %3").arg(name).arg(min).arg(max));
    return v;
}

Result<qint64> durationOption(const QString& text, const QString& name)
{
    static const QRegularExpression re(QStringLiteral("^(\\d+)\\s*(ms|s|m|h|d)?$"));
    const auto m = re.match(text.trimmed());
    if (!m.hasMatch())
        return Error::usage(
            QStringLiteral("invalid duration \"%1\" for --%2 (e.g. 30s, 15m, 7d, 0)").arg(text, name));
    const qint64 n = m.captured(1).toLongLong();
    const QString unit = m.captured(2);
    const qint64 factor = unit == QLatin1String("ms")  ? 1
                          : unit == QLatin1String("m") ? 60000
                          : unit == QLatin1String("h") ? 3600000
                          : unit == QLatin1String("d") ? 86400000
                                                       : 1000;
    return n * factor;
}

} // namespace

QList<QCommandLineOption> relayOptionList()
{
    return {
        QCommandLineOption(QStringLiteral("kafka-bootstrap"),
                           QStringLiteral("Kafka bootstrap servers (or OUTBOX_KAFKA_BOOTSTRAP)."),
                           QStringLiteral("host:port")),
        QCommandLineOption(QStringLiteral("X"), QStringLiteral("librdkafka property, repeatable."),
                           QStringLiteral("name=value")),
        QCommandLineOption(QStringLiteral("workers"),
                           QStringLiteral("Relay workers in this process (default 1)."), QStringLiteral("n")),
        QCommandLineOption(QStringLiteral("worker-id"),
                           QStringLiteral("Worker id (default host-pid-random)."), QStringLiteral("id")),
        QCommandLineOption(QStringLiteral("batch-size"), QStringLiteral("Events per claim (default 500)."),
                           QStringLiteral("n")),
        QCommandLineOption(QStringLiteral("lease-ms"), QStringLiteral("Lease of a claim (default 30000)."),
                           QStringLiteral("ms")),
        QCommandLineOption(QStringLiteral("poll-ms"),
                           QStringLiteral("Poll interval when idle (default 250)."), QStringLiteral("ms")),
        QCommandLineOption(QStringLiteral("max-attempts"),
                           QStringLiteral("Attempts before DEAD (default 10)."), QStringLiteral("n")),
        QCommandLineOption(QStringLiteral("backoff-base-ms"), QStringLiteral("Backoff base (default 500)."),
                           QStringLiteral("ms")),
        QCommandLineOption(QStringLiteral("backoff-cap-ms"), QStringLiteral("Backoff cap (default 60000)."),
                           QStringLiteral("ms")),
        QCommandLineOption(QStringLiteral("ordering"), QStringLiteral("none or aggregate (default none)."),
                           QStringLiteral("mode")),
        QCommandLineOption(QStringLiteral("topic-template"),
                           QStringLiteral("Topic when the row has none (default {aggregate_type})."),
                           QStringLiteral("template")),
        QCommandLineOption(QStringLiteral("retention"),
                           QStringLiteral("Delete SENT rows older than this (default 7d; 0 keeps all)."),
                           QStringLiteral("duration")),
        QCommandLineOption(QStringLiteral("no-notify"),
                           QStringLiteral("Do not LISTEN for new events (PostgreSQL); poll only.")),
        QCommandLineOption(QStringLiteral("no-pipeline"),
                           QStringLiteral("Do not claim the next batch while one is in flight.")),
        QCommandLineOption(QStringLiteral("quiet"), QStringLiteral("Only errors on stderr.")),
    };
}

// Builds relay options from the command line, OUTBOX_KAFKA_BOOTSTRAP and the config file
// ([relay] keys named like the options, [kafka] bootstrap and librdkafka properties).
Result<RelayOptions> relayOptionsFromContext(Context& ctx)
{
    RelayOptions o;
    o.bootstrap = ctx.parser.value(QStringLiteral("kafka-bootstrap"));
    if (o.bootstrap.isEmpty())
        o.bootstrap = qEnvironmentVariable("OUTBOX_KAFKA_BOOTSTRAP");
    if (ctx.parser.isSet(QStringLiteral("config"))) {
        auto probe = ctx.configValue(QStringLiteral("kafka/bootstrap"));
        if (!probe)
            return probe.error();
        if (o.bootstrap.isEmpty())
            o.bootstrap = *probe;
        QSettings settings(ctx.parser.value(QStringLiteral("config")), QSettings::IniFormat);
        settings.beginGroup(QStringLiteral("kafka"));
        for (const QString& key : settings.childKeys()) {
            if (key == QLatin1String("bootstrap"))
                continue;
            if (Status s = o.kafka.set(key, settings.value(key).toString()); !s)
                return s.error();
        }
    }
    for (const QString& property : ctx.parser.values(QStringLiteral("X"))) {
        if (Status s = o.kafka.setFromArgument(property); !s)
            return s.error();
    }
    o.workerId = ctx.parser.value(QStringLiteral("worker-id"));
    o.tablePrefix = ctx.parser.value(QStringLiteral("table-prefix"));
    struct IntField
    {
        const char* name;
        qint64 fallback;
        qint64 min;
        qint64 max;
        std::function<void(qint64)> apply;
    };
    const IntField fields[] = {
        {"batch-size", o.batchSize, 1, 10000, [&](qint64 v) { o.batchSize = int(v); }},
        {"lease-ms", o.leaseMs, 1000, 86400000, [&](qint64 v) { o.leaseMs = v; }},
        {"poll-ms", o.pollIntervalMs, 10, 600000, [&](qint64 v) { o.pollIntervalMs = int(v); }},
        {"max-attempts", o.maxAttempts, 1, 1000, [&](qint64 v) { o.maxAttempts = int(v); }},
        {"backoff-base-ms", o.backoffBaseMs, 1, 3600000, [&](qint64 v) { o.backoffBaseMs = v; }},
        {"backoff-cap-ms", o.backoffCapMs, 1, 86400000, [&](qint64 v) { o.backoffCapMs = v; }},
    };
    for (const IntField& f : fields) {
        auto v = intOption(ctx, QLatin1String(f.name), f.fallback, f.min, f.max);
        if (!v)
            return v.error();
        f.apply(*v);
    }
    const QString ordering = ctx.parser.value(QStringLiteral("ordering"));
    if (ordering == QLatin1String("aggregate"))
        o.ordering = OrderingMode::Aggregate;
    else if (!ordering.isEmpty() && ordering != QLatin1String("none"))
        return Error::usage(QStringLiteral("--ordering must be none or aggregate"));
    if (ctx.parser.isSet(QStringLiteral("topic-template")))
        o.topicTemplate = ctx.parser.value(QStringLiteral("topic-template"));
    if (ctx.parser.isSet(QStringLiteral("retention"))) {
        auto r = durationOption(ctx.parser.value(QStringLiteral("retention")), QStringLiteral("retention"));
        if (!r)
            return r.error();
        o.retentionMs = *r;
    }
    o.notify = !ctx.parser.isSet(QStringLiteral("no-notify"));
    o.pipeline = !ctx.parser.isSet(QStringLiteral("no-pipeline"));
    return o;
}

QString progressLine(const RelayStats& stats, qint64 sentBefore, qint64 elapsedMs)
{
    const QVector<qint64> latencies = stats.recentLatencies();
    const qint64 sent = stats.sent.load();
    return QStringLiteral("sent %1 (%2/s) failed %3 dead %4 retried %5 released %6 fenced %7 reaped %8 | "
                          "commit->ack p50 %9 ms p99 %10 ms")
        .arg(sent)
        .arg(elapsedMs > 0 ? (sent - sentBefore) * 1000 / elapsedMs : 0)
        .arg(stats.failed.load())
        .arg(stats.dead.load())
        .arg(stats.retried.load())
        .arg(stats.released.load())
        .arg(stats.fenced.load())
        .arg(stats.leaseExpired.load())
        .arg(percentile(latencies, 50))
        .arg(percentile(latencies, 99));
}

namespace {

int runRelay(Context& ctx)
{
    if (!ctx.positionals.isEmpty())
        return ctx.usage(QStringLiteral("relay takes no positional arguments"));
    auto options = relayOptionsFromContext(ctx);
    if (!options)
        return ctx.fail(options.error());
    auto workers = intOption(ctx, QStringLiteral("workers"), 1, 1, 64);
    if (!workers)
        return ctx.fail(workers.error());
    if (Status s = options->validate(); !s)
        return ctx.fail(s.error());
    auto db = ctx.openMigratedDatabase(); // fail fast on a bad URL, an unreachable database or no schema
    if (!db)
        return ctx.fail(db.error());
    const DatabaseUrl url = (*db)->url();
    db->reset();

    std::atomic<bool>& stop = installStopSignals();
    const bool verbose = !ctx.parser.isSet(QStringLiteral("quiet"));
    if (verbose)
        ctx.err << systemd::prefix(systemd::Priority::Notice) << "outboxctl relay: " << *workers
                << " worker(s), " << url.redacted() << " -> " << options->bootstrap << Qt::endl;
    qint64 lastSent = 0;
    QElapsedTimer sinceReport;
    sinceReport.start();
    RelayRunner runner(url, *options, int(*workers));
    systemd::Watchdog watchdog;
    Status s = runner.run(stop, verbose, [&] {
        // systemd: ready once every worker runs, pings while they do, STOPPING when the drain begins.
        if (stop.load())
            systemd::notifyStopping(QStringLiteral("draining"));
        else if (runner.allRunning())
            systemd::notifyReady(QStringLiteral("%1 worker(s) running").arg(*workers));
        watchdog.ping();
        if (verbose && sinceReport.elapsed() >= 5000) {
            const auto totals = runner.totals();
            const QString progress = progressLine(*totals, lastSent, sinceReport.elapsed());
            ctx.err << "outboxctl relay: " << progress << Qt::endl;
            systemd::notifyStatus(progress);
            lastSent = totals->sent.load();
            sinceReport.restart();
        }
    });
    if (!s)
        return ctx.fail(s.error());
    if (verbose)
        ctx.err << systemd::prefix(systemd::Priority::Notice) << "outboxctl relay: stopped; "
                << progressLine(*runner.totals(), 0, 0) << Qt::endl;
    return Ok;
}

int runKafka(Context& ctx)
{
    if (!ctx.positionals.isEmpty())
        return ctx.usage(QStringLiteral("kafka takes no positional arguments"));
    bool ok = true;
    const int brokers = ctx.parser.isSet(QStringLiteral("brokers"))
                            ? ctx.parser.value(QStringLiteral("brokers")).toInt(&ok)
                            : 1;
    if (!ok || brokers < 1 || brokers > 9)
        return ctx.usage(QStringLiteral("--brokers must be between 1 and 9"));
    auto broker = EmbeddedBroker::start(brokers);
    if (!broker)
        return ctx.fail(broker.error());
    for (const QString& spec : ctx.parser.values(QStringLiteral("topic"))) {
        const QString name = spec.section(QLatin1Char(':'), 0, 0);
        const int partitions =
            spec.contains(QLatin1Char(':')) ? spec.section(QLatin1Char(':'), 1, 1).toInt(&ok) : 3;
        if (!ok || partitions < 1 || name.isEmpty())
            return ctx.usage(QStringLiteral("invalid --topic \"%1\" (expected name[:partitions])").arg(spec));
        if (Status s = (*broker)->createTopic(name, partitions, brokers); !s)
            return ctx.fail(s.error());
    }
    std::atomic<bool>& stop = installStopSignals();
    if (ctx.json())
        ctx.printJson(QJsonObject{{QStringLiteral("bootstrap"), (*broker)->bootstrap()},
                                  {QStringLiteral("brokers"), brokers}});
    else
        ctx.out << "bootstrap " << (*broker)->bootstrap() << Qt::endl;
    ctx.err << "outboxctl kafka: embedded broker (" << brokers << " broker(s)) on " << (*broker)->bootstrap()
            << "; Ctrl-C stops it" << Qt::endl;
    while (!stop.load())
        QThread::msleep(100);
    return Ok;
}

} // namespace

QList<Command> relayCommands()
{
    return {
        {QStringLiteral("relay"),
         QStringLiteral("Deliver PENDING events to Kafka (leases, fencing, retries)."),
         QString(),
         relayOptionList(),
         runRelay,
         {}},
        {QStringLiteral("kafka"),
         QStringLiteral("Run the embedded Kafka broker and print its bootstrap address."),
         QString(),
         {QCommandLineOption(QStringLiteral("brokers"), QStringLiteral("Number of brokers (default 1)."),
                             QStringLiteral("n")),
          QCommandLineOption(QStringLiteral("topic"), QStringLiteral("Create a topic, repeatable."),
                             QStringLiteral("name[:partitions]"))},
         runKafka,
         {}},
    };
}

} // namespace outbox::cli
