#include "app/outboxctl/commands/Dlq.h"
#include "core/db/DeadLetterStore.h"

#include <QJsonObject>

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
    ctx.printRecord(json);
    return Ok;
}

} // namespace

DlqSubcommand dlqShow()
{
    return {QStringLiteral("show"), {}, runDlqShow};
}

} // namespace outbox::cli
