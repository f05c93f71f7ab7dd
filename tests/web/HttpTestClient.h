#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QUrl>

namespace outbox::test {

// Real HTTP over TCP to a server on 127.0.0.1, waited for with a local event loop (the server
// runs on the same thread and keeps answering while we wait).
class HttpTestClient
{
public:
    struct Reply
    {
        int status = 0;
        QByteArray body;
        QByteArray contentType;
        QString networkError;
        QList<QPair<QByteArray, QByteArray>> headers;

        QJsonObject json() const;
        QByteArray header(const QByteArray& name) const;
    };

    explicit HttpTestClient(QUrl base) : m_base(std::move(base)) {}

    Reply get(const QString& pathAndQuery, const QByteArray& token = {});
    Reply post(const QString& path, const QByteArray& body, const QByteArray& token = {});
    Reply del(const QString& path, const QByteArray& token = {});
    Reply patch(const QString& path, const QByteArray& body, const QByteArray& token = {});
    // Any method (HEAD, PUT, …).
    Reply send(const QByteArray& verb, const QString& pathAndQuery, const QByteArray& body,
               const QByteArray& token);
    // For TLS tests against a self-signed certificate.
    void setIgnoreSslErrors(bool ignore) { m_ignoreSslErrors = ignore; }

private:
    QUrl m_base;
    QNetworkAccessManager m_nam;
    bool m_ignoreSslErrors = false;
};

} // namespace outbox::test
