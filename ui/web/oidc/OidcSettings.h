#pragma once

#include "core/config/Config.h"
#include "core/support/Result.h"
#include "ui/web/http/ApiToken.h"

#include <QJsonObject>
#include <QStringList>
#include <QVector>
#include <optional>

namespace outbox::web {

// What one group of the identity provider grants (`[oidc_groups] GROUP = ROLE members=… operator=…`,
// or `LABEL = ROLE group=NAME …` for a name the INI key syntax cannot hold), as a [tokens] entry does.
struct GroupGrant
{
    QString group; // as the provider writes it in the groups claim
    Role role = Role::Viewer;
    MemberScope scope = {};
};

// The [oidc] and [oidc_groups] settings of `outboxctl serve`: where people sign in and what their
// access tokens must look like. Empty issuer: OIDC is off and serve knows static tokens only.
struct OidcSettings
{
    QString issuer;
    QString clientId;
    // A confidential client's secret ([oidc] client_secret, OUTBOX_OIDC_CLIENT_SECRET or the first
    // line of client_secret_file; never a flag): then serve, not the page, exchanges the code and
    // refresh tokens at the token endpoint. Empty: a public client (PKCE only). Never logged.
    QString clientSecret;
    QString audience; // the aud an access token must name; the client id when not set
    QString scopes = QStringLiteral("openid profile");
    QString nameClaim = QStringLiteral("preferred_username");
    QString groupsClaim = QStringLiteral("groups");
    QStringList algorithms = {QStringLiteral("RS256"), QStringLiteral("PS256"), QStringLiteral("ES256")};
    qint64 clockSkewSeconds = 30;
    QVector<GroupGrant> groups;

    bool enabled() const { return !issuer.isEmpty(); }
    bool confidential() const { return !clientSecret.isEmpty(); }

    // The settings of `config`; a bad value is a usage error naming where it came from.
    static Result<OidcSettings> fromConfig(const config::Config& config);
    // "ROLE [group=NAME] [members=S,…] [operator=S,…]" for the entry `label`.
    static Result<GroupGrant> parseGroup(const QString& label, const QString& value);

    // The person behind verified `claims`: the name claim (with the issuer) as the actor, the role
    // and fleet scope from the groups it is in. Nothing when it names no one or no configured group.
    std::optional<Principal> principalFor(const QJsonObject& claims) const;
    // The groups `claims` carry under groupsClaim (a dotted path; an array of strings or one string).
    QStringList groupsOf(const QJsonObject& claims) const;
};

} // namespace outbox::web
