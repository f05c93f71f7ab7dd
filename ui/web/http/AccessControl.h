#pragma once

#include "ui/web/http/ApiToken.h"

#include <QVector>
#include <optional>

namespace outbox::web {

// Checks bearer tokens against the configured hashes. The secret itself is hashed at once and
// never stored or logged; comparisons take the same time whatever the mismatch.
class AccessControl
{
public:
    explicit AccessControl(QVector<ApiToken> tokens = {}) : m_tokens(std::move(tokens)) {}

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
};

} // namespace outbox::web
