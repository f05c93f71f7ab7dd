#include "app/outboxctl/Cli.h"
#include "core/db/BlockedAggregates.h"
#include "core/db/EventStatus.h"
#include "core/db/EventStore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace outbox::cli {

// Builds an EventFilter from the filter options shared by `events list`, `requeue` and `dead`.
Result<EventFilter> eventFilterFromOptions(const QCommandLineParser& p)
{
    EventFilter f;
    for (const QString& value : p.values(QStringLiteral("status"))) {
        for (const QString& s : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            auto status = EventStatus::parse(s);
            if (!status)
                return status.error();
            f.statuses << *status;
        }
    }
    f.eventType = p.value(QStringLiteral("type"));
    f.aggregateType = p.value(QStringLiteral("aggregate-type"));
    f.aggregateId = p.value(QStringLiteral("aggregate"));
    f.errorText = p.value(QStringLiteral("error"));
    if (p.isSet(QStringLiteral("since"))) {
        auto t = parseTimeArgument(p.value(QStringLiteral("since")), QStringLiteral("since"));
        if (!t)
            return t.error();
        f.createdFrom = *t;
    }
    if (p.isSet(QStringLiteral("until"))) {
        auto t = parseTimeArgument(p.value(QStringLiteral("until")), QStringLiteral("until"));
        if (!t)
            return t.error();
        f.createdUntil = *t;
    }
    return f;
}

QList<QCommandLineOption> eventFilterOptions()
{
    return {
        QCommandLineOption(
            QStringLiteral("status"),
            QStringLiteral("Status (PENDING, SENDING, SENT, FAILED, DEAD); repeat or comma-separate."),
            QStringLiteral("status")),
        QCommandLineOption(QStringLiteral("type"), QStringLiteral("Event type."), QStringLiteral("type")),
        QCommandLineOption(QStringLiteral("aggregate-type"), QStringLiteral("Aggregate type."),
                           QStringLiteral("type")),
        QCommandLineOption(QStringLiteral("aggregate"), QStringLiteral("Aggregate id."),
                           QStringLiteral("id")),
        QCommandLineOption(QStringLiteral("error"), QStringLiteral("Text contained in last_error."),
                           QStringLiteral("text")),
        QCommandLineOption(QStringLiteral("since"),
                           QStringLiteral("Created at or after (15m, 2h, 7d or ISO 8601)."),
                           QStringLiteral("time")),
        QCommandLineOption(QStringLiteral("until"),
                           QStringLiteral("Created before (15m, 2h, 7d or ISO 8601)."),
                           QStringLiteral("time")),
    };
}

namespace {

QString oneLine(QString text, int max)
{
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text.size() > max ? text.left(max - 1) + QChar(0x2026) : text;
}

int runEventsList(Context& ctx)
{
    if (!ctx.positionals.isEmpty())
        return ctx.usage(QStringLiteral("events list takes no positional arguments"));
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
    auto db = ctx.openMigratedDatabase();
    if (!db)
        return ctx.fail(db.error());
    auto page = EventStore(**db).list(request);
    if (!page)
        return ctx.fail(page.error());
    if (ctx.json()) {
        QJsonArray events;
        for (const OutboxEvent& e : page->events)
            events.append(e.toJson());
        ctx.printJson(QJsonObject{{QStringLiteral("events"), events},
                                  {QStringLiteral("next_after_id"),
                                   page->nextAfterId > 0 ? QJsonValue(page->nextAfterId) : QJsonValue()}});
        return Ok;
    }
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
    if (page->nextAfterId > 0)
        ctx.out << "more: --after-id " << page->nextAfterId << "\n";
    return Ok;
}

int runEventsShow(Context& ctx)
{
    if (ctx.positionals.size() != 1)
        return ctx.usage(QStringLiteral("events show takes one ID or EVENT_ID"));
    auto db = ctx.openMigratedDatabase();
    if (!db)
        return ctx.fail(db.error());
    auto event = EventStore(**db).find(ctx.positionals.first());
    if (!event)
        return ctx.fail(event.error());
    const QJsonObject json = event->toJson();
    if (ctx.json()) {
        ctx.printJson(json);
        return Ok;
    }
    for (auto it = json.begin(); it != json.end(); ++it) {
        QString value;
        if (it->isObject() || it->isArray())
            value = QString::fromUtf8(it->isObject()
                                          ? QJsonDocument(it->toObject()).toJson(QJsonDocument::Compact)
                                          : QJsonDocument(it->toArray()).toJson(QJsonDocument::Compact));
        else if (it->isNull())
            value = QStringLiteral("-");
        else
            value = it->toVariant().toString();
        ctx.out << it.key().leftJustified(18) << value << "\n";
    }
    return Ok;
}

// `events blocked`: aggregates held back by a FAILED event in ordering mode.
int runEventsBlocked(Context& ctx)
{
    if (!ctx.positionals.isEmpty())
        return ctx.usage(QStringLiteral("events blocked takes no positional arguments"));
    BlockedAggregatesQuery query;
    if (ctx.parser.isSet(QStringLiteral("limit"))) {
        bool ok = false;
        query.limit = ctx.parser.value(QStringLiteral("limit")).toInt(&ok);
        if (!ok || query.limit < 1 || query.limit > BlockedAggregates::MaxLimit)
            return ctx.usage(
                QStringLiteral("--limit must be a number between 1 and %1").arg(BlockedAggregates::MaxLimit));
    }
    auto db = ctx.openMigratedDatabase();
    if (!db)
        return ctx.fail(db.error());
    auto blocked = BlockedAggregates(**db).list(query);
    if (!blocked)
        return ctx.fail(blocked.error());
    if (ctx.json()) {
        ctx.printJson(blocked->toJson());
        return Ok;
    }
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

int runEvents(Context& ctx)
{
    if (ctx.positionals.isEmpty())
        return ctx.usage(QStringLiteral("events needs a sub-command: list, show or blocked"));
    const QString sub = ctx.positionals.takeFirst();
    if (sub == QLatin1String("list"))
        return runEventsList(ctx);
    if (sub == QLatin1String("show"))
        return runEventsShow(ctx);
    if (sub == QLatin1String("blocked"))
        return runEventsBlocked(ctx);
    return ctx.usage(
        QStringLiteral("unknown events sub-command \"%1\" (expected list, show or blocked)").arg(sub));
}

} // namespace

QList<Command> eventCommands()
{
    QList<QCommandLineOption> options = eventFilterOptions();
    options << QCommandLineOption(QStringLiteral("limit"), QStringLiteral("Rows per page (default 50)."),
                                  QStringLiteral("n"))
            << QCommandLineOption(QStringLiteral("after-id"),
                                  QStringLiteral("Continue after this id (keyset paging)."),
                                  QStringLiteral("id"))
            << QCommandLineOption(QStringLiteral("asc"), QStringLiteral("Oldest first."));
    return {{QStringLiteral("events"),
             QStringLiteral("Browse events: list [filters] | show ID|EVENT_ID | blocked (ordering mode)."),
             QStringLiteral("list|show|blocked [ID]"),
             options,
             runEvents,
             {QStringLiteral("list"), QStringLiteral("show"), QStringLiteral("blocked")}}};
}

} // namespace outbox::cli
