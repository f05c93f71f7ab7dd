#include "tests/web/HttpTestClient.h"

#include <QEventLoop>
#include <QJsonDocument>
#include <QNetworkReply>
#include <QTimer>

namespace outbox::test {

QJsonObject HttpTestClient::Reply::json() const
{
    return QJsonDocument::fromJson(body).object();
}

QByteArray HttpTestClient::Reply::header(const QByteArray& name) const
{
    for (const auto& [key, value] : headers)
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    return {};
}

HttpTestClient::Reply HttpTestClient::get(const QString& pathAndQuery, const QByteArray& token)
{
    return send("GET", pathAndQuery, {}, token);
}

HttpTestClient::Reply HttpTestClient::post(const QString& path, const QByteArray& body,
                                           const QByteArray& token)
{
    return send("POST", path, body, token);
}

HttpTestClient::Reply HttpTestClient::del(const QString& path, const QByteArray& token)
{
    return send("DELETE", path, {}, token);
}

HttpTestClient::Reply HttpTestClient::patch(const QString& path, const QByteArray& body,
                                            const QByteArray& token)
{
    return send("PATCH", path, body, token);
}

HttpTestClient::Reply HttpTestClient::send(const QByteArray& verb, const QString& pathAndQuery,
                                           const QByteArray& body, const QByteArray& token)
{
    QNetworkRequest request(m_base.resolved(QUrl(pathAndQuery)));
    if (!token.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + token);
    if (verb == "POST" || verb == "PATCH")
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply* reply = m_nam.sendCustomRequest(request, verb, body);
    if (m_ignoreSslErrors)
        reply->ignoreSslErrors();
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(30000, &loop, &QEventLoop::quit);
    loop.exec();
    Reply r;
    if (!reply->isFinished()) {
        r.networkError = QStringLiteral("timed out");
        reply->abort();
    }
    r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    r.body = reply->readAll();
    r.contentType = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
    for (const auto& pair : reply->rawHeaderPairs())
        r.headers << qMakePair(pair.first, pair.second);
    if (reply->error() != QNetworkReply::NoError && r.status == 0)
        r.networkError = reply->errorString();
    reply->deleteLater();
    return r;
}

} // namespace outbox::test
