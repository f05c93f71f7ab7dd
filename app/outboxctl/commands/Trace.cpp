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

Command traceCommand()
{
    return {QStringLiteral("trace"),
            QStringLiteral("The life of one event in time order: created, claims, sent (partition/offset), "
                           "operator actions, each consumer's inbox row, dead letters and replays."),
            QStringLiteral("EVENT_ID"),
            {},
            runTrace,
            {}};
}

} // namespace outbox::cli
