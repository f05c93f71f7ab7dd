#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <memory>

typedef struct _cjose_jwk_int cjose_jwk_t;

namespace outbox::web {

// Checks a JWT access token (JWS compact form) against the issuer's public keys with cjose
// (Debian's libcjose: JWK import, JWS verification): the algorithm from an allow-list of
// public-key algorithms only (`none` and HS* never), a key of the JWKS with the token's `kid` and
// a type that fits the algorithm, then `iss`, `aud`, `exp`, `nbf` and `iat` with a small skew.
// No signature is checked by hand. Not thread-safe: serve uses it on its own thread.
class JwtVerifier
{
public:
    struct Expected
    {
        QString issuer;
        QString audience;
        QStringList algorithms;
        qint64 clockSkewSeconds = 30;
    };
    struct Outcome
    {
        enum Kind {
            Valid,
            Refused,   // why says which check failed (never a part of the token)
            UnknownKey // well formed, but no key has its kid: refetch the JWKS, then ask again
        };
        Kind kind = Refused;
        QJsonObject claims;
        QString why;
    };

    static constexpr qsizetype MaxTokenBytes = 8192;
    static constexpr int MaxKeys = 32;

    explicit JwtVerifier(Expected expected);
    ~JwtVerifier();
    JwtVerifier(const JwtVerifier&) = delete;
    JwtVerifier& operator=(const JwtVerifier&) = delete;

    // Replaces the keys with the signing keys of a JWKS document; false (keys unchanged) when it is
    // not one. Symmetric keys (kty oct) are never taken.
    bool setKeys(const QByteArray& jwks, QString* error = nullptr);
    int keyCount() const { return int(m_keys.size()); }

    Outcome verify(const QByteArray& token, qint64 nowSeconds) const;

    // Three base64url parts: a JWT rather than a static token's secret (which has no dots).
    static bool looksLikeJwt(const QByteArray& token);

private:
    struct KeyRelease
    {
        void operator()(cjose_jwk_t* key) const;
    };
    using Key = std::shared_ptr<cjose_jwk_t>;

    Expected m_expected;
    QHash<QString, Key> m_keys; // by kid ("" for a key without one)
};

} // namespace outbox::web
