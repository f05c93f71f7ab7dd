#include "app/outboxctl/commands/Dlq.h"
#include "core/db/DeadLetterStore.h"
#include "core/ops/DeadLetterEditor.h"
#include "core/support/JsonText.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <cstdio>
#include <unistd.h>

namespace outbox::cli {

namespace {

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
    auto id = oneId(ctx.positionals, QStringLiteral("dlq edit"));
    if (!id)
        return ctx.fail(id.error());
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
                                          ? JsonText::parseError(error.error)
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
    auto current = DeadLetterStore(**db).find(*id);
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
    auto result = DeadLetterEditor(**db).edit(*id, edit);
    if (!result)
        return ctx.fail(result.error());
    if (ctx.json())
        return ctx.printJson(result->toJson());
    ctx.out << "dead letter #" << result->after.id << " edited (" << (edit.payload ? "payload" : "")
            << (edit.payload && edit.headers ? " and " : "") << (edit.headers ? "headers" : "") << ", edit "
            << result->after.editCount << ", audit #" << result->auditId
            << "); the original is kept; a replay sends the edited message\n";
    return Ok;
}

} // namespace

Subcommand dlqEdit()
{
    return {
        QStringLiteral("edit"),
        {QCommandLineOption(QStringLiteral("payload-file"),
                            QStringLiteral("edit: the new payload, exactly the file's bytes."),
                            QStringLiteral("file")),
         QCommandLineOption(QStringLiteral("headers-file"),
                            QStringLiteral("edit: the new headers, a JSON object of strings."),
                            QStringLiteral("file")),
         QCommandLineOption(QStringLiteral("json-payload"),
                            QStringLiteral("edit: refuse a payload that is not valid JSON.")),
         QCommandLineOption(QStringLiteral("edit-count"),
                            QStringLiteral("edit: the edit count the new message was made from (dlq show); "
                                           "refused when the dead letter was edited since."),
                            QStringLiteral("n"))},
        runDlqEdit};
}

} // namespace outbox::cli
