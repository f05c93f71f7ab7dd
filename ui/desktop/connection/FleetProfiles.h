#pragma once

#include "core/support/Result.h"
#include "ui/desktop/connection/ConnectionProfile.h"

#include <QVector>

namespace outbox::desktop {

// Connection profiles to and from a fleet file (core's Fleet reads it, FleetFileWriter writes it):
// one profile per member and one member per profile, never with a password (a member's password
// stays in OUTBOX_DB_PASSWORD_<MEMBER> or its password_file; a profile's is asked for or given by
// the environment). A member tagged env=prod (or env=production) is a red, production profile; a red
// profile is exported with the tag env=prod.
class FleetProfiles
{
public:
    // The fleet file's members as profiles (not stored yet); an invalid file is one error.
    static Result<QVector<ConnectionProfile>> read(const QString& path);
    // read() + ProfileStore::save for each (a profile of the same name is replaced); the number saved.
    static Result<int> import(const QString& path);
    // Writes `profiles` as a fleet file that Fleet::load reads back; a profile's name becomes a
    // member name (characters a member name cannot hold become '-').
    static Status write(const QString& path, const QVector<ConnectionProfile>& profiles);
    static QString memberName(const QString& profileName);
};

} // namespace outbox::desktop
