// GET /ws without an upgrade. The upgrade itself never reaches a handler: the server hands the
// connection to the dashboard's WebSocket once the head passed (Origin checked, WebServer.cpp).
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/Controllers.h"

namespace outbox::web {

void SocketController::notUpgraded(ApiContext&, const ApiCall& call, ApiDone done)
{
    done(WebReply::error(426, ApiContext::tr("%1 is the dashboard's WebSocket").arg(call.path)));
}

} // namespace outbox::web
