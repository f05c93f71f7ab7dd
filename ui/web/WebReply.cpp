#include "ui/web/WebReply.h"

#include <QHttpServerResponse>
#include <QJsonDocument>

namespace outbox::web {

WebReply WebReply::json(const QJsonObject& object, int status)
{
    return bytes(QJsonDocument(object).toJson(QJsonDocument::Compact), QByteArrayLiteral("application/json"),
                 status);
}

WebReply WebReply::bytes(QByteArray body, QByteArray contentType, int status)
{
    WebReply r;
    r.status = status;
    r.body = std::move(body);
    r.contentType = std::move(contentType);
    return r;
}

WebReply WebReply::error(int status, const QString& message)
{
    return json(QJsonObject{{QStringLiteral("error"), message}, {QStringLiteral("status"), status}}, status);
}

WebReply WebReply::fromError(const Error& e, bool unavailable)
{
    switch (e.kind) {
    case ErrorKind::Usage:
        return error(400, e.message);
    case ErrorKind::NotFound:
        return error(404, e.message);
    case ErrorKind::Conflict:
        return error(409, e.message);
    case ErrorKind::Runtime:
        break;
    }
    return error(unavailable ? 503 : 500, e.message);
}

QHttpServerResponse WebReply::toResponse() const
{
    QHttpServerResponse response(contentType, body, static_cast<QHttpServerResponse::StatusCode>(status));
    response.addHeader(QByteArrayLiteral("Cache-Control"), QByteArrayLiteral("no-store"));
    response.addHeader(QByteArrayLiteral("X-Content-Type-Options"), QByteArrayLiteral("nosniff"));
    for (const auto& h : headers)
        response.addHeader(h.first, h.second);
    return response;
}

} // namespace outbox::web
