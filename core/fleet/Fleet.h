#pragma once

#include "core/config/Config.h"
#include "core/db/DatabaseTarget.h"
#include "core/db/DatabaseUrl.h"
#include "core/diagnosis/DiagnosisOptions.h"
#include "core/support/Result.h"

#include <QJsonObject>
#include <QMap>
#include <QPair>
#include <QProcessEnvironment>
#include <QString>
#include <QVector>

namespace outbox {

// One database of the fleet: a [member NAME] section of the fleet file.
struct FleetMember
{
    QString name;
    int line = 0; // of its [member NAME] header
    // Its database (URL with the password from the environment or its password_file, table prefix)
    // as one value whose command lines name --fleet FILE --member NAME: what every connection to the
    // member (the sampler, the web console's database threads, the desktop opened on it) is opened
    // from and every command prepared for it names.
    DatabaseTarget target;
    QVector<QPair<QString, QString>> tags; // "team=checkout, env=prod", in order; a bare word has no value
    // The broker its relays publish to ("broker" key: kafka://HOST:PORT or amqp://USER@HOST:PORT/VHOST,
    // never a password); empty when the fleet file does not say.
    QString broker;
    // Where each value came from, by key (url, table_prefix, tags, password): a line of the file, the
    // environment variable of the password or its password_file.
    QMap<QString, config::Source> sources;

    // "team=checkout" or "edge" for each tag.
    QStringList tagTexts() const;
    // True when one of its tags is `tag` ("team=checkout", or "edge" for a bare word).
    bool hasTag(const QString& tag) const;
    const DatabaseUrl& url() const { return target.url(); }
    const QString& tablePrefix() const { return target.tablePrefix(); }
    // The doctor's options for this member: the thresholds of `base` (the server's or the console's)
    // and the member's own broker for prepared relay commands, never the one `base` names (another
    // database's broker, issue 36 H1): without a `broker` key the member's relay registry tells, or
    // the command is refused naming the key to set.
    DiagnosisOptions diagnosisOptions(DiagnosisOptions base) const;
};

// The fleet file: which databases `doctor`, `status` (and later `serve`) watch together, read by
// the same INI reader as the configuration (core/config/IniFile), so errors name their line:
//
//   [fleet]
//   max_connections = 16   ; sampling connections open at once, across all members
//   timeout = 3s           ; a member that does not answer in time missed that tick
//   interval = 5s          ; the counts of every member are read every interval
//   doctor_interval = 30s  ; the doctor's checks of a member run at most this often
//   unreachable_after = 3  ; missed ticks in a row before a member that answered before is
//                          ; unreachable; until then it keeps its last answer, marked stale
//
//   [member orders]
//   url = postgresql://outbox@db-orders:5432/orders
//   table_prefix =
//   tags = team=checkout, env=prod
//   password_file = /etc/outbox/orders.password   ; optional
//   broker = amqp://relay@mq:5672/orders           ; optional: where its relays publish (no password)
//
// Passwords never stand in the file: OUTBOX_DB_PASSWORD_<MEMBER> (the name upper-cased, '-' as '_')
// or the member's password_file (its first line; a file other users may read is refused). A bad
// member (bad URL, unknown key, duplicate name, …) is one usage error naming the file, the line and
// the member; nothing of a file with an error is used.
class Fleet
{
public:
    static constexpr int DefaultMaxConnections = 16;
    static constexpr qint64 DefaultTimeoutMs = 3000;
    static constexpr qint64 DefaultIntervalMs = 5000;
    static constexpr qint64 DefaultDoctorIntervalMs = 30000;
    static constexpr int DefaultUnreachableAfter = 3;

    static Result<Fleet>
    load(const QString& path,
         const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment());
    static Result<Fleet> parse(const QByteArray& text, const QString& path,
                               const QProcessEnvironment& environment);

    // A name a [member NAME] section may have (MemberNameRule says which).
    static bool isMemberName(const QString& name);
    static const QString MemberNameRule;
    // "OUTBOX_DB_PASSWORD_EDGE_CACHE" for the member edge-cache.
    static QString passwordVariable(const QString& memberName);

    const QString& file() const { return m_file; }
    int maxConnections() const { return m_maxConnections; }
    qint64 timeoutMs() const { return m_timeoutMs; }
    qint64 intervalMs() const { return m_intervalMs; }
    qint64 doctorIntervalMs() const { return m_doctorIntervalMs; }
    int unreachableAfter() const { return m_unreachableAfter; }
    const QVector<FleetMember>& members() const { return m_members; }
    // The member of that name (exactly as written), or nullptr.
    const FleetMember* member(const QString& name) const;
    // Usage error "no member NAME in FILE (members: a, b, c)" when there is none.
    Result<FleetMember> find(const QString& name) const;

    // Every setting and member with the source of each value, secrets redacted (`config show`).
    QString toText() const;
    QJsonObject toJson() const;

private:
    QString m_file;
    int m_maxConnections = DefaultMaxConnections;
    qint64 m_timeoutMs = DefaultTimeoutMs;
    qint64 m_intervalMs = DefaultIntervalMs;
    qint64 m_doctorIntervalMs = DefaultDoctorIntervalMs;
    int m_unreachableAfter = DefaultUnreachableAfter;
    QMap<QString, config::Source> m_sources; // of the [fleet] keys
    QVector<FleetMember> m_members;
};

} // namespace outbox
