#include "ui/web/oidc/IdentityProvider.h"

#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

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

QJsonObject IdentityProvider::pageSettings() const
{
    return QJsonObject{
        {QStringLiteral("issuer"), m_settings.issuer},
        {QStringLiteral("client_id"), m_settings.clientId},
        {QStringLiteral("scopes"), m_settings.scopes},
        {QStringLiteral("authorization_endpoint"),
         m_discovery.value(QStringLiteral("authorization_endpoint")).toString()},
        {QStringLiteral("token_endpoint"), m_discovery.value(QStringLiteral("token_endpoint")).toString()},
        {QStringLiteral("end_session_endpoint"),
         m_discovery.value(QStringLiteral("end_session_endpoint")).toString()},
        {QStringLiteral("ready"), ready()},
    };
}

} // namespace outbox::web
