#include "ui/web/oidc/IdentityProvider.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRegularExpression>

namespace outbox::web {

IdentityProvider::IdentityProvider(OidcSettings settings, QObject* parent)
    : QObject(parent), m_settings(std::move(settings)),
      m_verifier(JwtVerifier::Expected{m_settings.issuer, m_settings.audience, m_settings.algorithms,
                                       m_settings.clockSkewSeconds}),
      m_network(new QNetworkAccessManager(this))
{
    m_network->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    m_refresh.setSingleShot(true);
    connect(&m_refresh, &QTimer::timeout, this, [this] {
        if (!m_fetching) {
            m_fetching = true;
            fetchDiscovery();
        }
    });
}

IdentityProvider::~IdentityProvider() = default;

void IdentityProvider::start()
{
    m_refresh.start(0);
}

QNetworkReply* IdentityProvider::get(const QUrl& url)
{
    QNetworkRequest request(url);
    request.setTransferTimeout(TimeoutMs);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    request.setRawHeader(QByteArrayLiteral("Accept"), QByteArrayLiteral("application/json"));
    QNetworkReply* reply = m_network->get(request);
    // Bounded: an answer larger than a key set can be is dropped while it arrives.
    connect(reply, &QNetworkReply::downloadProgress, reply, [reply](qint64 received, qint64 total) {
        if (received > MaxDocumentBytes || total > MaxDocumentBytes)
            reply->abort();
    });
    return reply;
}

void IdentityProvider::fetchDiscovery()
{
    QNetworkReply* reply = get(QUrl(m_settings.issuer + QStringLiteral("/.well-known/openid-configuration")));
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        const QByteArray body = reply->readAll();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (reply->error() != QNetworkReply::NoError || status != 200 || body.size() > MaxDocumentBytes)
            return failed(QStringLiteral("the discovery document"));
        const QJsonObject doc = QJsonDocument::fromJson(body).object();
        // The document must be the issuer's own (OpenID Connect Discovery 1.0, section 4.3).
        QString issuer = doc.value(QStringLiteral("issuer")).toString();
        if (issuer.endsWith(QLatin1Char('/')))
            issuer.chop(1);
        const QUrl jwks(doc.value(QStringLiteral("jwks_uri")).toString());
        if (issuer != m_settings.issuer || !jwks.isValid() ||
            (jwks.scheme() != QLatin1String("https") &&
             QUrl(m_settings.issuer).scheme() != QLatin1String("http")))
            return failed(QStringLiteral("the discovery document (issuer or jwks_uri)"));
        m_discovery = doc;
        m_jwksUri = jwks;
        fetchKeys();
    });
}

void IdentityProvider::fetchKeys()
{
    QNetworkReply* reply = get(m_jwksUri);
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        const QByteArray body = reply->readAll();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        QString why;
        if (reply->error() != QNetworkReply::NoError || status != 200 || body.size() > MaxDocumentBytes ||
            !m_verifier.setKeys(body, &why))
            return failed(QStringLiteral("the signing keys"));
        qInfo("serve: the identity provider's signing keys: %d", m_verifier.keyCount());
        m_refresh.start(RefreshIntervalMs);
        m_retryMs = FirstRetryMs;
        finishRefresh();
        emit keysChanged();
    });
}

void IdentityProvider::failed(const QString& what)
{
    // The provider's answers are not logged: only what could not be read.
    qWarning("serve: cannot read %s of the identity provider %s; trying again in %d s", qPrintable(what),
             qPrintable(m_settings.issuer), m_retryMs / 1000);
    m_refresh.start(m_retryMs);
    m_retryMs = std::min(m_retryMs * 2, MaxRetryMs);
    finishRefresh();
}

void IdentityProvider::finishRefresh()
{
    m_fetching = false;
    const auto waiting = std::exchange(m_waiting, {});
    for (const auto& done : waiting)
        done();
}

void IdentityProvider::refreshKeys(std::function<void()> done)
{
    if (m_fetching) {
        m_waiting << std::move(done);
        return;
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (m_lastUnknownKeyFetch.isValid() && m_lastUnknownKeyFetch.msecsTo(now) < MinUnknownKeyRefetchMs) {
        QMetaObject::invokeMethod(this, std::move(done), Qt::QueuedConnection);
        return;
    }
    m_lastUnknownKeyFetch = now;
    m_waiting << std::move(done);
    m_fetching = true;
    m_refresh.stop();
    if (m_jwksUri.isValid())
        fetchKeys();
    else
        fetchDiscovery();
}

IdentityProvider::Verdict IdentityProvider::authenticate(const QByteArray& token) const
{
    Verdict v;
    const JwtVerifier::Outcome o = m_verifier.verify(token, QDateTime::currentSecsSinceEpoch());
    if (o.kind == JwtVerifier::Outcome::UnknownKey) {
        v.unknownKey = true;
        v.why = o.why;
        return v;
    }
    if (o.kind != JwtVerifier::Outcome::Valid) {
        v.why = o.why;
        return v;
    }
    v.principal = m_settings.principalFor(o.claims);
    if (!v.principal) {
        v.why = QStringLiteral("the token names nobody or no configured group");
        return v;
    }
    v.principal->expiresAt = qint64(o.claims.value(QStringLiteral("exp")).toDouble());
    return v;
}

QString IdentityProvider::pageConnectOrigin() const
{
    if (m_settings.confidential())
        return {};
    const QUrl endpoint(m_discovery.value(QStringLiteral("token_endpoint")).toString());
    if (!endpoint.isValid() || endpoint.host().isEmpty())
        return {};
    return endpoint.adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment)
        .toString(QUrl::FullyEncoded);
}

void IdentityProvider::exchange(const QUrlQuery& grant, std::function<void(const Exchange&)> done)
{
    const QUrl endpoint(m_discovery.value(QStringLiteral("token_endpoint")).toString());
    const bool secure = endpoint.scheme() == QLatin1String("https") ||
                        (endpoint.scheme() == QLatin1String("http") &&
                         QUrl(m_settings.issuer).scheme() == QLatin1String("http"));
    if (!m_settings.confidential() || !endpoint.isValid() || endpoint.host().isEmpty() || !secure ||
        m_exchanges >= MaxExchangesInFlight)
        return done(Exchange{});
    // client_secret_basic unless the provider lists only client_secret_post (RFC 8414: absent
    // means client_secret_basic).
    const QJsonArray methods =
        m_discovery.value(QStringLiteral("token_endpoint_auth_methods_supported")).toArray();
    const bool post = !methods.isEmpty() && !methods.contains(QStringLiteral("client_secret_basic")) &&
                      methods.contains(QStringLiteral("client_secret_post"));
    QUrlQuery form = grant;
    QNetworkRequest request(endpoint);
    request.setTransferTimeout(TimeoutMs);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    request.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);
    request.setHeader(QNetworkRequest::ContentTypeHeader,
                      QByteArrayLiteral("application/x-www-form-urlencoded"));
    request.setRawHeader(QByteArrayLiteral("Accept"), QByteArrayLiteral("application/json"));
    if (post) {
        form.addQueryItem(QStringLiteral("client_id"), m_settings.clientId);
        form.addQueryItem(QStringLiteral("client_secret"), m_settings.clientSecret);
    } else {
        // RFC 6749 2.3.1: id and secret form-encoded, then joined by ':' and base64-encoded.
        const QByteArray credentials = QUrl::toPercentEncoding(m_settings.clientId) + ':' +
                                       QUrl::toPercentEncoding(m_settings.clientSecret);
        request.setRawHeader(QByteArrayLiteral("Authorization"), "Basic " + credentials.toBase64());
    }
    // Form encoding: every character outside the unreserved set percent-encoded ('+' too).
    QByteArray body;
    for (const auto& [key, value] : form.queryItems(QUrl::FullyDecoded)) {
        if (!body.isEmpty())
            body += '&';
        body += QUrl::toPercentEncoding(key) + '=' + QUrl::toPercentEncoding(value);
    }
    ++m_exchanges;
    QNetworkReply* reply = m_network->post(request, body);
    connect(reply, &QNetworkReply::downloadProgress, reply, [reply](qint64 received, qint64 total) {
        if (received > MaxDocumentBytes || total > MaxDocumentBytes)
            reply->abort();
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply, done = std::move(done)] {
        reply->deleteLater();
        --m_exchanges;
        const QByteArray answer = reply->readAll();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QJsonObject o = QJsonDocument::fromJson(answer).object();
        Exchange e;
        if (status == 200 && o.value(QStringLiteral("access_token")).isString()) {
            e.kind = Exchange::Tokens;
            for (const QString& key : {QStringLiteral("access_token"), QStringLiteral("token_type"),
                                       QStringLiteral("expires_in"), QStringLiteral("refresh_token")})
                if (o.contains(key))
                    e.tokens.insert(key, o.value(key));
            return done(e);
        }
        static const QRegularExpression code(QStringLiteral("^[a-z_]{1,40}$"));
        const QString error = o.value(QStringLiteral("error")).toString();
        e.error = code.match(error).hasMatch() ? error : QString();
        if (status == 401 || error == QLatin1String("invalid_client")) {
            e.kind = Exchange::ClientRefused;
            // Said once per refusal, for the operator: the provider's code, never the secret.
            qWarning("serve: the identity provider %s refused the client %s and its secret (%s): check "
                     "[oidc] client_secret",
                     qPrintable(m_settings.issuer), qPrintable(m_settings.clientId),
                     qPrintable(e.error.isEmpty() ? QStringLiteral("HTTP %1").arg(status) : e.error));
        } else if (status >= 400 && status < 500 && !e.error.isEmpty()) {
            e.kind = Exchange::Refused;
        }
        done(e);
    });
}

QJsonObject IdentityProvider::pageSettings() const
{
    return QJsonObject{
        {QStringLiteral("token_exchange"),
         m_settings.confidential() ? QStringLiteral("server") : QStringLiteral("page")},
        {QStringLiteral("issuer"), m_settings.issuer},
        {QStringLiteral("client_id"), m_settings.clientId},
        {QStringLiteral("scopes"), m_settings.scopes},
        {QStringLiteral("authorization_endpoint"),
         m_discovery.value(QStringLiteral("authorization_endpoint")).toString()},
        // A confidential client's pages never talk to the token endpoint: the server does.
        {QStringLiteral("token_endpoint"),
         m_settings.confidential() ? QString()
                                   : m_discovery.value(QStringLiteral("token_endpoint")).toString()},
        {QStringLiteral("end_session_endpoint"),
         m_discovery.value(QStringLiteral("end_session_endpoint")).toString()},
        {QStringLiteral("ready"), ready()},
    };
}

} // namespace outbox::web
