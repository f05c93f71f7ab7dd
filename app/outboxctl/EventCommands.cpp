#include "app/outboxctl/Cli.h"
#include "core/db/BlockedAggregates.h"
#include "core/db/EventStatus.h"
#include "core/db/EventStore.h"
#include "core/ops/EventTrail.h"
#include "core/support/TerminalText.h"

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
    f.eventId = p.value(QStringLiteral("event-id"));
    f.topic = p.value(QStringLiteral("topic"));
    for (const QString& h : p.values(QStringLiteral("header"))) {
        auto m = EventFilter::parseHeaderMatch(h, QStringLiteral("--header"));
        if (!m)
            return m.error();
        f.headers << *m;
    }
    for (const QString& v : p.values(QStringLiteral("payload"))) {
        auto m = EventFilter::parsePayloadMatch(v, QStringLiteral("--payload"));
        if (!m)
            return m.error();
        f.payload << *m;
    }
    if (f.headers.size() > EventFilter::MaxMatches || f.payload.size() > EventFilter::MaxMatches)
        return Error::usage(
            QStringLiteral("at most %1 --header and %1 --payload matches").arg(EventFilter::MaxMatches));
    if (p.isSet(QStringLiteral("partition"))) {
        auto v = EventFilter::parsePartition(p.value(QStringLiteral("partition")));
        if (!v)
            return v.error();
        f.partition = *v;
    }
    if (p.isSet(QStringLiteral("offset"))) {
        auto v = EventFilter::parseOffset(p.value(QStringLiteral("offset")));
        if (!v)
            return v.error();
        f.offset = *v;
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
        QCommandLineOption(QStringLiteral("event-id"), QStringLiteral("The event with this event_id."),
                           QStringLiteral("id")),
        QCommandLineOption(QStringLiteral("header"),
                           QStringLiteral("Header KEY has exactly VALUE (e.g. trace_id=abc); repeatable."),
                           QStringLiteral("KEY=VALUE")),
        QCommandLineOption(QStringLiteral("payload"),
                           QStringLiteral("Payload field at a dotted PATH has exactly VALUE (e.g. "
                                          "customer.id=C-42, items.0.sku=A-1); repeatable. Bound it with "
                                          "--since/--until on large tables."),
                           QStringLiteral("PATH=VALUE")),
        QCommandLineOption(QStringLiteral("topic"),
                           QStringLiteral("Sent to this topic (or naming it, when not sent yet)."),
                           QStringLiteral("topic")),
        QCommandLineOption(QStringLiteral("partition"), QStringLiteral("Sent to this Kafka partition."),
                           QStringLiteral("n")),
        QCommandLineOption(QStringLiteral("offset"), QStringLiteral("Sent at this Kafka offset."),
                           QStringLiteral("n")),
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
        ctx.out << it.key().leftJustified(18) << TerminalText::escape(value) << "\n";
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

int runTrace(Context& ctx)
{
    if (ctx.positionals.size() != 1)
        return ctx.usage(QStringLiteral("trace takes one EVENT_ID (or numeric id)"));
    auto db = ctx.openMigratedDatabase();
    if (!db)
        return ctx.fail(db.error());
    auto trail = EventTrail::build(**db, ctx.positionals.first());
    if (!trail)
        return ctx.fail(trail.error());
    if (ctx.json()) {
        ctx.printJson(trail->toJson());
        return Ok;
    }
    const OutboxEvent& e = trail->event;
    ctx.out << TerminalText::escape(
                   QStringLiteral("event %1 (%2): %3 of %4/%5, status %6")
                       .arg(e.id)
                       .arg(e.eventId, e.eventType, e.aggregateType, e.aggregateId, e.status))
            << "\n";
    QVector<QStringList> rows;
    for (const TrailStep& step : trail->steps)
        rows << QStringList{step.at.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")), step.kind,
                            oneLine(step.summary, 160)};
    ctx.out << table({QStringLiteral("AT (UTC)"), QStringLiteral("STEP"), QStringLiteral("WHAT")}, rows);
    return Ok;
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
             {QStringLiteral("list"), QStringLiteral("show"), QStringLiteral("blocked")}},
            {QStringLiteral("trace"),
             QStringLiteral("The life of one event in time order: created, claims, sent (partition/offset), "
                            "operator actions, each consumer's inbox row, dead letters and replays."),
             QStringLiteral("EVENT_ID"),
             {},
             runTrace,
             {}}};
}

} // namespace outbox::cli
