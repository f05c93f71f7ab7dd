#include "app/outboxctl/Signals.h"
#include "app/outboxctl/Systemd.h"
#include "app/outboxctl/commands/Commands.h"
#include "core/relay/RelayLogText.h"
#include "core/relay/RelayRunner.h"
#include "core/support/TerminalText.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QThread>
#include <cstdio>

namespace outbox::cli {

namespace {

int runRelay(Context& ctx)
{
    auto options = RelayOptions::fromConfig(ctx.config());
    if (!options)
        return ctx.fail(options.error());
    const int workers = int(ctx.config().integer(QStringLiteral("relay.workers")));
    if (Status s = options->validate(); !s)
        return ctx.fail(s.error());
    auto db = ctx.openMigratedDatabase(); // fail fast on a bad URL, an unreachable database or no schema
    if (!db)
        return ctx.fail(db.error());
    db->reset();
    auto target = ctx.target();
    if (!target)
        return ctx.fail(target.error());
    const DatabaseUrl& url = target->url();

    std::atomic<bool>& stop = installStopSignals();
    const bool verbose = !ctx.parser.isSet(QStringLiteral("quiet"));
    if (verbose)
        ctx.err << systemd::prefix(systemd::Priority::Notice) << "outboxctl relay: "
                << (target->tablePrefix().isEmpty()
                        ? RelayLogText::english(RelayLogText::Starting)
                              .arg(QString::number(workers), url.redacted(), options->brokerText())
                        : RelayLogText::english(RelayLogText::StartingTables)
                              .arg(QString::number(workers), url.redacted(), target->tablePrefix(),
                                   options->brokerText()))
                << Qt::endl;
    qint64 lastSent = 0;
    QElapsedTimer sinceReport;
    sinceReport.start();
    RelayRunner runner(*target, *options, workers);
    RelayRunner::Logger log;
    if (verbose)
        log = [](const QString& worker, const QString& line) {
            // Journal priorities when stderr is the journal: state changes notice, errors err.
            std::fprintf(stderr, "%s%s relay %s: %s\n",
                         systemd::prefix(systemd::relayLinePriority(line)).constData(),
                         qPrintable(QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)),
                         qPrintable(TerminalText::escape(worker)), qPrintable(TerminalText::escape(line)));
        };
    systemd::Watchdog watchdog;
    Status s = runner.run(stop, log, [&] {
        // systemd: ready once every worker runs, pings while they do, STOPPING when the drain begins.
        if (stop.load())
            systemd::notifyStopping(QStringLiteral("draining"));
        else if (runner.allRunning())
            systemd::notifyReady(QStringLiteral("%1 worker(s) running").arg(workers));
        watchdog.ping();
        if (verbose && sinceReport.elapsed() >= 5000) {
            const auto totals = runner.totals();
            const QString progress = relayProgressLine(*totals, lastSent, sinceReport.elapsed());
            ctx.err << "outboxctl relay: " << progress << Qt::endl;
            systemd::notifyStatus(progress);
            lastSent = totals->sent.load();
            sinceReport.restart();
        }
    });
    if (!s)
        return ctx.fail(s.error());
    if (verbose)
        ctx.err << systemd::prefix(systemd::Priority::Notice) << "outboxctl relay: "
                << RelayLogText::english(RelayLogText::Stopped).arg(relayProgressLine(*runner.totals(), 0, 0))
                << Qt::endl;
    return Ok;
}

} // namespace

Command relayCommand()
{
    return {QStringLiteral("relay"),
            QStringLiteral("Deliver PENDING events to Kafka or RabbitMQ (leases, fencing, retries)."),
            QString(),
            {QCommandLineOption(QStringLiteral("quiet"), QStringLiteral("Only errors on stderr."))},
            withoutPositionals(QStringLiteral("relay"), runRelay),
            {},
            {QStringLiteral("broker.url"), QStringLiteral("kafka.bootstrap"), QStringLiteral("-X"),
             QStringLiteral("amqp.*"), QStringLiteral("relay.*")}};
}

} // namespace outbox::cli
