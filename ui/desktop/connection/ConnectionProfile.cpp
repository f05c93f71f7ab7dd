#include "ui/desktop/connection/ConnectionProfile.h"

#include "core/db/DatabaseUrl.h"

#include <QSettings>

namespace outbox::desktop {

QVector<ConnectionProfile> ProfileStore::load()
{
    QSettings settings;
    QVector<ConnectionProfile> profiles;
    const int n = settings.beginReadArray(QStringLiteral("profiles"));
    for (int i = 0; i < n; ++i) {
        settings.setArrayIndex(i);
        profiles << ConnectionProfile{settings.value(QStringLiteral("name")).toString(),
                                      withoutPassword(settings.value(QStringLiteral("url")).toString()),
                                      settings.value(QStringLiteral("colour")).toString(),
                                      settings.value(QStringLiteral("tablePrefix")).toString()};
    }
    settings.endArray();
    return profiles;
}

static void writeAll(const QVector<ConnectionProfile>& profiles)
{
    QSettings settings;
    settings.beginWriteArray(QStringLiteral("profiles"), profiles.size());
    for (int i = 0; i < profiles.size(); ++i) {
        settings.setArrayIndex(i);
        settings.setValue(QStringLiteral("name"), profiles.at(i).name);
        settings.setValue(QStringLiteral("url"), ProfileStore::withoutPassword(profiles.at(i).url));
        settings.setValue(QStringLiteral("colour"), profiles.at(i).colour);
        settings.setValue(QStringLiteral("tablePrefix"), profiles.at(i).tablePrefix);
    }
    settings.endArray();
}

void ProfileStore::save(const ConnectionProfile& profile)
{
    QVector<ConnectionProfile> profiles = load();
    bool replaced = false;
    for (ConnectionProfile& p : profiles)
        if (p.name == profile.name) {
            p = profile;
            replaced = true;
        }
    if (!replaced)
        profiles << profile;
    writeAll(profiles);
}

void ProfileStore::remove(const QString& name)
{
    QVector<ConnectionProfile> profiles = load();
    profiles.erase(std::remove_if(profiles.begin(), profiles.end(),
                                  [&](const ConnectionProfile& p) { return p.name == name; }),
                   profiles.end());
    writeAll(profiles);
}

QString ProfileStore::withoutPassword(const QString& url)
{
    auto parsed = DatabaseUrl::parse(url);
    if (!parsed)
        return {};
    return parsed->redacted(); // keeps the connection options (sslmode, SSL_*), drops the password
}

QStringList ProfileStore::recent()
{
    QStringList urls;
    for (const QString& url : QSettings().value(QStringLiteral("recentUrls")).toStringList()) {
        const QString clean = withoutPassword(url);
        if (!clean.isEmpty() && !urls.contains(clean))
            urls << clean;
    }
    return urls.mid(0, MaxRecent);
}

void ProfileStore::addRecent(const DatabaseUrl& url)
{
    const QString text = url.redacted(); // the connection options, never the password
    QStringList urls = recent();
    urls.removeAll(text);
    urls.prepend(text);
    QSettings().setValue(QStringLiteral("recentUrls"), urls.mid(0, MaxRecent));
}

} // namespace outbox::desktop
