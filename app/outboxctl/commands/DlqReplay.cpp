#include "app/outboxctl/BulkAction.h"
#include "app/outboxctl/Filters.h"
#include "app/outboxctl/commands/Dlq.h"
#include "core/relay/DeadLetterReplayer.h"
#include "core/relay/RelayOptions.h"
#include "core/support/TerminalText.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QSysInfo>
#include <QThread>

namespace outbox::cli {

namespace {

// How long `dlq replay --deliver` waits for dead letters leased by another replayer.
constexpr qint64 MaxLeaseWaitMs = 120000;

// `dlq replay --deliver`: produces the REPLAYING dead letters of `token` (all of them when empty)
// and marks them REPLAYED, without a running relay.
int deliverReplays(Context& ctx, const QString& token, const ActionResult* action)
{
    // The relay's publisher (Kafka or RabbitMQ, [broker] url), with its confirms.
    auto relayOptions = RelayOptions::fromConfig(ctx.config());
    if (!relayOptions)
        return ctx.fail(relayOptions.error());
    if (relayOptions->broker->address().isEmpty())
        return ctx.usage(QStringLiteral("--deliver needs a broker: --broker kafka://host:port or "
                                        "amqp://user@host:5672/vhost (or --kafka-bootstrap host:port)"));
    auto db = ctx.openMigratedDatabase();
    if (!db)
        return ctx.fail(db.error());
    relayOptions->broker->setClientId(QStringLiteral("outboxctl-dlq-replay"));
    auto publisher = relayOptions->publisher();
    if (!publisher)
        return ctx.fail(publisher.error());
    if (Status reachable = (*publisher)->probe(5000); !reachable)
        return ctx.fail(reachable.error());
    ReplayOptions replayOptions;
    replayOptions.workerId = QStringLiteral("outboxctl-%1-%2")
                                 .arg(QSysInfo::machineHostName())
                                 .arg(QCoreApplication::applicationPid());
    replayOptions.ignoreBackoff = true; // the operator asks for it now
    const qint64 timeoutMs = relayOptions->deliveryDeadlineMs();
    DeadLetterReplayer replayer(**db, **publisher, replayOptions, [&ctx](const QString& line) {
        if (!ctx.json())
            ctx.err << TerminalText::escape(line) << Qt::endl;
    });
    ReplayRound total;
    int stillLeased = 0;
    QElapsedTimer sinceProgress;
    sinceProgress.start();
    bool announcedWait = false;
    while (true) {
        auto round = replayer.deliver(500, timeoutMs, token);
        if (!round)
            return ctx.fail(round.error());
        total.delivered += round->delivered;
        total.fenced += round->fenced;
        total.failed += round->failed;
        total.gaveUp += round->gaveUp;
        if (!round->lastError.isEmpty())
            total.lastError = round->lastError;
        if (round->failed > 0)
            break;
        if (round->claimed > 0) {
            sinceProgress.restart();
            continue;
        }
        // Nothing to claim: what is still REPLAYING is leased by another replayer, a running relay
        // or one that crashed and whose lease must expire first. Wait for it, within bounds.
        auto left = DeadLetterStore(**db).countReplaying(token);
        if (!left)
            return ctx.fail(left.error());
        stillLeased = *left;
        if (stillLeased == 0 || sinceProgress.elapsed() > MaxLeaseWaitMs)
            break;
        if (!announcedWait && !ctx.json())
            ctx.err << stillLeased << " dead letter(s) are leased by another replayer; waiting up to "
                    << MaxLeaseWaitMs / 1000 << " s for it to finish or for the lease to expire" << Qt::endl;
        announcedWait = true;
        QThread::msleep(500);
    }
    if (ctx.json()) {
        QJsonObject o{{QStringLiteral("delivered"), total.delivered},
                      {QStringLiteral("fenced"), total.fenced},
                      {QStringLiteral("failed"), total.failed},
                      {QStringLiteral("gave_up"), total.gaveUp},
                      {QStringLiteral("still_leased"), stillLeased}};
        if (action)
            o.insert(QStringLiteral("action"), action->toJson());
        ctx.printJson(o);
    } else {
        ctx.out << "delivered " << total.delivered << " dead letter(s) and marked them REPLAYED";
        if (total.fenced > 0)
            ctx.out << "; " << total.fenced << " were finished elsewhere meanwhile";
        ctx.out << "\n";
    }
    if (total.gaveUp > 0)
        return ctx.fail(Error::runtime(
            QStringLiteral(
                "%1 dead letter(s) could not be replayed (%2) and are NEW again, with the reason in "
                "replay_error: discard them, or fix the cause and replay them again")
                .arg(total.gaveUp)
                .arg(total.lastError)));
    if (total.failed > 0)
        return ctx.fail(Error::runtime(
            QStringLiteral("%1 dead letter(s) not delivered (%2); they stay REPLAYING and a running relay or "
                           "`outboxctl dlq replay --deliver` retries them")
                .arg(total.failed)
                .arg(total.lastError)));
    if (stillLeased > 0)
        return ctx.fail(Error::runtime(
            QStringLiteral("%1 dead letter(s) are still leased by another replayer (a running relay delivers "
                           "them, or a crashed one's lease has not expired yet); try again later")
                .arg(stillLeased)));
    return Ok;
}

int runDlqReplay(Context& ctx)
{
    if (!ctx.parser.isSet(QStringLiteral("deliver")))
        return runDlqAction(ctx, ActionKind::ReplayDeadLetters);
    if (ctx.parser.isSet(QStringLiteral("dry-run")))
        return ctx.usage(QStringLiteral("--deliver and --dry-run exclude each other"));
    // No ids and no filter: deliver what is already REPLAYING (e.g. left behind by a crash).
    if (ctx.positionals.isEmpty() && !anySet(ctx.parser, deadLetterFilterOptions()) &&
        !ctx.parser.isSet(QStringLiteral("group")))
        return deliverReplays(ctx, QString(), nullptr);
    return runDlqAction(ctx, ActionKind::ReplayDeadLetters,
                        [&ctx](const ActionResult& r) { return deliverReplays(ctx, r.replayToken, &r); });
}

} // namespace

Subcommand dlqReplay()
{
    return {
        QStringLiteral("replay"),
        {QCommandLineOption(QStringLiteral("force"),
                            QStringLiteral("replay: also REPLAYED or DISCARDED dead letters.")),
         QCommandLineOption(QStringLiteral("to-topic"),
                            QStringLiteral("replay: produce to this topic instead of the original."),
                            QStringLiteral("topic")),
         QCommandLineOption(
             QStringLiteral("deliver"),
             QStringLiteral("replay: produce the dead letters now and mark them REPLAYED (no relay needed); "
                            "without ids or a filter: deliver everything already REPLAYING."))},
        runDlqReplay};
}

} // namespace outbox::cli
