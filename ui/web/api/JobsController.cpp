// /api/v1/jobs: the bulk actions that run as jobs (ActionJobs), their progress and cancelling.
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/Controllers.h"

namespace outbox::web {

void JobsController::list(ApiContext& api, const ApiCall& call, ApiDone done)
{
    const PayloadMasker masker = api.maskerFor(call.principal); // reasons and filters are free text
    QJsonArray jobs;
    for (const QJsonValue& j : api.jobs.list())
        jobs.append(masker.maskRow(j.toObject()));
    done(WebReply::json(QJsonObject{{QStringLiteral("jobs"), jobs}}));
}

void JobsController::show(ApiContext& api, const ApiCall& call, ApiDone done)
{
    const QString id = call.args.value(0);
    auto job = api.jobs.status(id);
    if (!job)
        return done(
            WebReply::error(404, tr("there is no job %1 (finished jobs are kept for an hour)").arg(id)));
    done(WebReply::json(api.maskerFor(call.principal).maskRow(*job)));
}

void JobsController::cancel(ApiContext& api, const ApiCall& call, ApiDone done)
{
    auto cancelled = api.jobs.cancel(call.args.value(0));
    done(cancelled ? WebReply::json(*cancelled, 202) : WebReply::fromError(cancelled.error()));
}

} // namespace outbox::web
