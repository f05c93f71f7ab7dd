// /api/v1/fleet: every member of the fleet `serve --fleet FILE` watches, worst first.
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/Controllers.h"
#include "ui/web/live/LatestFleet.h"

namespace outbox::web {

void FleetController::list(ApiContext& api, const ApiCall& call, ApiDone done)
{
    if (!api.fleet)
        return done(WebReply::error(404, tr("this server watches no fleet (serve --fleet FILE)")));
    done(api.fleet->reply(call.query.queryItemValue(QStringLiteral("tag"), QUrl::FullyDecoded),
                          api.maskerFor(call.principal), call.principal));
}

} // namespace outbox::web
