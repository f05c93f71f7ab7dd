#include "app/outboxctl/commands/Dlq.h"
#include "core/db/DeadLetterStore.h"

#include <QJsonObject>

namespace outbox::cli {

namespace {

int runDlqShow(Context& ctx)
{
    auto id = oneId(ctx.positionals, QStringLiteral("dlq show"));
    if (!id)
        return ctx.fail(id.error());
    auto letter = ctx.onDatabase([&](Database& db) { return DeadLetterStore(db).find(*id); });
    if (!letter)
        return ctx.fail(letter.error());
    return ctx.showRecord(letter->toJson());
}

} // namespace

Subcommand dlqShow()
{
    return {QStringLiteral("show"), {}, runDlqShow};
}

} // namespace outbox::cli
