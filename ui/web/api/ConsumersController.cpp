// /api/v1/consumers: each consumer's progress, backlog and (with a bootstrap) broker lag.
#include "core/consumer/ConsumerOverview.h"
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/Controllers.h"

namespace outbox::web {

void ConsumersController::list(ApiContext& api, const ApiCall& call, ApiDone done)
{
    ConsumerOverviewQuery::Options options;
    options.consumerName = queryValue(call.query, QStringLiteral("consumer"));
    auto olderThan = queryNumber(call.query, QStringLiteral("older_than_ms"), options.unconsumedOlderThanMs,
                                 0, std::numeric_limits<qint64>::max(),
                                 tr("older_than_ms must be a non-negative number of milliseconds"));
    if (!olderThan)
        return done(WebReply::fromError(olderThan.error()));
    options.unconsumedOlderThanMs = *olderThan;
    const QString reconcile = queryValue(call.query, QStringLiteral("reconcile"));
    if (call.query.hasQueryItem(QStringLiteral("reconcile")) && reconcile != QLatin1String("true") &&
        reconcile != QLatin1String("false"))
        return done(WebReply::error(400, tr("reconcile must be true or false")));
    if (!reconcile.isEmpty())
        options.reconcile = reconcile == QLatin1String("true");
    options.lag = api.consumerLag;
    api.query([options](Database& db) { return ConsumerOverviewQuery(db).load(options); },
              [masker = api.maskerFor(call.principal)](const auto& overview) {
                  QJsonObject o = overview.toJson();
                  if (o.contains(QStringLiteral("lag_error")))
                      o[QStringLiteral("lag_error")] =
                          masker.maskText(o.value(QStringLiteral("lag_error")).toString());
                  return o;
              },
              std::move(done));
}

} // namespace outbox::web
