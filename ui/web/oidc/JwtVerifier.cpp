#include "ui/web/oidc/JwtVerifier.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <cjose/cjose.h>

namespace outbox::web {

namespace {

JwtVerifier::Outcome refused(const QString& why)
{
    JwtVerifier::Outcome o;
    o.kind = JwtVerifier::Outcome::Refused;
    o.why = why;
    return o;
}

// The key type an algorithm needs: RSA for RS*/PS*, EC for ES*.
cjose_jwk_kty_t keyTypeFor(const QString& algorithm)
{
    return algorithm.startsWith(QLatin1String("ES")) ? CJOSE_JWK_KTY_EC : CJOSE_JWK_KTY_RSA;
}

bool audienceMatches(const QJsonValue& aud, const QString& expected)
{
    if (aud.isString())
        return aud.toString() == expected;
    for (const QJsonValue& a : aud.toArray())
        if (a.toString() == expected)
            return true;
    return false;
}

} // namespace

void JwtVerifier::KeyRelease::operator()(cjose_jwk_t* key) const
{
    cjose_jwk_release(key);
}

JwtVerifier::JwtVerifier(Expected expected) : m_expected(std::move(expected)) {}

JwtVerifier::~JwtVerifier() = default;

bool JwtVerifier::looksLikeJwt(const QByteArray& token)
{
    static const QRegularExpression shape(
        QStringLiteral("^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*$"));
    return token.size() <= MaxTokenBytes && token.count('.') == 2 &&
           shape.match(QString::fromLatin1(token)).hasMatch();
}

bool JwtVerifier::setKeys(const QByteArray& jwks, QString* error)
{
    const auto fail = [error](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    QJsonParseError parse{};
    const QJsonDocument doc = QJsonDocument::fromJson(jwks, &parse);
    if (parse.error != QJsonParseError::NoError || !doc.isObject() ||
        !doc.object().value(QStringLiteral("keys")).isArray())
        return fail(QStringLiteral("not a JWKS document (an object with a keys array)"));
    QHash<QString, Key> keys;
    for (const QJsonValue& v : doc.object().value(QStringLiteral("keys")).toArray()) {
        const QJsonObject k = v.toObject();
        const QString kty = k.value(QStringLiteral("kty")).toString();
        if (kty != QLatin1String("RSA") && kty != QLatin1String("EC"))
            continue; // oct keys would let a public document sign
        if (k.value(QStringLiteral("use")).toString() == QLatin1String("enc"))
            continue;
        const QByteArray json = QJsonDocument(k).toJson(QJsonDocument::Compact);
        cjose_err err{};
        cjose_jwk_t* imported = cjose_jwk_import(json.constData(), size_t(json.size()), &err);
        if (!imported)
            continue;
        Key key(imported, KeyRelease());
        keys.insert(k.value(QStringLiteral("kid")).toString(), key);
        if (keys.size() >= MaxKeys)
            break;
    }
    if (keys.isEmpty())
        return fail(QStringLiteral("the JWKS holds no RSA or EC signing key"));
    m_keys = std::move(keys);
    return true;
}

JwtVerifier::Outcome JwtVerifier::verify(const QByteArray& token, qint64 now) const
{
    if (!looksLikeJwt(token))
        return refused(QStringLiteral("not a JWT"));
    // The header first, read as JSON by Qt: the algorithm is decided here, before cjose sees it.
    const QByteArray headerPart = token.left(token.indexOf('.'));
    const QJsonObject header =
        QJsonDocument::fromJson(QByteArray::fromBase64(headerPart, QByteArray::Base64UrlEncoding)).object();
    const QString alg = header.value(QStringLiteral("alg")).toString();
    if (alg.isEmpty() || !m_expected.algorithms.contains(alg))
        return refused(QStringLiteral("the signature algorithm is not accepted"));
    if (header.contains(QStringLiteral("crit")) || header.contains(QStringLiteral("jku")) ||
        header.contains(QStringLiteral("jwk")) || header.contains(QStringLiteral("x5u")))
        return refused(QStringLiteral("the token names its own keys or critical extensions"));
    const QString kid = header.value(QStringLiteral("kid")).toString();
    const auto found = m_keys.constFind(kid);
    if (found == m_keys.cend()) {
        Outcome o;
        o.kind = Outcome::UnknownKey;
        o.why = QStringLiteral("no key of the issuer has the token's kid");
        return o;
    }
    cjose_err err{};
    if (cjose_jwk_get_kty(found->get(), &err) != keyTypeFor(alg))
        return refused(QStringLiteral("the key's type does not fit the algorithm"));
    std::unique_ptr<cjose_jws_t, void (*)(cjose_jws_t*)> jws(
        cjose_jws_import(token.constData(), size_t(token.size()), &err), cjose_jws_release);
    if (!jws)
        return refused(QStringLiteral("not a JWS"));
    // cjose reads the algorithm from the same protected header; make sure it is the one checked.
    cjose_header_t* protectedHeader = cjose_jws_get_protected(jws.get());
    const char* cjoseAlg = protectedHeader ? cjose_header_get(protectedHeader, CJOSE_HDR_ALG, &err) : nullptr;
    if (!cjoseAlg || QString::fromLatin1(cjoseAlg) != alg)
        return refused(QStringLiteral("the signature algorithm is not accepted"));
    if (!cjose_jws_verify(jws.get(), found->get(), &err))
        return refused(QStringLiteral("the signature does not verify"));
    uint8_t* plain = nullptr;
    size_t plainLength = 0;
    if (!cjose_jws_get_plaintext(jws.get(), &plain, &plainLength, &err))
        return refused(QStringLiteral("no claims"));
    const QJsonObject claims =
        QJsonDocument::fromJson(QByteArray(reinterpret_cast<const char*>(plain), qsizetype(plainLength)))
            .object();
    if (claims.isEmpty())
        return refused(QStringLiteral("the claims are not a JSON object"));
    if (claims.value(QStringLiteral("iss")).toString() != m_expected.issuer)
        return refused(QStringLiteral("another issuer"));
    if (!audienceMatches(claims.value(QStringLiteral("aud")), m_expected.audience))
        return refused(QStringLiteral("another audience"));
    const qint64 skew = m_expected.clockSkewSeconds;
    const QJsonValue exp = claims.value(QStringLiteral("exp"));
    if (!exp.isDouble())
        return refused(QStringLiteral("no expiry"));
    if (qint64(exp.toDouble()) + skew < now)
        return refused(QStringLiteral("expired"));
    const QJsonValue nbf = claims.value(QStringLiteral("nbf"));
    if (nbf.isDouble() && qint64(nbf.toDouble()) - skew > now)
        return refused(QStringLiteral("not valid yet"));
    const QJsonValue iat = claims.value(QStringLiteral("iat"));
    if (iat.isDouble() && qint64(iat.toDouble()) - skew > now)
        return refused(QStringLiteral("issued in the future"));
    Outcome o;
    o.kind = Outcome::Valid;
    o.claims = claims;
    return o;
}

} // namespace outbox::web
