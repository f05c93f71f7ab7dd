// /metrics: the Prometheus exposition of the latest sample, the doctor's findings and the fleet.
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/Controllers.h"
#include "ui/web/live/LatestFindings.h"
#include "ui/web/live/LatestFleet.h"
#include "ui/web/live/LatestSnapshot.h"
#include "ui/web/live/PrometheusExposition.h"

namespace outbox::web {

void MetricsController::exposition(ApiContext& api, const ApiCall& call, ApiDone done)
{
    // A fleet: every member's series with its database label (the database beside it is one of
    // them when --member names it).
    if (api.fleet) {
        if (!api.fleet->has())
            return done(WebReply::error(503, ApiContext::tr("the fleet has not been sampled yet")));
        PrometheusExposition::Context context;
        context.relayStaleAfterMs = api.relayStaleAfterMs;
        return done(
            WebReply::bytes(PrometheusExposition::renderFleet(api.fleet->visibleTo(call.principal), context),
                            PrometheusExposition::ContentType));
    }
    // A token scoped to fleet members sees nothing of a server without a fleet.
    if (call.principal.scope.restricted())
        return done(WebReply::error(403, ApiContext::tr("this token is scoped to fleet members; this server "
                                                        "has no fleet")));
    if (auto unavailable = api.latest.unavailable())
        return done(*unavailable);
    PrometheusExposition::Context context;
    context.sampleAgeMs = api.latest.ageMs();
    context.relayStaleAfterMs = api.relayStaleAfterMs;
    context.samplerHealthy = api.latest.healthy();
    QByteArray text = PrometheusExposition::render(api.latest.snapshot(), context);
    if (api.findings)
        text += api.findings->exposition();
    done(WebReply::bytes(text, PrometheusExposition::ContentType));
}

} // namespace outbox::web
