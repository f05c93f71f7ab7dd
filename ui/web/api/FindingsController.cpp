// /api/v1/findings: the doctor's latest report, as the server's monitor ran it.
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/Controllers.h"
#include "ui/web/live/LatestFindings.h"

namespace outbox::web {

void FindingsController::show(ApiContext& api, const ApiCall& call, ApiDone done)
{
    if (!api.findings)
        return done(WebReply::error(404, tr("there is nothing at %1").arg(call.path)));
    done(api.findings->reply(api.maskerFor(call.principal)));
}

} // namespace outbox::web
