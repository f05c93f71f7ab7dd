#include "app/outboxctl/commands/Commands.h"
#include "core/db/BlockedAggregates.h"
#include "core/db/EventStatus.h"
#include "core/db/EventStore.h"
#include "core/ops/EventTrail.h"
#include "core/support/TerminalText.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace outbox::cli {

namespace {

constexpr int MaxTraceEvents = 20; // trails printed for one trace id

void printTrail(Context& ctx, const EventTrail& trail)
{
    const OutboxEvent& e = trail.event;
    ctx.out << TerminalText::escape(
                   QStringLiteral("event %1 (%2): %3 of %4/%5, status %6")
                       .arg(e.id)
                       .arg(e.eventId, e.eventType, e.aggregateType, e.aggregateId, e.status))
            << "\n";
    QVector<QStringList> rows;
    for (const TrailStep& step : trail.steps)
        rows << QStringList{step.at.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")), step.kind,
                            oneLine(step.summary, 160)};
    ctx.out << table({QStringLiteral("AT (UTC)"), QStringLiteral("STEP"), QStringLiteral("WHAT")}, rows);
}

// The events of one W3C trace (their traceparent header), oldest first, each with its trail.
int runTraceById(Context& ctx, const QString& text)
{
    if (!ctx.positionals.isEmpty())
        return ctx.usage(QStringLiteral("trace takes an EVENT_ID or --trace-id, not both"));
    auto traceId = EventFilter::parseTraceId(text);
    if (!traceId)
        return ctx.usage(QStringLiteral("--trace-id: %1").arg(traceId.message()));
    auto db = ctx.openMigratedDatabase();
    if (!db)
        return ctx.fail(db.error());
    EventPageRequest request;
    request.filter.traceId = *traceId;
    request.limit = MaxTraceEvents;
    request.ascending = true;
    auto page = EventStore(**db).list(request);
    if (!page)
        return ctx.fail(page.error());
    if (page->events.isEmpty())
        return ctx.fail(Error::notFound(QStringLiteral("no event carries trace id %1").arg(*traceId)));
    QJsonArray trails;
    for (const OutboxEvent& e : page->events) {
        auto trail = EventTrail::build(**db, QString::number(e.id));
        if (!trail)
            return ctx.fail(trail.error());
        if (ctx.json()) {
            trails.append(trail->toJson());
            continue;
        }
        if (e.id != page->events.first().id)
            ctx.out << "\n";
        printTrail(ctx, *trail);
    }
    if (ctx.json())
        ctx.printJson(QJsonObject{{QStringLiteral("trace_id"), *traceId},
                                  {QStringLiteral("events"), trails},
                                  {QStringLiteral("more"), page->nextAfterId != 0}});
    else if (page->nextAfterId != 0)
        ctx.out << QStringLiteral(
                       "\n(the first %1 events of the trace; list them all with: outboxctl events list "
                       "--trace-id %2)\n")
                       .arg(MaxTraceEvents)
                       .arg(*traceId);
    return Ok;
}

int runTrace(Context& ctx)
{
    if (ctx.parser.isSet(QStringLiteral("trace-id")))
        return runTraceById(ctx, ctx.parser.value(QStringLiteral("trace-id")));
    if (ctx.positionals.size() != 1)
        return ctx.usage(QStringLiteral("trace takes one EVENT_ID (or numeric id), or --trace-id ID"));
    auto trail = ctx.onDatabase([&](Database& db) { return EventTrail::build(db, ctx.positionals.first()); });
    if (!trail)
        return ctx.fail(trail.error());
    if (ctx.json())
        return ctx.printJson(trail->toJson());
    printTrail(ctx, *trail);
    return Ok;
}

} // namespace

Command traceCommand()
{
    return {
        QStringLiteral("trace"),
        QStringLiteral("The life of one event in time order: created, claims, sent (partition/offset), "
                       "operator actions, each consumer's inbox row, dead letters and replays. "
                       "--trace-id: the events of one W3C trace, each with its life."),
        QStringLiteral("EVENT_ID | --trace-id ID"),
        {QCommandLineOption(QStringLiteral("trace-id"),
                            QStringLiteral("The events whose traceparent header carries this trace id (32 "
                                           "hex digits, or a whole traceparent), oldest first."),
                            QStringLiteral("id"))},
        runTrace,
        {}};
}

} // namespace outbox::cli
