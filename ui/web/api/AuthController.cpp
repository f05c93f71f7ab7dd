// /api/v1/auth: how the pages sign people in (static tokens, or the identity provider's settings).
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/Controllers.h"
#include "ui/web/oidc/IdentityProvider.h"

namespace outbox::web {

void AuthController::settings(ApiContext& api, const ApiCall&, ApiDone done)
{
    if (!api.identity)
        return done(WebReply::json(QJsonObject{{QStringLiteral("oidc"), false}}));
    QJsonObject o = api.identity->pageSettings();
    o[QStringLiteral("oidc")] = true;
    done(WebReply::json(o));
}

} // namespace outbox::web
