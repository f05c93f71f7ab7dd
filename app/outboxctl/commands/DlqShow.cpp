#include "app/outboxctl/commands/Dlq.h"
#include "core/db/DeadLetterStore.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

namespace outbox::cli {

namespace {

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
    // A column as wide as the longest key and two spaces: "replay_lease_until" (18) ran into its value.
    qsizetype keyWidth = 0;
    for (auto it = json.begin(); it != json.end(); ++it)
        keyWidth = std::max(keyWidth, it.key().size() + 2);
    for (auto it = json.begin(); it != json.end(); ++it) {
        const QString value =
            it->isObject() ? QString::fromUtf8(QJsonDocument(it->toObject()).toJson(QJsonDocument::Compact))
            : it->isNull() ? QStringLiteral("-")
                           : it->toVariant().toString();
        ctx.out << it.key().leftJustified(keyWidth) << value << "\n";
    }
    return Ok;
}

} // namespace

DlqSubcommand dlqShow()
{
    return {QStringLiteral("show"), {}, runDlqShow};
}

} // namespace outbox::cli
