#include "app/outboxctl/Signals.h"
#include "app/outboxctl/commands/Commands.h"
#include "core/consumer/ConsumerRunner.h"
#include "core/demo/InventoryService.h"
#include "core/support/TerminalText.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QThread>
#include <cstdio>

namespace outbox::cli {

namespace {

int runConsume(Context& ctx)
{
    if (!ctx.parser.isSet(QStringLiteral("demo-inventory")))
        return ctx.usage(QStringLiteral(
            "consume needs a handler: --demo-inventory (the demo inventory service) is the built-in one"));
    auto options = ConsumerOptions::fromConfig(ctx.config());
    if (!options)
        return ctx.fail(options.error());
    if (options->consumerName.isEmpty())
        options->consumerName = demo::InventoryService::defaultConsumerName();
    int transient = 5;
    if (ctx.parser.isSet(QStringLiteral("transient-percent"))) {
        bool ok = false;
        transient = ctx.parser.value(QStringLiteral("transient-percent")).toInt(&ok);
        if (!ok || transient < 0 || transient > 100)
            return ctx.usage(QStringLiteral("--transient-percent must be a number between 0 and 100"));
    }
    if (Status s = options->validate(); !s)
        return ctx.fail(s.error());

    auto db = ctx.openMigratedDatabase();
    if (!db)
        return ctx.fail(db.error());
    if (Status s = demo::InventoryService::prepare(**db); !s)
        return ctx.fail(s.error());
    db->reset();
    auto target = ctx.target();
    if (!target)
        return ctx.fail(target.error());
    const DatabaseUrl& url = target->url();

    std::atomic<bool>& stop = installStopSignals();
    const bool verbose = !ctx.parser.isSet(QStringLiteral("quiet"));
    const demo::InventoryService inventory(transient);
    InboxConsumerStats stats;
    ConsumerRunner::Logger log;
    if (verbose)
        log = [name = options->consumerName](const QString& line) {
            std::fprintf(stderr, "%s consumer %s: %s\n",
                         qPrintable(QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)),
                         qPrintable(TerminalText::escape(name)), qPrintable(TerminalText::escape(line)));
        };
    ConsumerRunner runner(
        *target, *options, [inventory](Database& d, const InboxMessage& m) { return inventory.handle(d, m); },
        stats, log);
    runner.setBatchHandler([inventory](Database& d, const QVector<const InboxMessage*>& ms) {
        return inventory.handleBatch(d, ms);
    });
    if (verbose)
        ctx.err << "outboxctl consume: inventory service as consumer \"" << options->consumerName << "\", "
                << url.redacted()
                << (target->tablePrefix().isEmpty()
                        ? QString()
                        : QStringLiteral(" (tables %1*)").arg(target->tablePrefix()))
                << " <- " << options->sourceText() << Qt::endl;
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

Command consumeCommand()
{
    return {QStringLiteral("consume"),
            QStringLiteral("Consume events through the inbox (idempotent, dead letters): --demo-inventory."),
            QString(),
            {QCommandLineOption(
                 QStringLiteral("demo-inventory"),
                 QStringLiteral("Run the demo inventory service (reserves stock for OrderCreated).")),
             QCommandLineOption(
                 QStringLiteral("transient-percent"),
                 QStringLiteral("Demo: share of first attempts that fail transiently (default 5)."),
                 QStringLiteral("p")),
             QCommandLineOption(QStringLiteral("quiet"), QStringLiteral("Only errors on stderr."))},
            withoutPositionals(QStringLiteral("consume"), runConsume),
            {},
            {QStringLiteral("broker.url"), QStringLiteral("kafka.bootstrap"), QStringLiteral("-X"),
             QStringLiteral("amqp.*"), QStringLiteral("consumer.*")}};
}

} // namespace outbox::cli
