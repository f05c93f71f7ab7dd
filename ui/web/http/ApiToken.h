#pragma once

#include <QByteArray>
#include <QString>

namespace outbox::web {

// What a token may do: viewers read, operators also change.
enum class Role { Viewer, Operator };

// One configured token: only the SHA-256 of the secret is kept, in the file and in memory.
struct ApiToken
{
    QString name; // the actor in the audit log
    Role role = Role::Viewer;
    QByteArray sha256Hex;
};

// Who made a request. Anonymous only where the dashboard is public (read-only).
struct Principal
{
    QString name;
    Role role = Role::Viewer;
    bool anonymous = false;

    bool mayChange() const { return !anonymous && role == Role::Operator; }
};

} // namespace outbox::web
