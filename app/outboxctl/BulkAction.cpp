#include "app/outboxctl/BulkAction.h"

#include "app/outboxctl/Filters.h"
#include "app/outboxctl/Signals.h"
#include "core/db/FailureGroups.h"
#include "core/support/TerminalText.h"

#include <QJsonArray>
#include <QJsonObject>
#include <atomic>
#include <unistd.h>

namespace outbox::cli {

QList<QCommandLineOption> actionOptions()
{
    return {
        QCommandLineOption(QStringLiteral("reason"), QStringLiteral("Why (required; kept in the audit log)."),
                           QStringLiteral("text")),
        QCommandLineOption(QStringLiteral("dry-run"),
                           QStringLiteral("Show what would change: count and a sample.")),
    };
}

namespace {

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

} // namespace

// Shared by requeue, dead, dlq discard and dlq replay: dry run first, confirm, then the bulk
// engine in audited chunks with progress and Ctrl-C between chunks; `then` runs after a
// successful (non-dry, not cancelled) action.
int runAction(Context& ctx, ActionRequest request, ActionKind kind, const QString& noun,
              const std::function<int(const ActionResult&)>& then)
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
    auto preview = request.dryRun ? engine.preview(kind, request) : engine.previewForRun(kind, request);
    if (!preview)
        return ctx.fail(preview.error());
    if (request.dryRun) {
        printResult(ctx, *preview, noun);
        return Ok;
    }
    if (!ctx.assumeYes()) {
        if (preview->matched == 0) {
            printResult(ctx, *preview, noun);
            return Ok;
        }
        // Core's phrase, as the consoles ask for it ("requeue 12"); one row named by id: "yes".
        const QString phrase =
            preview->confirmation.isEmpty() ? QStringLiteral("yes") : preview->confirmation;
        if (!isatty(STDIN_FILENO))
            return ctx.usage(QStringLiteral("refusing to change %1 %2 (%3) without confirmation: pass --yes, "
                                            "or --dry-run to preview")
                                 .arg(preview->matched)
                                 .arg(noun, preview->action));
        printConsequences(ctx, *preview, &ctx.err);
        ctx.err << preview->matched << " " << noun << " will change (" << preview->action << ")";
        if (preview->runsAsJob)
            ctx.err << " in chunks of " << request.chunkSize << " (Ctrl-C stops between chunks)";
        ctx.err << ". Type \"" << phrase << "\" to confirm: " << Qt::flush;
        char answer[64] = {};
        if (!std::fgets(answer, sizeof answer, stdin) || QString::fromUtf8(answer).trimmed() != phrase)
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
    auto result = engine.run(kind, request, *preview, control);
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

int runEventAction(Context& ctx, ActionKind kind)
{
    auto request = baseRequest(ctx);
    if (!request)
        return ctx.fail(request.error());
    std::optional<EventFilter> filter;
    if (anySet(ctx.parser, eventFilterOptions())) {
        auto parsed = eventFilterFromOptions(ctx.parser);
        if (!parsed)
            return ctx.fail(parsed.error());
        filter = *parsed;
    }
    if (ctx.parser.isSet(QStringLiteral("group")) || ctx.parser.isSet(QStringLiteral("group-class"))) {
        // A failure group as the console lists it: error class and error fingerprint, in the
        // statuses --status names (the doctor's `--status FAILED --group …`); no other filter.
        FailureGroup group;
        group.fingerprint = ctx.parser.value(QStringLiteral("group"));
        group.errorClass = ctx.parser.value(QStringLiteral("group-class"));
        if (filter) {
            group.statuses = filter->statuses;
            EventFilter rest = *filter;
            rest.statuses.clear();
            if (!rest.isEmpty())
                return ctx.usage(QStringLiteral("--group takes --group-class and --status, no other filter"));
        }
        request->group = group;
    } else if (filter) {
        request->eventFilter = *filter;
    }
    if (kind == ActionKind::Requeue) { // only requeue has --force and --resend
        request->force = ctx.parser.isSet(QStringLiteral("force"));
        request->resend = ctx.parser.isSet(QStringLiteral("resend"));
    }
    return runAction(ctx, *request, kind, QStringLiteral("event(s)"));
}

QList<QCommandLineOption> eventActionOptions()
{
    QList<QCommandLineOption> options = eventFilterOptions() + actionOptions();
    options << QCommandLineOption(QStringLiteral("group"),
                                  QStringLiteral("Every event of the failure group with this error "
                                                 "fingerprint (as the console lists it, e.g. \"schema "
                                                 "check failed for row <n>\")."),
                                  QStringLiteral("fingerprint"))
            << QCommandLineOption(QStringLiteral("group-class"),
                                  QStringLiteral("The failure group's error class (with --group; "
                                                 "empty for errors without a class)."),
                                  QStringLiteral("class"));
    return options;
}

} // namespace outbox::cli
