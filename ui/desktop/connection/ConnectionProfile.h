#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

namespace outbox {
struct DatabaseUrl;
}

namespace outbox::desktop {

// A named connection: URL without its password, the prefix of its outbox tables, and a colour tag
// (red marks production).
struct ConnectionProfile
{
    QString name;
    QString url;    // never holds a password
    QString colour; // "", "green", "yellow", "red"
    QString tablePrefix = {};
    // Set when the connection is a member of the fleet page's file (never stored): the window's
    // title and header then name the member, so nobody acts on the wrong database.
    QString fleetMember = {};

    bool isProduction() const { return colour == QLatin1String("red"); }
};

// Profiles kept with QSettings. A password in a URL is stripped before anything is written.
class ProfileStore
{
public:
    static QVector<ConnectionProfile> load();
    static void save(const ConnectionProfile& profile);
    static void remove(const QString& name);
    // The URL text without any password (what may be stored or shown).
    static QString withoutPassword(const QString& url);
    // URLs that connected, newest first, without passwords (at most MaxRecent).
    static QStringList recent();
    static void addRecent(const DatabaseUrl& url);
    static constexpr int MaxRecent = 10;
};

} // namespace outbox::desktop
