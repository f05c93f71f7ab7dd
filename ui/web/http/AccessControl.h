#pragma once

#include "ui/web/http/ApiToken.h"

#include <QVector>
#include <optional>

namespace outbox::web {

class IdentityProvider;

// Checks bearer tokens against the configured hashes. The secret itself is hashed at once and
// never stored or logged; comparisons take the same time whatever the mismatch. With an identity
// provider, a JWT is checked by it instead (static tokens keep working beside it, for machines).
class AccessControl
{
public:
    explicit AccessControl(QVector<ApiToken> tokens = {}) : m_tokens(std::move(tokens)) {}

    // What a token turned out to be: a principal, nothing, or a JWT signed with a key the provider's
    // cached set does not have yet (ask again after IdentityProvider::refreshKeys()).
    struct Check
    {
        std::optional<Principal> principal;
        bool unknownKey = false;
    };

    void setIdentityProvider(const IdentityProvider* provider) { m_provider = provider; }
    Check check(const QByteArray& secret) const;
    Check checkAuthorizationHeader(const QByteArray& header) const;

    // Lower-case hex SHA-256 of a token secret, as written in the configuration file.
    static QByteArray hashToken(const QByteArray& secret);
    // A fresh random secret (32 bytes, base64url) for `outboxctl serve --new-token`.
    static QByteArray generateSecret();

    std::optional<Principal> authenticate(const QByteArray& secret) const;
    // From an "Authorization: Bearer SECRET" header value; empty or malformed gives nothing.
    std::optional<Principal> fromAuthorizationHeader(const QByteArray& header) const;
    bool isEmpty() const { return m_tokens.isEmpty(); }

private:
    QVector<ApiToken> m_tokens;
    const IdentityProvider* m_provider = nullptr;
};

} // namespace outbox::web
