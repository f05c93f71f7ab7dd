#pragma once

#include "ui/web/ApiToken.h"

#include <QByteArray>
#include <QString>
#include <QUrlQuery>

namespace outbox::web {

// What the API needs of one HTTP request, copied out of the HTTP request so that it can
// travel to a database thread.
struct ApiCall
{
    bool post = false;
    bool del = false;   // DELETE (cancels a job)
    bool patch = false; // PATCH (edits a dead letter)
    QString path;       // e.g. /api/v1/events/42
    QUrlQuery query;
    QByteArray body;
    Principal principal;
};

} // namespace outbox::web
