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
    InboxFilter filter;
    filter.consumerName = ctx.parser.value(QStringLiteral("consumer"));
    filter.status = ctx.parser.value(QStringLiteral("status")).toUpper();
    filter.eventId = ctx.parser.value(QStringLiteral("event-id"));
    if (Status s = filter.validate(); !s)
        return ctx.fail(s.error());
    auto paging = pagingFromOptions(ctx.parser);
    if (!paging)
        return ctx.fail(paging.error());
    auto page = ctx.onDatabase(
        [&](Database& db) { return InboxStore(db).list(filter, paging->afterId, paging->limit); });
    if (!page)
        return ctx.fail(page.error());
    if (ctx.json())
        return ctx.printJson(pageJson(QStringLiteral("inbox"), rowsJson(page->records), page->nextAfterId));
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
    ctx.printNextPage(page->nextAfterId);
    return Ok;
}

int runInbox(Context& ctx)
{
    return runSubcommand(
        ctx, QStringLiteral("inbox"),
        {{QStringLiteral("list"), {}, withoutPositionals(QStringLiteral("inbox list"), runInboxList)}});
}

} // namespace

Command inboxCommand()
{
    return {
        QStringLiteral("inbox"),
        QStringLiteral("Browse the consumers' inbox rows: list [--consumer C] [--status S] [--event-id E]."),
        QStringLiteral("list"),
        QList<QCommandLineOption>{
            QCommandLineOption(QStringLiteral("consumer"), QStringLiteral("Consumer name (exact)."),
                               QStringLiteral("name")),
            QCommandLineOption(QStringLiteral("status"), QStringLiteral("PROCESSED or FAILED."),
                               QStringLiteral("status")),
            QCommandLineOption(QStringLiteral("event-id"), QStringLiteral("Event id (exact)."),
                               QStringLiteral("id"))} +
            pagingOptions(),
        runInbox,
        {QStringLiteral("list")}};
}

} // namespace outbox::cli
