#include "core/diagnosis/checks/BlockedAggregatesCheck.h"

#include "core/db/BlockedAggregates.h"
#include "core/db/Database.h"
#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/Runbook.h"

#include <QJsonArray>
#include <QSqlQuery>

namespace outbox {

namespace {

constexpr int MaxActionIds = 100; // blocking events a prepared action names

} // namespace

Result<QVector<Finding>> BlockedAggregatesCheck::run(DiagnosisContext& context)
{
    const Runbook& rb = Runbook::of(id());
    // The one query for blocked aggregates (core/db/BlockedAggregates), with the doctor's patience:
    // only aggregates whose waiting events have been due for longer than `blocked_after`.
    BlockedAggregatesQuery query;
    query.minWaitMs = context.options().blockedAfterMs;
    query.limit = BlockedAggregates::MaxLimit;
    query.countWaitingFor = Finding::MaxSamples;
    auto found = BlockedAggregates(context.db()).list(query);
    if (!found)
        return found.error();
    const QVector<BlockedAggregate>& blocked = found->aggregates;
    if (blocked.isEmpty())
        return QVector<Finding>{};

    Finding f;
    f.id = id();
    f.key = id();
    f.severity = Severity::Critical;
    f.evidence.count = found->total;
    f.evidence.unit = QStringLiteral("aggregates");
    f.evidence.sampleKind = QStringLiteral("event");
    QJsonArray details;
    QVector<qint64> actionIds;
    for (const BlockedAggregate& b : blocked) {
        f.evidence.span(b.since, b.since);
        if (actionIds.size() < MaxActionIds)
            actionIds << b.blockingId;
        if (f.evidence.sampleIds.size() >= Finding::MaxSamples)
            continue;
        f.evidence.sampleIds << b.blockingId;
        details.append(QJsonObject{{QStringLiteral("aggregate_type"), b.aggregateType},
                                   {QStringLiteral("aggregate_id"), b.aggregateId},
                                   {QStringLiteral("blocking_event_id"), b.blockingId},
                                   {QStringLiteral("since"), b.since.toUTC().toString(Qt::ISODateWithMs)},
                                   {QStringLiteral("waiting"), b.waiting},
                                   {QStringLiteral("error"), b.error}});
    }
    f.evidence.details.insert(QStringLiteral("aggregates"), details);
    f.evidence.details.insert(QStringLiteral("blocked_after_ms"), context.options().blockedAfterMs);
    f.evidence.details.insert(QStringLiteral("pending_examined"), BlockedAggregates::PendingExamined);
    if (found->atLeast)
        f.evidence.details.insert(QStringLiteral("at_least"), true);
    const QJsonObject first = details.first().toObject();
    f.title = blocked.size() == 1 ? tr("Aggregate %1/%2 is blocked by FAILED event #%3")
                                        .arg(first.value(QStringLiteral("aggregate_type")).toString(),
                                             first.value(QStringLiteral("aggregate_id")).toString())
                                        .arg(blocked.first().blockingId)
                                  : tr("%1 aggregates are blocked by FAILED events").arg(found->total);
    f.causes << rb.cause("ordering") << rb.cause("failed");
    f.runbook << rb.step("list") << rb.step("open") << rb.step("requeue") << rb.step("dead");
    for (auto op : {PreparedAction::Operation::RequeueEvents, PreparedAction::Operation::MarkEventsDead}) {
        const bool requeue = op == PreparedAction::Operation::RequeueEvents;
        f.actions << eventsAction(
            context, op, actionIds, EventsFlag::None,
            requeue ? tr("Requeue the %1 blocking event(s)").arg(actionIds.size())
                    : tr("Mark the %1 blocking event(s) DEAD").arg(actionIds.size()),
            requeue ? tr("The blocking events go back to PENDING and are sent first; the events "
                         "waiting behind them follow in order.")
                    : tr("The blocking events become DEAD and are never sent; the events waiting behind "
                         "them are sent without them."));
    }
    return QVector<Finding>{f};
}

// Its page of docs/runbooks/ and the lines its findings take (core/diagnosis/Runbook.h).
Runbook BlockedAggregatesCheck::runbook() const
{
    Runbook r = Runbook::page(
        "blocked-aggregates", "Aggregates are blocked behind a FAILED event", "critical",
        "In ordering mode, later events of some aggregates wait behind a FAILED event for longer than "
        "`[doctor] blocked_after`: nothing of those aggregates is delivered until an operator requeues "
        "the blocking event or marks it DEAD.");
    r.causes = {
        {"ordering",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The relays run in ordering mode (--ordering aggregate): an event is sent only after "
             "every earlier event of its aggregate, so a FAILED event holds back all later ones.")},
        {"failed",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The FAILED event itself failed for a reason failed-events explains (a poison payload, "
             "a topic ACL, attempts exhausted).")},
    };
    r.steps = {
        {"list", QT_TRANSLATE_NOOP(
                     "outbox::Runbook",
                     "List every blocked aggregate with its blocking event, since when and how many events "
                     "wait: `outboxctl events blocked`, the console's Blocked page or GET "
                     "/api/v1/events/blocked.")},
        {"open",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Open the blocking event (samples) and read its error; failed-events has the "
                           "cause-specific runbook for its group.")},
        {"requeue",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Fix the cause, then requeue the blocking events (prepared below): they are sent first, "
             "and the waiting events of their aggregates follow in order.")},
        {"dead",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "If a blocking event must never be sent, mark it DEAD (prepared below): the waiting events "
             "of its aggregate are then sent after it, without it. Make sure the consumers can live "
             "with the gap in that aggregate's history.")},
    };
    return r;
}

} // namespace outbox
