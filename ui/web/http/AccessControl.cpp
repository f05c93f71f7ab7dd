#include "ui/web/http/AccessControl.h"

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

std::optional<Principal> AccessControl::authenticate(const QByteArray& secret) const
{
    if (secret.isEmpty())
        return std::nullopt;
    const QByteArray hash = hashToken(secret);
    std::optional<Principal> found;
    for (const ApiToken& t : m_tokens) {
        // Compare against every entry so the time does not tell which one matched.
        if (equalInConstantTime(hash, t.sha256Hex) && !found)
            found = Principal{t.name, t.role, false, t.scope};
    }
    return found;
}

std::optional<Principal> AccessControl::fromAuthorizationHeader(const QByteArray& header) const
{
    const QByteArray trimmed = header.trimmed();
    static const QByteArray scheme = QByteArrayLiteral("bearer ");
    if (trimmed.size() <= scheme.size() || trimmed.left(scheme.size()).toLower() != scheme)
        return std::nullopt;
    return authenticate(trimmed.mid(scheme.size()).trimmed());
}

} // namespace outbox::web
