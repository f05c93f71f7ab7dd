#include "ui/web/http/WebReply.h"

#include <QCoreApplication>
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
    return error(status,
                 QCoreApplication::translate("outbox::web::Api", "%1 (field %2)").arg(e.message, e.subject));
}

namespace {

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 202:
        return "Accepted";
    case 301:
        return "Moved Permanently";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 413:
        return "Content Too Large";
    case 414:
        return "URI Too Long";
    case 421:
        return "Misdirected Request";
    case 426:
        return "Upgrade Required";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 503:
        return "Service Unavailable";
    default:
        return status < 400 ? "OK" : status < 500 ? "Bad Request" : "Internal Server Error";
    }
}

// Header values are built by the server, never copied from a request; still, no line breaks.
QByteArray oneLine(QByteArray value)
{
    return value.replace('\r', ' ').replace('\n', ' ');
}

} // namespace

QByteArray WebReply::toHttp(bool keepAlive) const
{
    QByteArray out;
    out.reserve(256 + body.size());
    out += "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    out += "Content-Type: " + oneLine(contentType) + "\r\n";
    out += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    out += "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n";
    for (const auto& h : headers)
        out += oneLine(h.first) + ": " + oneLine(h.second) + "\r\n";
    out += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n";
    out += body;
    return out;
}

} // namespace outbox::web
