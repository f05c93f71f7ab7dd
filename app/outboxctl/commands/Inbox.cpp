#include "app/outboxctl/commands/Commands.h"
#include "core/consumer/ConsumerOverview.h"
#include "core/db/InboxStore.h"
#include "core/support/JsonPage.h"

#include <QJsonArray>
#include <QJsonObject>

namespace outbox::cli {

namespace {

int runInboxList(Context& ctx)
{
    if (!ctx.positionals.isEmpty())
        return ctx.usage(QStringLiteral("inbox list takes no positional arguments"));
    InboxFilter filter;
    filter.consumerName = ctx.parser.value(QStringLiteral("consumer"));
    filter.status = ctx.parser.value(QStringLiteral("status")).toUpper();
    filter.eventId = ctx.parser.value(QStringLiteral("event-id"));
    if (Status s = filter.validate(); !s)
        return ctx.fail(s.error());
    auto paging = pagingFromOptions(ctx.parser);
    if (!paging)
        return ctx.fail(paging.error());
    auto db = ctx.openMigratedDatabase();
    if (!db)
        return ctx.fail(db.error());
    auto page = InboxStore(**db).list(filter, paging->afterId, paging->limit);
    if (!page)
        return ctx.fail(page.error());
    if (ctx.json()) {
        ctx.printJson(pageJson(QStringLiteral("inbox"), rowsJson(page->records), page->nextAfterId));
        return Ok;
    }
    QVector<QStringList> rows;
    for (const InboxRecord& r : page->records)
        rows << QStringList{QString::number(r.id),
                            r.consumerName,
                            r.status,
                            QString::number(r.attempts),
                            r.eventId,
                            r.aggregateId,
                            timeText(r.processedAt),
                            oneLine(r.lastError, 60)};
    ctx.out << table({QStringLiteral("ID"), QStringLiteral("CONSUMER"), QStringLiteral("STATUS"),
                      QStringLiteral("ATT"), QStringLiteral("EVENT ID"), QStringLiteral("AGGREGATE"),
                      QStringLiteral("AT (UTC)"), QStringLiteral("LAST ERROR")},
                     rows);
    if (page->nextAfterId > 0)
        ctx.out << "more: --after-id " << page->nextAfterId << "\n";
    return Ok;
}

int runInbox(Context& ctx)
{
    if (ctx.positionals.isEmpty())
        return ctx.usage(QStringLiteral("inbox needs a sub-command: list"));
    const QString sub = ctx.positionals.takeFirst();
    if (sub == QLatin1String("list"))
        return runInboxList(ctx);
    return ctx.usage(QStringLiteral("unknown inbox sub-command \"%1\" (expected list)").arg(sub));
}

} // namespace

Command inboxCommand()
{
    return {
        QStringLiteral("inbox"),
        QStringLiteral("Browse the consumers' inbox rows: list [--consumer C] [--status S] [--event-id E]."),
        QStringLiteral("list"),
        {QCommandLineOption(QStringLiteral("consumer"), QStringLiteral("Consumer name (exact)."),
                            QStringLiteral("name")),
         QCommandLineOption(QStringLiteral("status"), QStringLiteral("PROCESSED or FAILED."),
                            QStringLiteral("status")),
         QCommandLineOption(QStringLiteral("event-id"), QStringLiteral("Event id (exact)."),
                            QStringLiteral("id")),
         QCommandLineOption(QStringLiteral("limit"), QStringLiteral("Rows per page (default 50)."),
                            QStringLiteral("n")),
         QCommandLineOption(QStringLiteral("after-id"),
                            QStringLiteral("Continue after this id (keyset paging)."), QStringLiteral("id"))},
        runInbox,
        {QStringLiteral("list")}};
}

} // namespace outbox::cli
