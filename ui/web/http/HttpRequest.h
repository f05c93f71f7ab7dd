#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrlQuery>

namespace outbox::web {

// One HTTP/1.1 request as BoundedHttpServer parsed it: the head first (what the head check
// sees), then the body once it has been read within the limits.
struct HttpRequest
{
    QByteArray method; // "GET", "POST", …
    QByteArray target; // as sent: path and query
    QString path;      // percent-decoded
    QUrlQuery query;
    QList<QPair<QByteArray, QByteArray>> headers;
    qint64 contentLength = -1; // -1: none announced
    bool chunked = false;
    bool webSocketUpgrade = false; // Upgrade: websocket on a GET
    QByteArray body;
    QHostAddress peer;
    bool tls = false;

    // The first value of a header, compared case-insensitively; empty when absent.
    QByteArray header(const QByteArray& name) const
    {
        for (const auto& h : headers)
            if (h.first.compare(name, Qt::CaseInsensitive) == 0)
                return h.second;
        return {};
    }
    bool hasHeader(const QByteArray& name) const
    {
        for (const auto& h : headers)
            if (h.first.compare(name, Qt::CaseInsensitive) == 0)
                return true;
        return false;
    }
    bool hasBody() const { return chunked || contentLength > 0; }
};

} // namespace outbox::web
