#include "ui/desktop/connection/FleetProfiles.h"

#include "core/fleet/Fleet.h"
#include "core/fleet/FleetFileWriter.h"

namespace outbox::desktop {

Result<QVector<ConnectionProfile>> FleetProfiles::read(const QString& path)
{
    // No environment: an import needs no password, and none must travel into a profile.
    auto fleet = Fleet::load(path, QProcessEnvironment());
    if (!fleet)
        return fleet.error();
    QVector<ConnectionProfile> profiles;
    for (const FleetMember& m : fleet->members()) {
        ConnectionProfile p;
        p.name = m.name;
        p.url = ProfileStore::withoutPassword(m.url().redacted());
        p.tablePrefix = m.tablePrefix();
        if (m.hasTag(QStringLiteral("env=prod")) || m.hasTag(QStringLiteral("env=production")))
            p.colour = QStringLiteral("red");
        profiles << p;
    }
    return profiles;
}

Result<int> FleetProfiles::import(const QString& path)
{
    auto profiles = read(path);
    if (!profiles)
        return profiles.error();
    for (const ConnectionProfile& p : std::as_const(*profiles))
        ProfileStore::save(p);
    return int(profiles->size());
}

QString FleetProfiles::memberName(const QString& profileName)
{
    QString name;
    for (QChar c : profileName.trimmed()) {
        const bool plain = (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
                           (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) ||
                           (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('_') ||
                           c == QLatin1Char('-');
        if (plain)
            name += c;
        else if (!name.isEmpty() && !name.endsWith(QLatin1Char('-')))
            name += QLatin1Char('-');
    }
    while (name.endsWith(QLatin1Char('-')))
        name.chop(1);
    return name.left(63);
}

Status FleetProfiles::write(const QString& path, const QVector<ConnectionProfile>& profiles)
{
    QVector<FleetFileWriter::Member> members;
    for (const ConnectionProfile& p : profiles) {
        FleetFileWriter::Member m;
        m.name = memberName(p.name);
        m.url = p.url;
        m.tablePrefix = p.tablePrefix;
        if (p.isProduction())
            m.tags << QStringLiteral("env=prod");
        members << m;
    }
    return FleetFileWriter::write(path, members);
}

} // namespace outbox::desktop
