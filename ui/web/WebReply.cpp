#include "ui/web/WebReply.h"

#include <QCoreApplication>
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
    int status = unavailable ? 503 : 500;
    switch (e.kind) {
    case ErrorKind::Usage:
        status = 400;
        break;
    case ErrorKind::NotFound:
        status = 404;
        break;
    case ErrorKind::Conflict:
        status = 409;
        break;
    case ErrorKind::Runtime:
        break;
    }
    // The API's hint: an operation's inputs ("after_id") are the request's field names, named as
    // the action routes name theirs. Configuration keys ("kafka.bootstrap") are the server's
    // business, not the client's.
    if (e.subject.isEmpty() || e.subject.contains(QLatin1Char('.')))
        return error(status, e.message);
    return error(
        status,
        QCoreApplication::translate("outbox::web::WebApi", "%1 (field %2)").arg(e.message, e.subject));
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
