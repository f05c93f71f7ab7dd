#pragma once

#include "core/support/Result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>

namespace outbox::web {

// An HTTP answer as plain data, so that it can be built on a database thread and sent on the
// server's thread. Errors become status codes here and nowhere else.
struct WebReply
{
    int status = 200;
    QByteArray contentType = QByteArrayLiteral("application/json");
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers;

    static WebReply json(const QJsonObject& object, int status = 200);
    static WebReply bytes(QByteArray body, QByteArray contentType, int status = 200);
    // {"error": "<one sentence>", "status": N}
    static WebReply error(int status, const QString& message);
    // The one mapping of ErrorKind to HTTP: Usage 400, NotFound 404, Conflict 409, Runtime 500
    // (503 when `unavailable`, i.e. the database could not be reached at all). An error about one
    // of the request's fields (Error::subject) names it: "… (field after_id)".
    static WebReply fromError(const Error& error, bool unavailable = false);

    // The whole HTTP/1.1 response: status line, headers (Content-Length, no-store, nosniff and
    // Connection) and body.
    QByteArray toHttp(bool keepAlive) const;
};

} // namespace outbox::web
