#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <optional>

namespace outbox::web {

// What a token may do: viewers read, operators also change.
enum class Role { Viewer, Operator };

// Which members of a fleet a token sees and where it is an operator (`[tokens]` entries
// `NAME = ROLE:SHA256HEX members=SELECTORS operator=SELECTORS`); a selector is a member's name or
// one of its tags (team=payments, or a bare word).
struct MemberScope
{
    QStringList members;    // empty: every member; else only the members a selector matches
    QStringList operatorOn; // members where a viewer's token is an operator's

    static bool matches(const QStringList& selectors, const QString& member, const QStringList& tags)
    {
        for (const QString& s : selectors)
            if (s == member || tags.contains(s))
                return true;
        return false;
    }
    bool restricted() const { return !members.isEmpty(); }
};

// One configured token: only the SHA-256 of the secret is kept, in the file and in memory.
struct ApiToken
{
    QString name; // the actor in the audit log
    Role role = Role::Viewer;
    QByteArray sha256Hex;
    MemberScope scope = {};
};

// Who made a request. Anonymous only where the dashboard is public (read-only).
struct Principal
{
    QString name; // the actor in the audit log: a token's name, or "person (issuer)" signed in with OIDC
    Role role = Role::Viewer;
    bool anonymous = false;
    // Signed in with the identity provider: the person's claim, the token's issuer and when the
    // token expires (seconds since the epoch); empty and 0 for static tokens.
    QString person;
    QString issuer;
    qint64 expiresAt = 0;

    MemberScope scope = {};
    // Its role on the fleet member a request is for, when Api has decided it (operator= makes a
    // viewer's token an operator there). It decides what the token may change, never what it may
    // see: masking follows the token's own `role` (issue 38).
    std::optional<Role> memberRole = std::nullopt;

    bool mayChange() const { return !anonymous && memberRole.value_or(role) == Role::Operator; }
    // Whether it sees database text unmasked: an operator's own token only.
    bool seesUnmasked() const { return !anonymous && role == Role::Operator; }
    // An operator somewhere: its own role, or operator= on some members.
    bool mayChangeSomewhere() const { return mayChange() || (!anonymous && !scope.operatorOn.isEmpty()); }
    // Whether it sees the fleet member at all (on the wall, /api/v1/fleet, /metrics, /ws, its routes).
    bool sees(const QString& member, const QStringList& tags) const
    {
        return !scope.restricted() || MemberScope::matches(scope.members, member, tags);
    }
    // Its role on a member it sees; nothing when it does not see it.
    std::optional<Role> roleOn(const QString& member, const QStringList& tags) const
    {
        if (!sees(member, tags))
            return std::nullopt;
        if (role == Role::Operator || MemberScope::matches(scope.operatorOn, member, tags))
            return Role::Operator;
        return Role::Viewer;
    }
};

} // namespace outbox::web
