#include "app/outboxctl/commands/Dlq.h"
#include "core/db/DeadLetterGroups.h"
#include "core/ops/DeadLetterGroupEditor.h"
#include "core/support/TerminalText.h"

#include <QJsonObject>
#include <cstdio>
#include <unistd.h>

namespace outbox::cli {

namespace {

// The preview, one block per dead letter: each changed value, or why it is left as it is.
void printPreview(Context& ctx, const GroupEditPreview& p, QTextStream& out)
{
    out << "dlq edit-group: " << TerminalText::escape(p.change.describe()) << "\n"
        << "group: consumer " << TerminalText::escape(p.group.consumerName) << ", "
        << TerminalText::escape(p.group.errorClass) << ", " << TerminalText::escape(p.group.fingerprint)
        << "\n";
    for (const GroupEditItem& i : p.items) {
        out << "  #" << i.id << " (edit " << i.editCount << ")";
        if (!i.changes) {
            out << ": unchanged, " << TerminalText::escape(i.skipped) << "\n";
            continue;
        }
        out << "\n";
        for (const QString& d : i.differences)
            out << "      " << TerminalText::escape(d) << "\n";
    }
    out << p.changing << " of " << p.items.size() << " dead letter(s) change";
    if (p.skipped > 0)
        out << ", " << p.skipped << " left as they are";
    out << "\n";
    (void)ctx;
}

int runDlqEditGroup(Context& ctx)
{
    if (!ctx.positionals.isEmpty())
        return ctx.usage(QStringLiteral("dlq edit-group takes no ids: it edits a group (--consumer, "
                                        "--group-class, --group)"));
    DeadLetterGroup group;
    group.fingerprint = ctx.parser.value(QStringLiteral("group"));
    group.errorClass = ctx.parser.value(QStringLiteral("group-class"));
    group.consumerName = ctx.parser.value(QStringLiteral("consumer"));
    if (group.consumerName.isEmpty() || group.errorClass.isEmpty() ||
        !ctx.parser.isSet(QStringLiteral("group")))
        return ctx.usage(
            QStringLiteral("dlq edit-group needs --consumer NAME, --group-class CLASS and --group "
                           "FINGERPRINT (as `outboxctl dlq groups` lists them)"));
    const bool set = ctx.parser.isSet(QStringLiteral("set"));
    const bool replace = ctx.parser.isSet(QStringLiteral("replace"));
    if (set == replace || !ctx.parser.isSet(QStringLiteral("to")))
        return ctx.usage(
            QStringLiteral("dlq edit-group needs one change: --set PATH --to VALUE, or --replace "
                           "VALUE --to VALUE [--in PATH] (values as JSON; other text is a string)"));
    auto change =
        set ? JsonChange::set(ctx.parser.value(QStringLiteral("set")), ctx.parser.value(QStringLiteral("to")))
            : JsonChange::replace(ctx.parser.value(QStringLiteral("in")),
                                  ctx.parser.value(QStringLiteral("replace")),
                                  ctx.parser.value(QStringLiteral("to")));
    if (!change)
        return ctx.fail(change.error());
    const bool dryRun = ctx.parser.isSet(QStringLiteral("dry-run"));
    const QString reason = ctx.parser.value(QStringLiteral("reason"));
    if (!dryRun && reason.trimmed().isEmpty())
        return ctx.usage(QStringLiteral("a reason is required (--reason)"));
    int chunk = 100;
    if (ctx.parser.isSet(QStringLiteral("chunk-size"))) {
        bool ok = false;
        chunk = ctx.parser.value(QStringLiteral("chunk-size")).toInt(&ok);
        if (!ok || chunk < 1 || chunk > DeadLetterGroupEditor::MaxChunkSize)
            return ctx.usage(QStringLiteral("--chunk-size must be between 1 and %1")
                                 .arg(DeadLetterGroupEditor::MaxChunkSize));
    }

    auto db = ctx.openMigratedDatabase();
    if (!db)
        return ctx.fail(db.error());
    DeadLetterGroupEditor editor(**db);
    auto preview = editor.preview(group, *change);
    if (!preview)
        return ctx.fail(preview.error());
    if (dryRun || preview->changing == 0) {
        if (ctx.json())
            ctx.printJson(preview->toJson(true));
        else
            printPreview(ctx, *preview, ctx.out);
        return Ok;
    }
    // Every diff is shown before anything changes; then --yes, or core's phrase ("edit 25") typed on
    // a terminal.
    if (!ctx.assumeYes()) {
        if (!isatty(STDIN_FILENO))
            return ctx.usage(QStringLiteral("refusing to edit %1 dead letter(s) without confirmation: pass "
                                            "--yes, or --dry-run to preview")
                                 .arg(preview->changing));
        printPreview(ctx, *preview, ctx.err);
        const QString phrase =
            preview->confirmation.isEmpty() ? QStringLiteral("yes") : preview->confirmation;
        ctx.err << "edit " << preview->changing << " dead letter(s) (the originals are kept)? Type " << phrase
                << " to confirm: " << Qt::flush;
        char answer[64] = {};
        if (!std::fgets(answer, sizeof answer, stdin) || QString::fromUtf8(answer).trimmed() != phrase)
            return ctx.usage(QStringLiteral("not confirmed; nothing changed"));
    }
    GroupEditRequest request;
    request.group = group;
    request.change = *change;
    request.reason = reason;
    request.actor = ctx.actor();
    request.versions = preview->versions();
    request.chunkSize = chunk;
    auto result = editor.apply(request);
    if (!result)
        return ctx.fail(result.error());
    if (ctx.json()) {
        QJsonObject json = result->toJson();
        json.insert(QStringLiteral("preview"), preview->toJson(false));
        ctx.printJson(json);
    } else {
        ctx.out << "edited " << result->edited << " dead letter(s) in " << result->chunks
                << " audited chunk(s); " << result->conflicts
                << " conflict(s) (changed by someone else since "
                << "the preview), " << result->skipped
                << " left as they are; the originals are kept; a replay of the group sends the edited "
                   "messages\n";
    }
    return result->conflicts > 0 ? int(RuntimeError) : int(Ok);
}

} // namespace

Subcommand dlqEditGroup()
{
    return {
        QStringLiteral("edit-group"),
        {QCommandLineOption(
             QStringLiteral("set"),
             QStringLiteral("edit-group: the JSON path to set in every payload (customer.email, "
                            "items.0.sku); with --to."),
             QStringLiteral("path")),
         QCommandLineOption(
             QStringLiteral("replace"),
             QStringLiteral("edit-group: the value to replace in every payload (JSON; other text "
                            "is a string); with --to, and --in PATH to limit it."),
             QStringLiteral("value")),
         QCommandLineOption(QStringLiteral("to"),
                            QStringLiteral("edit-group: the new value (JSON; other text is "
                                           "a string)."),
                            QStringLiteral("value")),
         QCommandLineOption(QStringLiteral("in"),
                            QStringLiteral("edit-group: --replace only under this path."),
                            QStringLiteral("path")),
         QCommandLineOption(QStringLiteral("chunk-size"),
                            QStringLiteral("edit-group: dead letters per audited transaction (default 100)."),
                            QStringLiteral("n"))},
        runDlqEditGroup};
}

} // namespace outbox::cli
