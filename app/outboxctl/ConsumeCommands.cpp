#include "app/outboxctl/Cli.h"
#include "app/outboxctl/ConsumerRunner.h"
#include "app/outboxctl/InventoryService.h"
#include "app/outboxctl/Signals.h"

#include <QElapsedTimer>
#include <QThread>

namespace outbox::cli {

namespace {

Result<int> boundedInt(Context& ctx, const QString& name, int fallback, int min, int max)
{
    if (!ctx.parser.isSet(name))
        return fallback;
    bool ok = false;
    const int v = ctx.parser.value(name).toInt(&ok);
    if (!ok || v < min || v > max)
        return Error::usage(
            QStringLiteral("--%1 must be a number between %2 and %3").arg(name).arg(min).arg(max));
    return v;
}

int runConsume(Context& ctx)
{
    if (!ctx.positionals.isEmpty())
        return ctx.usage(QStringLiteral("consume takes no positional arguments"));
    if (!ctx.parser.isSet(QStringLiteral("demo-inventory")))
        return ctx.usage(QStringLiteral(
            "consume needs a handler: --demo-inventory (the demo inventory service) is the built-in one"));
    ConsumerOptions options;
    options.consumerName = ctx.parser.isSet(QStringLiteral("consumer"))
                               ? ctx.parser.value(QStringLiteral("consumer"))
                               : InventoryService::defaultConsumerName();
    options.bootstrap = ctx.parser.value(QStringLiteral("kafka-bootstrap"));
    if (options.bootstrap.isEmpty())
        options.bootstrap = qEnvironmentVariable("OUTBOX_KAFKA_BOOTSTRAP");
    options.topics = ctx.parser.isSet(QStringLiteral("topic")) ? ctx.parser.values(QStringLiteral("topic"))
                                                               : QStringList{QStringLiteral("order")};
    options.tablePrefix = ctx.parser.value(QStringLiteral("table-prefix"));
    if (ctx.parser.isSet(QStringLiteral("schema-versions"))) {
        options.schemaVersions.clear();
        for (const QString& part : ctx.parser.value(QStringLiteral("schema-versions"))
                                       .split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            const int v = part.trimmed().toInt(&ok);
            if (!ok || v < 1)
                return ctx.usage(
                    QStringLiteral("--schema-versions takes positive numbers separated by commas"));
            options.schemaVersions.insert(v);
        }
    }
    auto attempts = boundedInt(ctx, QStringLiteral("max-attempts"), options.maxAttempts, 1, 1000);
    auto base = boundedInt(ctx, QStringLiteral("backoff-base-ms"), int(options.backoffBaseMs), 1, 3600000);
    auto cap = boundedInt(ctx, QStringLiteral("backoff-cap-ms"), int(options.backoffCapMs), 1, 86400000);
    auto transient = boundedInt(ctx, QStringLiteral("transient-percent"), 5, 0, 100);
    for (const auto* r : {&attempts, &base, &cap, &transient})
        if (!*r)
            return ctx.fail(r->error());
    options.maxAttempts = *attempts;
    options.backoffBaseMs = *base;
    options.backoffCapMs = std::max(*cap, *base);
    for (const QString& property : ctx.parser.values(QStringLiteral("X"))) {
        const int eq = property.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return ctx.usage(
                QStringLiteral("invalid Kafka property \"%1\" (expected name=value)").arg(property));
        options.kafka.insert(property.left(eq).trimmed(), property.mid(eq + 1).trimmed());
    }
    if (Status s = options.validate(); !s)
        return ctx.fail(s.error());

    auto db = ctx.openMigratedDatabase();
    if (!db)
        return ctx.fail(db.error());
    if (Status s = InventoryService::prepare(**db); !s)
        return ctx.fail(s.error());
    const DatabaseUrl url = (*db)->url();
    db->reset();

    std::atomic<bool>& stop = installStopSignals();
    const bool verbose = !ctx.parser.isSet(QStringLiteral("quiet"));
    const InventoryService inventory(*transient);
    InboxConsumerStats stats;
    ConsumerRunner runner(
        url, options, [inventory](Database& d, const InboxMessage& m) { return inventory.handle(d, m); },
        stats, verbose);
    if (verbose)
        ctx.err << "outboxctl consume: inventory service as consumer \"" << options.consumerName << "\", "
                << url.redacted() << " <- " << options.bootstrap << " "
                << options.topics.join(QStringLiteral(",")) << Qt::endl;
    runner.start();
    QElapsedTimer sinceReport;
    sinceReport.start();
    while (!stop.load() && !runner.finished()) {
        QThread::msleep(100);
        if (verbose && sinceReport.elapsed() >= 5000) {
            ctx.err << "outboxctl consume: " << consumerProgressLine(stats) << Qt::endl;
            sinceReport.restart();
        }
    }
    runner.stop();
    if (!runner.error().isEmpty())
        return ctx.fail(Error::runtime(runner.error()));
    if (verbose)
        ctx.err << "outboxctl consume: stopped; " << consumerProgressLine(stats) << Qt::endl;
    return Ok;
}

} // namespace

QList<Command> consumeCommands()
{
    return {
        {QStringLiteral("consume"),
         QStringLiteral("Consume events through the inbox (idempotent, dead letters): --demo-inventory."),
         QString(),
         {QCommandLineOption(
              QStringLiteral("demo-inventory"),
              QStringLiteral("Run the demo inventory service (reserves stock for OrderCreated).")),
          QCommandLineOption(QStringLiteral("kafka-bootstrap"),
                             QStringLiteral("Kafka bootstrap servers (or OUTBOX_KAFKA_BOOTSTRAP)."),
                             QStringLiteral("host:port")),
          QCommandLineOption(
              QStringLiteral("consumer"),
              QStringLiteral("Consumer name: inbox consumer_name and Kafka group (default inventory)."),
              QStringLiteral("name")),
          QCommandLineOption(QStringLiteral("topic"),
                             QStringLiteral("Topic to consume, repeatable (default order)."),
                             QStringLiteral("topic")),
          QCommandLineOption(QStringLiteral("schema-versions"),
                             QStringLiteral("Supported schema_version values (default 1)."),
                             QStringLiteral("1,2")),
          QCommandLineOption(
              QStringLiteral("max-attempts"),
              QStringLiteral("Attempts on transient failures before a dead letter (default 5)."),
              QStringLiteral("n")),
          QCommandLineOption(QStringLiteral("backoff-base-ms"),
                             QStringLiteral("Retry backoff base (default 200)."), QStringLiteral("ms")),
          QCommandLineOption(QStringLiteral("backoff-cap-ms"),
                             QStringLiteral("Retry backoff cap (default 5000)."), QStringLiteral("ms")),
          QCommandLineOption(
              QStringLiteral("transient-percent"),
              QStringLiteral("Demo: share of first attempts that fail transiently (default 5)."),
              QStringLiteral("p")),
          QCommandLineOption(QStringLiteral("X"), QStringLiteral("librdkafka consumer property, repeatable."),
                             QStringLiteral("name=value")),
          QCommandLineOption(QStringLiteral("quiet"), QStringLiteral("Only errors on stderr."))},
         runConsume,
         {}}};
}

} // namespace outbox::cli
