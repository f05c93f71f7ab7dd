// /api/v1/events: the outbox rows, one event with its trail, the aggregates held back in ordering
// mode, and the audited requeue and mark-dead actions.
#include "core/db/BlockedAggregates.h"
#include "core/db/EventStore.h"
#include "core/ops/EventTrail.h"
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/Controllers.h"

namespace outbox::web {

void EventsController::list(ApiContext& api, const ApiCall& call, ApiDone done)
{
    // Header and payload matches may hold commas: each parameter is one match.
    const QJsonObject filterJson =
        queryObject(call.query, EventFilter::keys(),
                    {QStringLiteral("status"), QStringLiteral("header"), QStringLiteral("payload")});
    auto filter = EventFilter::fromJson(filterJson);
    if (!filter)
        return done(WebReply::fromError(filter.error()));
    const QString order = queryValue(call.query, QStringLiteral("order"));
    if (!order.isEmpty() && order != QLatin1String("asc") && order != QLatin1String("desc"))
        return done(WebReply::fromError(Error::usage(tr("order must be asc or desc"))));

    EventPageRequest request;
    request.filter = *filter;
    request.limit = call.page.limit;
    request.afterId = call.page.afterId;
    request.ascending = order == QLatin1String("asc");
    request.payloadPreviewChars = ListPreviewChars;
    const PayloadMasker masker = api.maskerFor(call.principal);
    if (Status s = refuseMaskedSearch(masker, !filter->errorText.isEmpty() || !filter->headers.isEmpty() ||
                                                  !filter->payload.isEmpty());
        !s)
        return done(WebReply::fromError(s.error()));
    // A trace id is no secret (it travels in every request the trace spans): viewers search by it,
    // unless the configuration masks the traceparent header itself.
    if (Status s = refuseMaskedTraceSearch(masker, !filter->traceId.isEmpty()); !s)
        return done(WebReply::fromError(s.error()));
    api.queryPage(
        QStringLiteral("events"), [request](Database& db) { return EventStore(db).list(request); },
        &EventPage::events, call.principal, std::move(done));
}

void EventsController::blocked(ApiContext& api, const ApiCall& call, ApiDone done)
{
    BlockedAggregatesQuery query;
    auto limit = queryNumber(call.query, QStringLiteral("limit"), query.limit, 1, BlockedAggregates::MaxLimit,
                             tr("limit must be a number between 1 and %1").arg(BlockedAggregates::MaxLimit));
    auto minWait =
        queryNumber(call.query, QStringLiteral("min_wait_ms"), query.minWaitMs, 0,
                    std::numeric_limits<qint64>::max(), tr("min_wait_ms must be a non-negative number"));
    if (!limit || !minWait)
        return done(WebReply::fromError(!limit ? limit.error() : minWait.error()));
    query.limit = int(*limit);
    query.minWaitMs = *minWait;
    api.query([query](Database& db) { return BlockedAggregates(db).list(query); },
              [masker = api.maskerFor(call.principal)](const auto& blocked) {
                  QJsonObject o = blocked.toJson();
                  QJsonArray rows;
                  for (const QJsonValue& v : o.value(QStringLiteral("aggregates")).toArray())
                      rows.append(masker.maskRow(v.toObject())); // the error text
                  o[QStringLiteral("aggregates")] = rows;
                  return o;
              },
              std::move(done));
}

void EventsController::show(ApiContext& api, const ApiCall& call, ApiDone done)
{
    api.queryRow(
        [idOrEventId = call.args.value(0)](Database& db) { return EventStore(db).find(idOrEventId); },
        call.principal, std::move(done));
}

void EventsController::trace(ApiContext& api, const ApiCall& call, ApiDone done)
{
    // The event, and every step's summary and details (errors, audit reasons, filters), masked.
    api.queryRow(
        [idOrEventId = call.args.value(0)](Database& db) { return EventTrail::build(db, idOrEventId); },
        call.principal, std::move(done));
}

} // namespace outbox::web
