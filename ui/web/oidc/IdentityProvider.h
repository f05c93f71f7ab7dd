#pragma once

#include "ui/web/http/ApiToken.h"
#include "ui/web/oidc/JwtVerifier.h"
#include "ui/web/oidc/OidcSettings.h"

#include <QDateTime>
#include <QJsonObject>
#include <QObject>
#include <QTimer>
#include <QUrl>
#include <QUrlQuery>
#include <functional>
#include <optional>

class QNetworkAccessManager;
class QNetworkReply;

namespace outbox::web {

// The identity provider as serve sees it: its discovery document and signing keys, fetched with
// Qt Network off the request path and cached (a new fetch every RefreshIntervalMs, sooner when a
// token names a key it does not know: at most one fetch at a time and one such fetch per
// MinUnknownKeyRefetchMs, so a stream of forged kids costs one request to the provider), and
// the check of an access token: the JwtVerifier's, then the person and their groups.
// Answers are bounded (MaxDocumentBytes, TimeoutMs, no redirects); a failed fetch is tried again
// (FirstRetryMs doubling to MaxRetryMs) and keeps the keys it had. Never logs what it fetched.
class IdentityProvider : public QObject
{
    Q_OBJECT

public:
    static constexpr qint64 MaxDocumentBytes = 256 * 1024;
    static constexpr int TimeoutMs = 5000;
    static constexpr int RefreshIntervalMs = 15 * 60 * 1000;
    static constexpr int MinUnknownKeyRefetchMs = 10 * 1000;
    static constexpr int FirstRetryMs = 1000; // doubling up to MaxRetryMs while the provider fails
    static constexpr int MaxRetryMs = 60 * 1000;
    static constexpr int MaxExchangesInFlight = 16; // codes and refresh tokens posted at once

    struct Verdict
    {
        std::optional<Principal> principal;
        bool unknownKey = false; // ask again after refreshKeys()
        QString why;             // why it was refused (never a part of the token)
    };

    explicit IdentityProvider(OidcSettings settings, QObject* parent = nullptr);
    ~IdentityProvider() override;

    const OidcSettings& settings() const { return m_settings; }
    // Fetches the discovery document and the keys, then keeps them fresh.
    void start();
    bool ready() const { return m_verifier.keyCount() > 0; }

    Verdict authenticate(const QByteArray& token) const;
    // Fetches the keys again (bounded as above) and calls `done` on this object's thread when that
    // is over, whatever came of it (at once when a fetch is not allowed yet).
    void refreshKeys(std::function<void()> done);

    // What the pages need to sign in (GET /api/v1/auth): issuer, client id, scopes, endpoints, and
    // who exchanges codes: the page itself (a public client) or this server (a confidential one).
    QJsonObject pageSettings() const;
    // The origin the pages may connect to besides the server (the token endpoint's, for a public
    // client); empty for a confidential client, whose pages talk to the server only.
    QString pageConnectOrigin() const;

    // How an exchange at the token endpoint ended.
    struct Exchange
    {
        enum Kind {
            Tokens,        // `tokens`: access_token, token_type, expires_in and refresh_token if any
            Refused,       // the provider refused the code or refresh token (`error`: its code)
            ClientRefused, // the provider refused this server's client id or secret
            Unavailable    // no answer, a malformed one, or too many exchanges at once
        };
        Kind kind = Unavailable;
        QJsonObject tokens;
        QString error; // the provider's error code ([a-z_]), never its description
    };
    // A confidential client's exchange (POST /api/v1/auth/token): posts `grant` (grant_type
    // authorization_code with code, code_verifier and redirect_uri, or refresh_token with
    // refresh_token) with the client id and secret to the token endpoint, as client_secret_basic or,
    // when the discovery document lists only that, client_secret_post; bounded as the key fetches.
    // `done` is called once, on this object's thread. Nothing of the grant or the answer is logged.
    void exchange(const QUrlQuery& grant, std::function<void(const Exchange&)> done);

signals:
    void keysChanged();

private:
    void fetchDiscovery();
    void fetchKeys();
    QNetworkReply* get(const QUrl& url);
    void finishRefresh();
    void failed(const QString& what);

    OidcSettings m_settings;
    JwtVerifier m_verifier;
    QNetworkAccessManager* m_network = nullptr;
    QJsonObject m_discovery;
    QUrl m_jwksUri;
    bool m_fetching = false;
    int m_retryMs = FirstRetryMs;
    QDateTime m_lastUnknownKeyFetch;
    QVector<std::function<void()>> m_waiting;
    int m_exchanges = 0;
    QTimer m_refresh;
};

} // namespace outbox::web
