#include "app/outboxctl/Cli.h"
#include "app/outboxctl/Signals.h"
#include "core/db/DeadLetterGroups.h"
#include "core/db/DeadLetterStore.h"
#include "core/db/EventStatus.h"
#include "core/ops/BulkActionEngine.h"
#include "core/ops/DeadLetterEditor.h"
#include "core/relay/DeadLetterReplayer.h"
#include "core/support/TerminalText.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSysInfo>
#include <QThread>
#include <atomic>
#include <cstdio>
#include <functional>
#include <unistd.h>

namespace outbox::cli {

Result<EventFilter> eventFilterFromOptions(const QCommandLineParser& p);
QList<QCommandLineOption> eventFilterOptions();

namespace {

// How long `dlq replay --deliver` waits for dead letters leased by another replayer.
constexpr qint64 MaxLeaseWaitMs = 120000;

QList<QCommandLineOption> actionOptions()
{
    return {
        QCommandLineOption(QStringLiteral("reason"), QStringLiteral("Why (required; kept in the audit log)."),
                           QStringLiteral("text")),
        QCommandLineOption(QStringLiteral("dry-run"),
                           QStringLiteral("Show what would change: count and a sample.")),
    };
}

Result<DeadLetterFilter> deadLetterFilterFromOptions(const QCommandLineParser& p)
{
    DeadLetterFilter f;
    for (const QString& value : p.values(QStringLiteral("status"))) {
        for (const QString& s : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            auto status = DeadLetterStatus::parse(s);
            if (!status)
                return status.error();
            f.statuses << *status;
        }
    }
    f.consumerName = p.value(QStringLiteral("consumer"));
    f.topic = p.value(QStringLiteral("topic"));
    f.eventId = p.value(QStringLiteral("event-id"));
    f.errorText = p.value(QStringLiteral("error"));
    return f;
}

QList<QCommandLineOption> deadLetterFilterOptions()
{
    return {
        QCommandLineOption(QStringLiteral("status"), QStringLiteral("NEW, REPLAYING, REPLAYED or DISCARDED."),
                           QStringLiteral("status")),
        QCommandLineOption(QStringLiteral("consumer"), QStringLiteral("Consumer name."),
                           QStringLiteral("name")),
        QCommandLineOption(QStringLiteral("topic"), QStringLiteral("Original topic."),
                           QStringLiteral("topic")),
        QCommandLineOption(QStringLiteral("event-id"), QStringLiteral("Event id."), QStringLiteral("id")),
        QCommandLineOption(QStringLiteral("error"), QStringLiteral("Text contained in the error."),
                           QStringLiteral("text")),
    };
}

// Exit code of a bulk action stopped by Ctrl-C (128 + SIGINT, as shells report it).
constexpr int CancelledExit = 130;

// The command line's hint for a request core refuses: which flag to change.
QString cliHint(ActionKind kind, ActionInput input)
{
    switch (input) {
    case ActionInput::Reason:
        return QStringLiteral("--reason");
    case ActionInput::Actor:
        return QStringLiteral("--actor or OUTBOX_ACTOR");
    case ActionInput::Filter:
        return isEventAction(kind) ? QStringLiteral("e.g. --status FAILED")
                                   : QStringLiteral("e.g. --status NEW or --consumer NAME");
    case ActionInput::Targets:
        return isEventAction(kind) ? QStringLiteral("IDS, --group, or filter options such as --status FAILED")
                                   : QStringLiteral("IDS, or filter options such as --consumer NAME");
    case ActionInput::ReplayTopic:
        return QStringLiteral("--to-topic");
    case ActionInput::Group:
        return QStringLiteral("--group FINGERPRINT [--group-class CLASS]");
    case ActionInput::Ids:
    case ActionInput::SampleSize:
    case ActionInput::ChunkSize:
        break;
    }
    return {};
}

void printSample(Context& ctx, const ActionResult& r)
{
    ctx.out << "sample:\n";
    for (const QJsonValue& v : r.sample) {
        const QJsonObject o = v.toObject();
        QString line = QStringLiteral("  #%1 %2")
                           .arg(o.value(QStringLiteral("id")).toInteger())
                           .arg(o.value(QStringLiteral("status")).toString());
        if (o.contains(QStringLiteral("event_type")))
            line += QLatin1Char(' ') + o.value(QStringLiteral("event_type")).toString() + QLatin1Char(' ') +
                    o.value(QStringLiteral("aggregate_id")).toString();
        else
            line += QLatin1Char(' ') + o.value(QStringLiteral("consumer_name")).toString() +
                    QLatin1Char(' ') + o.value(QStringLiteral("topic")).toString();
        const QString error = o.value(o.contains(QStringLiteral("last_error")) ? QStringLiteral("last_error")
                                                                               : QStringLiteral("error"))
                                  .toString();
        if (!error.isEmpty())
            line += QStringLiteral("  ") + error.left(60);
        ctx.out << TerminalText::escape(line) << "\n";
    }
}

// In ordering mode, what unblocking means for the later events of each aggregate.
void printConsequences(Context& ctx, const ActionResult& r, QTextStream* to = nullptr)
{
    QTextStream& out = to ? *to : ctx.out;
    if (r.consequences.isEmpty())
        return;
    out << "ordering:\n";
    for (const QString& line : r.consequences.mid(0, 20))
        out << "  " << line << "\n";
    if (r.consequences.size() > 20)
        out << "  … and " << (r.consequences.size() - 20)
            << " more aggregates (--dry-run --json lists them)\n";
}

void printResult(Context& ctx, const ActionResult& r, const QString& noun)
{
    if (ctx.json()) {
        ctx.printJson(r.toJson());
        return;
    }
    if (r.dryRun) {
        ctx.out << "dry run: " << r.matched << " " << noun << " would change (" << r.action << ")";
        if (r.matched > BulkActionEngine::MaxChunkSize)
            ctx.out << " in chunks of " << BulkActionEngine::MaxChunkSize
                    << ", each its own audited transaction";
        ctx.out << "\n";
    } else {
        ctx.out << r.affected << " of " << r.expected << " " << noun << " changed (" << r.action;
        if (r.auditIds.size() == 1)
            ctx.out << ", audit #" << r.auditId;
        else if (r.auditIds.size() > 1)
            ctx.out << ", " << r.chunks << " chunks, audit #" << r.auditIds.first() << "..#"
                    << r.auditIds.last();
        ctx.out << ")\n";
        if (r.conflictCount > 0)
            ctx.out << "  conflicts: " << r.conflictCount
                    << " row(s) were not in an eligible state when locked\n";
    }
    for (auto it = r.skipped.cbegin(); it != r.skipped.cend(); ++it)
        ctx.out << "  skipped " << it.value() << " " << it.key() << "\n";
    for (const ActionConflict& c : r.conflicts.mid(0, 50)) {
        ctx.out << "  not changed: #" << c.id << " " << TerminalText::escape(c.reason);
        // Core names the state; the flag that would take it is the command line's business.
        if (r.action == QLatin1String("events.requeue") && c.status == QLatin1String("SENDING"))
            ctx.out << " (--force takes a live lease)";
        else if (r.action == QLatin1String("events.requeue") && c.status == QLatin1String("SENT"))
            ctx.out << " (--resend takes SENT)";
        else if (r.action == QLatin1String("dlq.replay") &&
                 (c.status == QLatin1String("REPLAYED") || c.status == QLatin1String("DISCARDED")))
            ctx.out << " (--force takes it)";
        ctx.out << "\n";
    }
    if (r.conflicts.size() > 50)
        ctx.out << "  … and " << (r.conflictCount - 50) << " more (--json lists up to "
                << ActionResult::MaxConflictDetails << ")\n";
    if (r.dryRun)
        printConsequences(ctx, r);
    if (r.dryRun && !r.sample.isEmpty())
        printSample(ctx, r);
    if (!r.replayToken.isEmpty() && !r.dryRun)
        ctx.out << "replay token " << r.replayToken
                << ": a running relay delivers the REPLAYING dead letters\n";
}

// A progress bar on stderr, drawn only when stderr is a terminal.
class ProgressBar
{
public:
    explicit ProgressBar(Context& ctx) : m_ctx(ctx), m_enabled(isatty(STDERR_FILENO)) {}

    void update(const BulkProgress& p)
    {
        if (!m_enabled)
            return;
        constexpr int Width = 30;
        const qint64 total = std::max(p.expected, p.processed);
        const int filled = total > 0 ? int(Width * p.processed / total) : Width;
        m_ctx.err << "\r[" << QString(filled, QLatin1Char('#')) << QString(Width - filled, QLatin1Char('.'))
                  << "] " << p.processed << "/" << total << " rows, chunk " << p.chunks << ", " << p.affected
                  << " changed, " << p.conflicts << " conflict(s)" << Qt::flush;
        m_drawn = true;
    }
    void end()
    {
        if (m_drawn)
            m_ctx.err << "\n" << Qt::flush;
        m_drawn = false;
    }

private:
    Context& m_ctx;
    bool m_enabled;
    bool m_drawn = false;
};

// Shared by requeue, dead, dlq discard and dlq replay: dry run first, confirm, then the bulk
// engine in audited chunks with progress and Ctrl-C between chunks; `then` runs after a
// successful (non-dry, not cancelled) action.
int runAction(Context& ctx, ActionRequest request, ActionKind kind, const QString& verb, const QString& noun,
              const std::function<int(const ActionResult&)>& then = {})
{
    ActionInput input = ActionInput::Targets;
    if (Status s = BulkActionEngine::validate(kind, request, &input); !s) {
        const QString hint = cliHint(kind, input);
        return ctx.fail(Error{
            s.error().kind, hint.isEmpty() ? s.message() : QStringLiteral("%1 (%2)").arg(s.message(), hint)});
    }
    auto db = ctx.openMigratedDatabase();
    if (!db)
        return ctx.fail(db.error());
    BulkActionEngine engine(**db);
    if (request.dryRun) {
        auto preview = engine.preview(kind, request);
        if (!preview)
            return ctx.fail(preview.error());
        printResult(ctx, *preview, noun);
        return Ok;
    }
    if (!ctx.assumeYes()) {
        auto preview = engine.preview(kind, request);
        if (!preview)
            return ctx.fail(preview.error());
        if (preview->matched == 0) {
            printResult(ctx, *preview, noun);
            return Ok;
        }
        if (!isatty(STDIN_FILENO))
            return ctx.usage(
                QStringLiteral(
                    "refusing to %1 %2 %3 without confirmation: pass --yes, or --dry-run to preview")
                    .arg(verb)
                    .arg(preview->matched)
                    .arg(noun));
        printConsequences(ctx, *preview, &ctx.err);
        ctx.err << verb << " " << preview->matched << " " << noun;
        if (preview->matched > BulkActionEngine::MaxChunkSize)
            ctx.err << " in chunks of " << BulkActionEngine::MaxChunkSize << " (Ctrl-C stops between chunks)";
        ctx.err << "? Type yes to confirm: " << Qt::flush;
        char answer[16] = {};
        if (!std::fgets(answer, sizeof answer, stdin) || QByteArray(answer).trimmed() != "yes")
            return ctx.usage(QStringLiteral("not confirmed; nothing changed"));
    }

    // From here Ctrl-C (or SIGTERM) asks the engine to stop before its next chunk; a second one
    // exits at once (the chunk under way then rolls back).
    std::atomic<bool>& stop = installStopSignals();
    ProgressBar bar(ctx);
    BulkProgress last;
    BulkControl control;
    control.progress = [&](const BulkProgress& p) {
        last = p;
        bar.update(p);
    };
    control.cancelRequested = [&stop]() { return stop.load(); };
    auto result = engine.run(kind, request, control);
    bar.end();
    if (!result) {
        if (last.chunks > 0)
            ctx.err << "outboxctl: stopped after " << last.chunks << " committed chunk(s) (" << last.affected
                    << " " << noun << " changed, up to id " << last.lastId << ")" << Qt::endl;
        return ctx.fail(result.error());
    }
    if (result->cancelled) {
        if (ctx.json())
            ctx.printJson(result->toJson());
        else
            printResult(ctx, *result, noun);
        ctx.err << "outboxctl: cancelled after " << result->chunks << " chunk(s): " << result->affected
                << " of " << result->expected << " " << noun << " changed"
                << (result->lastId > 0 ? QStringLiteral(" (up to id %1)").arg(result->lastId) : QString())
                << ", " << result->conflictCount
                << " conflict(s); the rest is untouched — run the same command again to continue" << Qt::endl;
        return CancelledExit;
    }
    if (then && ctx.json())
        return then(*result); // one JSON document: the delivery report carries the action's outcome
    printResult(ctx, *result, noun);
    return then ? then(*result) : int(Ok);
}

// `dlq replay --deliver`: produces the REPLAYING dead letters of `token` (all of them when empty)
// and marks them REPLAYED, without a running relay.
int deliverReplays(Context& ctx, const QString& token, const ActionResult* action)
{
    // The relay's publisher (Kafka or RabbitMQ, [broker] url), with its confirms.
    auto relayOptions = ctx.config().relayOptions();
    if (!relayOptions)
        return ctx.fail(relayOptions.error());
    if (relayOptions->broker == BrokerUrl::Kind::Kafka && relayOptions->bootstrap.isEmpty())
        return ctx.usage(QStringLiteral("--deliver needs a broker: --broker kafka://host:port or "
                                        "amqp://user@host:5672/vhost (or --kafka-bootstrap host:port)"));
    auto db = ctx.openMigratedDatabase();
    if (!db)
        return ctx.fail(db.error());
    (void)relayOptions->kafka.set(QStringLiteral("client.id"), QStringLiteral("outboxctl-dlq-replay"));
    auto publisher = Publisher::create(*relayOptions);
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

// Builds the common part of a request; `positionals` are ids.
Result<ActionRequest> baseRequest(Context& ctx)
{
    ActionRequest request;
    auto ids = parseIds(ctx.positionals);
    if (!ids)
        return ids.error();
    request.ids = *ids;
    request.reason = ctx.parser.value(QStringLiteral("reason"));
    request.actor = ctx.actor();
    request.dryRun = ctx.parser.isSet(QStringLiteral("dry-run"));
    return request;
}

bool anySet(const QCommandLineParser& p, const QList<QCommandLineOption>& options)
{
    for (const QCommandLineOption& o : options)
        if (p.isSet(o.names().first()))
            return true;
    return false;
}

int runEventAction(Context& ctx, ActionKind kind, const QString& verb)
{
    auto request = baseRequest(ctx);
    if (!request)
        return ctx.fail(request.error());
    if (anySet(ctx.parser, eventFilterOptions())) {
        auto filter = eventFilterFromOptions(ctx.parser);
        if (!filter)
            return ctx.fail(filter.error());
        request->eventFilter = *filter;
    }
    if (ctx.parser.isSet(QStringLiteral("group")) || ctx.parser.isSet(QStringLiteral("group-class"))) {
        // A failure group as the console lists it: error class and error fingerprint.
        FailureGroup group;
        group.fingerprint = ctx.parser.value(QStringLiteral("group"));
        group.errorClass = ctx.parser.value(QStringLiteral("group-class"));
        request->group = group;
    }
    if (kind == ActionKind::Requeue) { // only requeue has --force and --resend
        request->force = ctx.parser.isSet(QStringLiteral("force"));
        request->resend = ctx.parser.isSet(QStringLiteral("resend"));
    }
    return runAction(ctx, *request, kind, verb, QStringLiteral("event(s)"));
}

int runRequeue(Context& ctx)
{
    return runEventAction(ctx, ActionKind::Requeue, QStringLiteral("requeue"));
}

int runDead(Context& ctx)
{
    return runEventAction(ctx, ActionKind::MarkDead, QStringLiteral("mark DEAD"));
}

int runDlqAction(Context& ctx, ActionKind kind, const QString& verb,
                 const std::function<int(const ActionResult&)>& then = {})
{
    auto request = baseRequest(ctx);
    if (!request)
        return ctx.fail(request.error());
    if (ctx.parser.isSet(QStringLiteral("group")) || ctx.parser.isSet(QStringLiteral("group-class"))) {
        // A dead-letter failure group as `dlq groups` lists it: consumer, error class, fingerprint.
        for (const char* other : {"topic", "event-id", "error"})
            if (ctx.parser.isSet(QLatin1String(other)))
                return ctx.usage(
                    QStringLiteral("--group takes --consumer, --group-class and --status, not --%1")
                        .arg(QLatin1String(other)));
        DeadLetterGroup group;
        group.fingerprint = ctx.parser.value(QStringLiteral("group"));
        group.errorClass = ctx.parser.value(QStringLiteral("group-class"));
        group.consumerName = ctx.parser.value(QStringLiteral("consumer"));
        if (group.consumerName.isEmpty() || group.errorClass.isEmpty())
            return ctx.usage(
                QStringLiteral("a dead-letter group needs --consumer NAME, --group-class CLASS and "
                               "--group FINGERPRINT (as `outboxctl dlq groups` lists them)"));
        for (const QString& value : ctx.parser.values(QStringLiteral("status")))
            for (const QString& status : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                auto parsed = DeadLetterStatus::parse(status);
                if (!parsed)
                    return ctx.fail(parsed.error());
                group.statuses << *parsed;
            }
        request->deadLetterGroup = group;
    } else if (anySet(ctx.parser, deadLetterFilterOptions())) {
        auto filter = deadLetterFilterFromOptions(ctx.parser);
        if (!filter)
            return ctx.fail(filter.error());
        request->deadLetterFilter = *filter;
    }
    request->force = ctx.parser.isSet(QStringLiteral("force"));
    request->replayTopic = ctx.parser.value(QStringLiteral("to-topic"));
    return runAction(ctx, *request, kind, verb, QStringLiteral("dead letter(s)"), then);
}

int runDlqList(Context& ctx)
{
    if (!ctx.positionals.isEmpty())
        return ctx.usage(QStringLiteral("dlq list takes no positional arguments"));
    auto filter = deadLetterFilterFromOptions(ctx.parser);
    if (!filter)
        return ctx.fail(filter.error());
    auto paging = pagingFromOptions(ctx.parser);
    if (!paging)
        return ctx.fail(paging.error());
    auto db = ctx.openMigratedDatabase();
    if (!db)
        return ctx.fail(db.error());
    auto page = DeadLetterStore(**db).list(*filter, paging->afterId, paging->limit);
    if (!page)
        return ctx.fail(page.error());
    if (ctx.json()) {
        QJsonArray letters;
        for (const DeadLetter& l : page->letters)
            letters.append(l.toJson());
        ctx.printJson(QJsonObject{{QStringLiteral("dead_letters"), letters},
                                  {QStringLiteral("next_after_id"),
                                   page->nextAfterId > 0 ? QJsonValue(page->nextAfterId) : QJsonValue()}});
        return Ok;
    }
    // The replay column: where a requested replay stands, or why the last one gave up.
    const auto replayState = [](const DeadLetter& l) -> QString {
        if (l.status == QLatin1String("REPLAYING")) {
            if (l.replayLeaseUntil.isValid() && l.replayLeaseUntil > QDateTime::currentDateTimeUtc())
                return QStringLiteral("try %1 by %2").arg(l.replayAttempts).arg(l.replayWorker);
            if (!l.replayError.isEmpty())
                return QStringLiteral("retry %1 after %2: %3")
                    .arg(l.replayAttempts + 1)
                    .arg(l.replayAvailableAt.toString(QStringLiteral("HH:mm:ss")), l.replayError.left(40));
            return QStringLiteral("waiting for a relay");
        }
        if (!l.replayError.isEmpty())
            return QStringLiteral("failed: %1").arg(l.replayError.left(50));
        return QStringLiteral("-");
    };
    QVector<QStringList> rows;
    for (const DeadLetter& l : page->letters)
        rows << QStringList{QString::number(l.id),
                            l.status,
                            l.consumerName,
                            l.topic,
                            l.eventId,
                            QString::number(l.attempts),
                            l.lastFailedAt.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                            l.error.left(60),
                            replayState(l)};
    ctx.out << table({QStringLiteral("ID"), QStringLiteral("STATUS"), QStringLiteral("CONSUMER"),
                      QStringLiteral("TOPIC"), QStringLiteral("EVENT ID"), QStringLiteral("ATT"),
                      QStringLiteral("LAST FAILED (UTC)"), QStringLiteral("ERROR"), QStringLiteral("REPLAY")},
                     rows);
    if (page->nextAfterId > 0)
        ctx.out << "more: --after-id " << page->nextAfterId << "\n";
    return Ok;
}

int runDlqShow(Context& ctx)
{
    if (ctx.positionals.size() != 1)
        return ctx.usage(QStringLiteral("dlq show takes one ID"));
    auto ids = parseIds(ctx.positionals);
    if (!ids)
        return ctx.fail(ids.error());
    auto db = ctx.openMigratedDatabase();
    if (!db)
        return ctx.fail(db.error());
    auto letter = DeadLetterStore(**db).find(ids->first());
    if (!letter)
        return ctx.fail(letter.error());
    const QJsonObject json = letter->toJson();
    if (ctx.json()) {
        ctx.printJson(json);
        return Ok;
    }
    for (auto it = json.begin(); it != json.end(); ++it) {
        const QString value =
            it->isObject() ? QString::fromUtf8(QJsonDocument(it->toObject()).toJson(QJsonDocument::Compact))
            : it->isNull() ? QStringLiteral("-")
                           : it->toVariant().toString();
        ctx.out << it.key().leftJustified(18) << value << "\n";
    }
    return Ok;
}

int runDlqGroups(Context& ctx)
{
    if (!ctx.positionals.isEmpty())
        return ctx.usage(QStringLiteral("dlq groups takes no positional arguments"));
    QStringList statuses;
    for (const QString& value : ctx.parser.values(QStringLiteral("status")))
        statuses << value.split(QLatin1Char(','), Qt::SkipEmptyParts);
    auto db = ctx.openMigratedDatabase();
    if (!db)
        return ctx.fail(db.error());
    auto groups = DeadLetterGroups(**db).list(statuses);
    if (!groups)
        return ctx.fail(groups.error());
    const QString consumer = ctx.parser.value(QStringLiteral("consumer"));
    QVector<DeadLetterGroup> shown;
    for (const DeadLetterGroup& g : *groups)
        if (consumer.isEmpty() || g.consumerName == consumer)
            shown << g;
    if (ctx.json()) {
        QJsonArray list;
        for (const DeadLetterGroup& g : shown)
            list.append(g.toJson());
        ctx.printJson(QJsonObject{{QStringLiteral("groups"), list}});
        return Ok;
    }
    if (shown.isEmpty()) {
        ctx.out << "no dead-letter groups\n";
        return Ok;
    }
    QVector<QStringList> rows;
    for (const DeadLetterGroup& g : shown)
        rows << QStringList{QString::number(g.count), g.consumerName, g.errorClass, g.fingerprint.left(70),
                            QStringLiteral("#%1").arg(g.firstId)};
    ctx.out << table({QStringLiteral("COUNT"), QStringLiteral("CONSUMER"), QStringLiteral("CLASS"),
                      QStringLiteral("FINGERPRINT"), QStringLiteral("FIRST")},
                     rows);
    ctx.out << "act on a group: outboxctl dlq replay|discard --consumer NAME --group-class CLASS --group "
               "FINGERPRINT --reason TEXT\n";
    return Ok;
}

// Reads a file an operator names, at most `maxBytes` (a larger one is refused, not read).
Result<QByteArray> readBounded(const QString& path, qint64 maxBytes, const QString& flag)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error::usage(QStringLiteral("%1: cannot read %2: %3").arg(flag, path, file.errorString()));
    QByteArray data = file.read(maxBytes + 1);
    if (data.size() > maxBytes)
        return Error::usage(QStringLiteral("%1: %2 is larger than %3 bytes").arg(flag, path).arg(maxBytes));
    return data.isNull() ? QByteArray("") : data;
}

int runDlqEdit(Context& ctx)
{
    if (ctx.positionals.size() != 1)
        return ctx.usage(QStringLiteral("dlq edit takes one ID"));
    auto ids = parseIds(ctx.positionals);
    if (!ids)
        return ctx.fail(ids.error());
    DeadLetterEdit edit;
    if (ctx.parser.isSet(QStringLiteral("payload-file"))) {
        auto payload = readBounded(ctx.parser.value(QStringLiteral("payload-file")),
                                   DeadLetterEditor::MaxPayloadBytes, QStringLiteral("--payload-file"));
        if (!payload)
            return ctx.fail(payload.error());
        edit.payload = *payload;
    }
    if (ctx.parser.isSet(QStringLiteral("headers-file"))) {
        auto text = readBounded(ctx.parser.value(QStringLiteral("headers-file")),
                                qint64(DeadLetterEditor::MaxHeaders) * 2 * DeadLetterEditor::MaxHeaderBytes,
                                QStringLiteral("--headers-file"));
        if (!text)
            return ctx.fail(text.error());
        QJsonParseError error{};
        const QJsonDocument doc = QJsonDocument::fromJson(*text, &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject())
            return ctx.usage(QStringLiteral("--headers-file: expected a JSON object of strings (%1)")
                                 .arg(error.error != QJsonParseError::NoError
                                          ? error.errorString()
                                          : QStringLiteral("not an object")));
        edit.headers = doc.object();
    }
    if (!edit.payload && !edit.headers)
        return ctx.usage(QStringLiteral("dlq edit needs --payload-file FILE, --headers-file FILE or both"));
    edit.reason = ctx.parser.value(QStringLiteral("reason"));
    edit.actor = ctx.actor();
    edit.requireJsonPayload = ctx.parser.isSet(QStringLiteral("json-payload"));
    if (Status s = DeadLetterEditor::validate(edit); !s) {
        const bool reason =
            edit.reason.trimmed().isEmpty() || edit.reason.size() > DeadLetterEditor::MaxReasonLength;
        return ctx.fail(
            Error{s.error().kind, reason ? QStringLiteral("%1 (--reason)").arg(s.message()) : s.message()});
    }
    auto db = ctx.openMigratedDatabase();
    if (!db)
        return ctx.fail(db.error());
    auto current = DeadLetterStore(**db).find(ids->first());
    if (!current)
        return ctx.fail(current.error());
    // The edit is made from the version shown here (or the one --edit-count names, as read by
    // `dlq show`): another operator's edit in between makes it a conflict, nothing changes.
    edit.baseEditCount = current->editCount;
    if (ctx.parser.isSet(QStringLiteral("edit-count"))) {
        bool ok = false;
        const int base = ctx.parser.value(QStringLiteral("edit-count")).toInt(&ok);
        if (!ok || base < 0)
            return ctx.usage(
                QStringLiteral("--edit-count: expected the dead letter's edit count (0 or more)"));
        edit.baseEditCount = base;
    }
    // The same rule as every other change: --yes, or "yes" typed on a terminal.
    if (!ctx.assumeYes()) {
        if (!isatty(STDIN_FILENO))
            return ctx.usage(
                QStringLiteral("refusing to edit dead letter %1 without confirmation: pass --yes")
                    .arg(current->id));
        ctx.err << "edit dead letter #" << current->id << " (at edit " << current->editCount
                << "): replace its " << (edit.payload ? "payload" : "")
                << (edit.payload && edit.headers ? " and " : "") << (edit.headers ? "headers" : "");
        if (edit.payload)
            ctx.err << " (" << current->payload.size() << " bytes -> " << edit.payload->size() << " bytes)";
        ctx.err << "; the original is kept. Type yes to confirm: " << Qt::flush;
        char answer[16] = {};
        if (!std::fgets(answer, sizeof answer, stdin) || QByteArray(answer).trimmed() != "yes")
            return ctx.usage(QStringLiteral("not confirmed; nothing changed"));
    }
    auto result = DeadLetterEditor(**db).edit(ids->first(), edit);
    if (!result)
        return ctx.fail(result.error());
    if (ctx.json()) {
        ctx.printJson(result->toJson());
        return Ok;
    }
    ctx.out << "dead letter #" << result->after.id << " edited (" << (edit.payload ? "payload" : "")
            << (edit.payload && edit.headers ? " and " : "") << (edit.headers ? "headers" : "") << ", edit "
            << result->after.editCount << ", audit #" << result->auditId
            << "); the original is kept; a replay sends the edited message\n";
    return Ok;
}

int runDlq(Context& ctx)
{
    if (ctx.positionals.isEmpty())
        return ctx.usage(
            QStringLiteral("dlq needs a sub-command: list, show, groups, edit, replay or discard"));
    const QString sub = ctx.positionals.takeFirst();
    if (sub == QLatin1String("list"))
        return runDlqList(ctx);
    if (sub == QLatin1String("show"))
        return runDlqShow(ctx);
    if (sub == QLatin1String("groups"))
        return runDlqGroups(ctx);
    if (sub == QLatin1String("edit"))
        return runDlqEdit(ctx);
    if (sub == QLatin1String("discard"))
        return runDlqAction(ctx, ActionKind::DiscardDeadLetters, QStringLiteral("discard"));
    if (sub == QLatin1String("replay")) {
        if (!ctx.parser.isSet(QStringLiteral("deliver")))
            return runDlqAction(ctx, ActionKind::ReplayDeadLetters, QStringLiteral("replay"));
        if (ctx.parser.isSet(QStringLiteral("dry-run")))
            return ctx.usage(QStringLiteral("--deliver and --dry-run exclude each other"));
        // No ids and no filter: deliver what is already REPLAYING (e.g. left behind by a crash).
        if (ctx.positionals.isEmpty() && !anySet(ctx.parser, deadLetterFilterOptions()) &&
            !ctx.parser.isSet(QStringLiteral("group")))
            return deliverReplays(ctx, QString(), nullptr);
        return runDlqAction(ctx, ActionKind::ReplayDeadLetters, QStringLiteral("replay"),
                            [&ctx](const ActionResult& r) { return deliverReplays(ctx, r.replayToken, &r); });
    }
    return ctx.usage(
        QStringLiteral(
            "unknown dlq sub-command \"%1\" (expected list, show, groups, edit, replay or discard)")
            .arg(sub));
}

} // namespace

QList<Command> actionCommands()
{
    QList<QCommandLineOption> eventOptions = eventFilterOptions() + actionOptions();
    eventOptions << QCommandLineOption(QStringLiteral("group"),
                                       QStringLiteral("Every event of the failure group with this error "
                                                      "fingerprint (as the console lists it, e.g. \"schema "
                                                      "check failed for row <n>\")."),
                                       QStringLiteral("fingerprint"))
                 << QCommandLineOption(QStringLiteral("group-class"),
                                       QStringLiteral("The failure group's error class (with --group; "
                                                      "empty for errors without a class)."),
                                       QStringLiteral("class"));
    QList<QCommandLineOption> requeueOptions = eventOptions;
    requeueOptions << QCommandLineOption(
                          QStringLiteral("force"),
                          QStringLiteral("Also take SENDING events whose lease is still live."))
                   << QCommandLineOption(QStringLiteral("resend"),
                                         QStringLiteral("Also requeue SENT events (they are sent again)."));
    QList<QCommandLineOption> dlqOptions = deadLetterFilterOptions() + actionOptions();
    dlqOptions
        << QCommandLineOption(QStringLiteral("force"),
                              QStringLiteral("replay: also REPLAYED or DISCARDED dead letters."))
        << QCommandLineOption(QStringLiteral("to-topic"),
                              QStringLiteral("replay: produce to this topic instead of the original."),
                              QStringLiteral("topic"))
        << QCommandLineOption(
               QStringLiteral("deliver"),
               QStringLiteral(
                   "replay: produce the dead letters now and mark them REPLAYED (no relay needed); "
                   "without ids or a filter: deliver everything already REPLAYING."))
        << QCommandLineOption(QStringLiteral("group"),
                              QStringLiteral("replay/discard: every dead letter of the failure group with "
                                             "this fingerprint (with --consumer and --group-class, as "
                                             "`dlq groups` lists them)."),
                              QStringLiteral("fingerprint"))
        << QCommandLineOption(QStringLiteral("group-class"),
                              QStringLiteral("replay/discard: the group's error class (retries_exhausted "
                                             "or permanent)."),
                              QStringLiteral("class"))
        << QCommandLineOption(QStringLiteral("payload-file"),
                              QStringLiteral("edit: the new payload, exactly the file's bytes."),
                              QStringLiteral("file"))
        << QCommandLineOption(QStringLiteral("headers-file"),
                              QStringLiteral("edit: the new headers, a JSON object of strings."),
                              QStringLiteral("file"))
        << QCommandLineOption(QStringLiteral("json-payload"),
                              QStringLiteral("edit: refuse a payload that is not valid JSON."))
        << QCommandLineOption(QStringLiteral("edit-count"),
                              QStringLiteral("edit: the edit count the new message was made from (dlq show); "
                                             "refused when the dead letter was edited since."),
                              QStringLiteral("n"))
        << QCommandLineOption(QStringLiteral("limit"), QStringLiteral("list: rows per page (default 50)."),
                              QStringLiteral("n"))
        << QCommandLineOption(QStringLiteral("after-id"), QStringLiteral("list: continue after this id."),
                              QStringLiteral("id"));
    return {
        {QStringLiteral("requeue"),
         QStringLiteral("Put FAILED/DEAD (or stuck SENDING) events back to PENDING."),
         QStringLiteral("[IDS...]"),
         requeueOptions,
         runRequeue,
         {}},
        {QStringLiteral("dead"),
         QStringLiteral("Mark PENDING or FAILED events DEAD."),
         QStringLiteral("[IDS...]"),
         eventOptions,
         runDead,
         {}},
        {QStringLiteral("dlq"),
         QStringLiteral("Dead letters: list | show ID | groups | edit ID | replay | discard."),
         QStringLiteral("list|show|groups|edit|replay|discard [IDS...]"),
         dlqOptions,
         runDlq,
         {QStringLiteral("list"), QStringLiteral("show"), QStringLiteral("groups"), QStringLiteral("edit"),
          QStringLiteral("replay"), QStringLiteral("discard")},
         {QStringLiteral("broker.url"), QStringLiteral("kafka.bootstrap"), QStringLiteral("-X"),
          QStringLiteral("amqp.*")}},
    };
}

} // namespace outbox::cli
