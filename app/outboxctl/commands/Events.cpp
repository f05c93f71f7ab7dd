#include "app/outboxctl/Filters.h"
#include "app/outboxctl/commands/Commands.h"
#include "core/db/BlockedAggregates.h"
#include "core/db/EventStatus.h"
#include "core/db/EventStore.h"
#include "core/ops/EventTrail.h"
#include "core/support/JsonPage.h"

#include <QJsonArray>
#include <QJsonObject>

namespace outbox::cli {

namespace {

int runEventsList(Context& ctx)
{
    auto filter = eventFilterFromOptions(ctx.parser);
    if (!filter)
        return ctx.fail(filter.error());
    EventPageRequest request;
    request.filter = *filter;
    auto paging = pagingFromOptions(ctx.parser);
    if (!paging)
        return ctx.fail(paging.error());
    request.limit = paging->limit;
    request.afterId = paging->afterId;
    request.ascending = ctx.parser.isSet(QStringLiteral("asc"));
    auto page = ctx.onDatabase([&](Database& db) { return EventStore(db).list(request); });
    if (!page)
        return ctx.fail(page.error());
    if (ctx.json())
        return ctx.printJson(pageJson(QStringLiteral("events"), rowsJson(page->events), page->nextAfterId));
    QVector<QStringList> rows;
    for (const OutboxEvent& e : page->events) {
        rows << QStringList{QString::number(e.id),
                            e.status,
                            QString::number(e.attempts),
                            e.eventType,
                            e.aggregateType + QLatin1Char('/') + e.aggregateId,
                            e.createdAt.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                            oneLine(e.lastError, 60)};
    }
    ctx.out << table({QStringLiteral("ID"), QStringLiteral("STATUS"), QStringLiteral("ATT"),
                      QStringLiteral("TYPE"), QStringLiteral("AGGREGATE"), QStringLiteral("CREATED (UTC)"),
                      QStringLiteral("LAST ERROR")},
                     rows);
    ctx.printNextPage(page->nextAfterId);
    return Ok;
}

int runEventsShow(Context& ctx)
{
    if (ctx.positionals.size() != 1)
        return ctx.usage(QStringLiteral("events show takes one ID or EVENT_ID"));
    auto event = ctx.onDatabase([&](Database& db) { return EventStore(db).find(ctx.positionals.first()); });
    if (!event)
        return ctx.fail(event.error());
    return ctx.showRecord(event->toJson());
}

// `events blocked`: aggregates held back by a FAILED event in ordering mode.
int runEventsBlocked(Context& ctx)
{
    BlockedAggregatesQuery query;
    if (ctx.parser.isSet(QStringLiteral("limit"))) {
        bool ok = false;
        query.limit = ctx.parser.value(QStringLiteral("limit")).toInt(&ok);
        if (!ok || query.limit < 1 || query.limit > BlockedAggregates::MaxLimit)
            return ctx.usage(
                QStringLiteral("--limit must be a number between 1 and %1").arg(BlockedAggregates::MaxLimit));
    }
    auto blocked = ctx.onDatabase([&](Database& db) { return BlockedAggregates(db).list(query); });
    if (!blocked)
        return ctx.fail(blocked.error());
    if (ctx.json())
        return ctx.printJson(blocked->toJson());
    if (blocked->aggregates.isEmpty()) {
        ctx.out
            << "no blocked aggregates: no FAILED event holds back a later PENDING event of its aggregate\n";
        return Ok;
    }
    QVector<QStringList> rows;
    for (const BlockedAggregate& b : blocked->aggregates)
        rows << QStringList{b.aggregateType + QLatin1Char('/') + b.aggregateId,
                            QStringLiteral("#%1 %2").arg(b.blockingId).arg(b.blockingType),
                            b.since.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                            QString::number(b.waiting), oneLine(b.error, 50)};
    ctx.out << table({QStringLiteral("AGGREGATE"), QStringLiteral("BLOCKING EVENT"),
                      QStringLiteral("SINCE (UTC)"), QStringLiteral("WAITING"), QStringLiteral("ERROR")},
                     rows);
    if (blocked->total > blocked->aggregates.size())
        ctx.out << blocked->total << " blocked aggregates in all" << (blocked->atLeast ? " (at least)" : "")
                << "; --limit shows more\n";
    ctx.out
        << "unblock: outboxctl requeue ID (sent again first, the waiting events follow) or outboxctl dead ID "
           "(never sent; the waiting events follow without it); --dry-run shows the consequence\n";
    return Ok;
}

QList<Subcommand> subcommands()
{
    return {{QStringLiteral("list"), {}, withoutPositionals(QStringLiteral("events list"), runEventsList)},
            {QStringLiteral("show"), {}, runEventsShow},
            {QStringLiteral("blocked"),
             {},
             withoutPositionals(QStringLiteral("events blocked"), runEventsBlocked)}};
}

int runEvents(Context& ctx)
{
    return runSubcommand(ctx, QStringLiteral("events"), subcommands());
}

} // namespace

Command eventsCommand()
{
    QList<QCommandLineOption> options = eventFilterOptions() + pagingOptions();
    options << QCommandLineOption(QStringLiteral("asc"), QStringLiteral("Oldest first."));
    return {QStringLiteral("events"),
            QStringLiteral("Browse events: list [filters] | show ID|EVENT_ID | blocked (ordering mode)."),
            QStringLiteral("list|show|blocked [ID]"),
            options,
            runEvents,
            subcommandNames(subcommands())};
}

} // namespace outbox::cli
