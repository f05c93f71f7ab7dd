#pragma once

#include "ui/web/api/ApiInput.h"
#include "ui/web/http/ApiToken.h"
#include "ui/web/http/WebReply.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QUrlQuery>
#include <functional>

namespace outbox::web {

// What the API needs of one HTTP request, copied out of the HTTP request so that it can
// travel to a database thread.
struct ApiCall
{
    QByteArray method; // GET, POST, PATCH or DELETE
    QString path;      // e.g. /api/v1/events/42 (also for /api/v1/members/orders/events/42)
    QString member;    // the fleet member of /api/v1/members/{name}/…; empty: the server's database
    QUrlQuery query;
    QByteArray body;
    Principal principal;
    // The path's {parameters} in the order of the route's pattern (ApiRoutes fills them in).
    QStringList args;
    // limit and after_id, read once for every route that pages (one that takes after_id).
    Page page;
};

// How a controller answers: once, on the server's thread.
using ApiDone = std::function<void(const WebReply&)>;

} // namespace outbox::web
