#include "ui/web/http/AccessControl.h"

#include "ui/web/oidc/IdentityProvider.h"
#include "ui/web/oidc/JwtVerifier.h"

#include <QCryptographicHash>
#include <QRandomGenerator>

namespace outbox::web {

namespace {

bool equalInConstantTime(const QByteArray& a, const QByteArray& b)
{
    if (a.size() != b.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a.at(i) ^ b.at(i));
    return diff == 0;
}

} // namespace

QByteArray AccessControl::hashToken(const QByteArray& secret)
{
    return QCryptographicHash::hash(secret, QCryptographicHash::Sha256).toHex();
}

QByteArray AccessControl::generateSecret()
{
    quint32 words[8];
    QRandomGenerator::system()->fillRange(words);
    const QByteArray bytes(reinterpret_cast<const char*>(words), sizeof words);
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

AccessControl::Check AccessControl::check(const QByteArray& secret) const
{
    Check c;
    if (m_provider && JwtVerifier::looksLikeJwt(secret)) {
        const IdentityProvider::Verdict v = m_provider->authenticate(secret);
        c.principal = v.principal;
        c.unknownKey = v.unknownKey;
        return c;
    }
    c.principal = authenticate(secret);
    return c;
}

AccessControl::Check AccessControl::checkAuthorizationHeader(const QByteArray& header) const
{
    const QByteArray trimmed = header.trimmed();
    static const QByteArray scheme = QByteArrayLiteral("bearer ");
    if (trimmed.size() <= scheme.size() || trimmed.left(scheme.size()).toLower() != scheme)
        return {};
    return check(trimmed.mid(scheme.size()).trimmed());
}

std::optional<Principal> AccessControl::authenticate(const QByteArray& secret) const
{
    if (secret.isEmpty())
        return std::nullopt;
    if (m_provider && JwtVerifier::looksLikeJwt(secret))
        return m_provider->authenticate(secret).principal;
    const QByteArray hash = hashToken(secret);
    std::optional<Principal> found;
    for (const ApiToken& t : m_tokens) {
        // Compare against every entry so the time does not tell which one matched.
        if (equalInConstantTime(hash, t.sha256Hex) && !found) {
            Principal p;
            p.name = t.name;
            p.role = t.role;
            p.scope = t.scope;
            found = p;
        }
    }
    return found;
}

std::optional<Principal> AccessControl::fromAuthorizationHeader(const QByteArray& header) const
{
    return checkAuthorizationHeader(header).principal;
}

} // namespace outbox::web
