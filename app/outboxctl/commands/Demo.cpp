#include "app/outboxctl/Signals.h"
#include "app/outboxctl/commands/Commands.h"
#include "core/broker/BrokerRegistry.h"
#include "core/consumer/ConsumerRunner.h"
#include "core/db/DatabaseTarget.h"
#include "core/db/Migrator.h"
#include "core/demo/InventoryService.h"
#include "core/demo/OrderSimulator.h"
#include "core/metrics/MetricsQuery.h"
#include "core/relay/RelayRunner.h"
#include "core/support/CommandLine.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <algorithm>

namespace outbox::cli {

using demo::InventoryService;
using demo::OrderSimulator;

namespace {

constexpr int DemoMaxMessageBytes = 100000;

int runDemo(Context& ctx)
{
    bool ok = true;
    const int rate =
        ctx.parser.isSet(QStringLiteral("rate")) ? ctx.parser.value(QStringLiteral("rate")).toInt(&ok) : 50;
    if (!ok || rate < 1 || rate > 20000)
        return ctx.usage(QStringLiteral("--rate must be between 1 and 20000 orders per second"));
    const int duration = ctx.parser.isSet(QStringLiteral("duration"))
                             ? ctx.parser.value(QStringLiteral("duration")).toInt(&ok)
                             : 0;
    if (!ok || duration < 0)
        return ctx.usage(QStringLiteral("--duration must be a number of seconds"));
    const bool writersSet = ctx.parser.isSet(QStringLiteral("writers"));
    const int writersAsked = writersSet ? ctx.parser.value(QStringLiteral("writers")).toInt(&ok) : 0;
    if (writersSet && (!ok || writersAsked < 1 || writersAsked > OrderSimulator::MaxWriters))
        return ctx.usage(
            QStringLiteral("--writers must be between 1 and %1 connections").arg(OrderSimulator::MaxWriters));

    // The configured database (or --member's), else a SQLite file in the current directory.
    const QString demoFile = QDir::current().absoluteFilePath(QStringLiteral("outbox-demo.db"));
    auto target = ctx.config().value(QStringLiteral("database.url")).isEmpty()
                      ? DatabaseTarget::fromConfig(ctx.config(), QStringLiteral("sqlite://") + demoFile,
                                                   ctx.config().tablePrefix())
                      : ctx.target();
    if (!target)
        return ctx.fail(target.error());
    const DatabaseUrl* url = &target->url();
    const QString tablePrefix = target->tablePrefix();
    const int writers = OrderSimulator::writersFor(*url, writersAsked);
    QString connection; // the demo's database on the command lines it suggests
    for (const QString& argument : target->outboxctlArguments())
        connection += QLatin1Char(' ') + CommandLine::shellQuote(argument);
    {
        auto db = target->open(QStringLiteral("demo"));
        if (!db)
            return ctx.fail(db.error());
        auto migrated = Migrator(**db).migrate();
        if (!migrated)
            return ctx.fail(migrated.error());
        if (Status prepared = InventoryService::prepare(**db); !prepared)
            return ctx.fail(prepared.error());
    }

    // The broker: the embedded Kafka broker, or the RabbitMQ that --broker amqp://… names.
    auto configured = BrokerRegistry::fromConfig(ctx.config());
    if (!configured)
        return ctx.fail(configured.error());
    const QString restricted = QStringLiteral("order-audit-restricted");
    auto prepared = (*configured)
                        ->prepareDemo(QStringLiteral("order"), 6, restricted,
                                      InventoryService::defaultConsumerName(), DemoMaxMessageBytes);
    if (!prepared)
        return ctx.fail(prepared.error());
    BrokerDemo demo = std::move(prepared).value();

    RelayOptions options;
    options.broker = demo.broker->clone();
    options.workerId = QStringLiteral("demo-relay");
    options.batchSize = 200;
    options.maxAttempts = 5;
    options.backoffBaseMs = 200;
    options.backoffCapMs = 5000;
    options.retentionMs = 0;

    ctx.out << "Outbox Console demo\n"
            << "  database        " << url->redacted()
            << (tablePrefix.isEmpty() ? QString() : QStringLiteral(" (tables %1*)").arg(tablePrefix)) << "\n"
            << demo.where << "  order service   " << rate << " orders/s on " << writers
            << " connection(s), one transaction per order;\n"
            << demo.refusals
            << "  inventory       consumer \"inventory\" reserves stock through the inbox; every 53rd order "
               "names an\n"
            << "                  unknown SKU (a dead letter), about 5% of first attempts fail transiently "
               "(retried)\n"
            << "look at it with:\n"
            << "  outboxctl status" << connection << "\n"
            << "  outboxctl events list" << connection << " --status FAILED\n"
            << "  outboxctl dlq list" << connection << "\n"
            << "  outboxctl reconcile" << connection << " --consumer inventory --older-than 1m\n"
            << demo.look << "Ctrl-C stops the demo (the database stays for the next run).\n"
            << Qt::endl;

    std::atomic<bool>& stop = installStopSignals();
    OrderSimulator simulator(*target, rate, restricted, DemoMaxMessageBytes + 50000, writers);
    simulator.start();
    InboxConsumerStats consumerStats;
    ConsumerOptions consumerOptions;
    consumerOptions.consumerName = InventoryService::defaultConsumerName();
    consumerOptions.broker = demo.broker->clone();
    consumerOptions.topics = {QStringLiteral("order")};
    consumerOptions.maxAttempts = 4;
    consumerOptions.backoffBaseMs = 100;
    consumerOptions.backoffCapMs = 1000;
    const InventoryService inventory(5);
    ConsumerRunner consumer(
        *target, consumerOptions,
        [inventory](Database& d, const InboxMessage& m) { return inventory.handle(d, m); }, consumerStats);
    consumer.setBatchHandler([inventory](Database& d, const QVector<const InboxMessage*>& ms) {
        return inventory.handleBatch(d, ms);
    });
    consumer.start();
    QElapsedTimer clock;
    clock.start();
    QElapsedTimer sinceReport;
    sinceReport.start();
    qint64 lastSent = 0;
    auto observer = target->open(QStringLiteral("demo-observer"));
    std::atomic<bool> finished{false};
    qint64 failuresReported = 0;
    // The order service's errors, as they happen (at most one line per progress tick).
    auto reportOrderErrors = [&] {
        const qint64 failures = simulator.failures();
        if (failures == failuresReported)
            return;
        ctx.err << "order service: " << failures - failuresReported
                << " order(s) not written; last error: " << simulator.lastError() << Qt::endl;
        failuresReported = failures;
    };
    RelayRunner runner(*target, options, 1);
    Status s = runner.run(finished, {}, [&] {
        if (stop.load() || (duration > 0 && clock.elapsed() >= qint64(duration) * 1000))
            finished = true;
        if (sinceReport.elapsed() < 2000)
            return;
        reportOrderErrors();
        // The console's counts (index-shaped, SENT estimated once the table is large),
        // not a GROUP BY over the whole table every tick.
        QString counts;
        if (observer) {
            auto c = MetricsQuery(**observer).counts();
            if (c)
                for (auto it = c->events.cbegin(); it != c->events.cend(); ++it)
                    counts += QStringLiteral("%1 %2%3  ")
                                  .arg(it.key(), c->sentIsEstimate && it.key() == QLatin1String("SENT")
                                                     ? QStringLiteral("~")
                                                     : QString())
                                  .arg(it.value());
        }
        // The inventory's lag: events the relay delivered that the consumer has not finished yet.
        const qint64 lag =
            std::max<qint64>(0, runner.totals()->sent.load() - consumerStats.processed.load() -
                                    consumerStats.duplicates.load() - consumerStats.deadLettered.load());
        ctx.out << QStringLiteral("[%1s] orders %2 | %3| relay %4 | inventory %5 lag %6")
                       .arg(clock.elapsed() / 1000, 4)
                       .arg(simulator.orders())
                       .arg(counts, relayProgressLine(*runner.totals(), lastSent, sinceReport.elapsed()),
                            consumerProgressLine(consumerStats))
                       .arg(lag)
                << Qt::endl;
        lastSent = runner.totals()->sent.load();
        sinceReport.restart();
    });
    simulator.requestStop();
    simulator.wait();
    consumer.stop();
    if (!consumer.error().isEmpty())
        ctx.err << "inventory service: " << consumer.error() << Qt::endl;
    if (!s)
        return ctx.fail(s.error());
    reportOrderErrors();
    ctx.out << "demo stopped after " << clock.elapsed() / 1000 << " s: " << simulator.orders() << " orders, "
            << relayProgressLine(*runner.totals(), 0, 0) << "; inventory "
            << consumerProgressLine(consumerStats) << Qt::endl;
    return Ok;
}

} // namespace

Command demoCommand()
{
    return {
        QStringLiteral("demo"),
        QStringLiteral("End-to-end demo: SQLite + embedded Kafka (or --broker amqp://…) + order service + "
                       "relay."),
        QString(),
        {QCommandLineOption(QStringLiteral("rate"), QStringLiteral("Orders per second (default 50)."),
                            QStringLiteral("n")),
         QCommandLineOption(QStringLiteral("writers"),
                            QStringLiteral("Order-writer connections (default: 1 on SQLite, %1 on "
                                           "PostgreSQL and MariaDB).")
                                .arg(OrderSimulator::DefaultServerWriters),
                            QStringLiteral("n")),
         QCommandLineOption(QStringLiteral("duration"),
                            QStringLiteral("Stop after this many seconds (default: until Ctrl-C)."),
                            QStringLiteral("s"))},
        withoutPositionals(QStringLiteral("demo"), runDemo),
        {},
        {QStringLiteral("broker.url"), QStringLiteral("amqp.*")}};
}

} // namespace outbox::cli
