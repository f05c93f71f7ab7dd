#pragma once

#include "core/db/Database.h"
#include "core/db/DatabaseUrl.h"
#include "core/support/Result.h"

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <memory>

namespace outbox::config {
class Config;
}

namespace outbox {

// The database an operator works on, as one value: its URL (with the password, which leaves this
// process only in a child's environment), the prefix of its outbox tables, and where a command line
// for it finds its credentials. Every connection's Database::Options and every `outboxctl` command
// line on the same database (a relay or `serve` the console starts, a command the doctor prepares)
// come from here, so that they all reach the same tables.
class DatabaseTarget
{
public:
    DatabaseTarget() = default;
    // A URL and a prefix given by the operator (a flag, a profile, a typed URL): command lines for
    // it name both (--db without the password, --table-prefix).
    DatabaseTarget(DatabaseUrl url, QString tablePrefix);
    // A member of a fleet file (its URL with the password, its table prefix): command lines for it
    // name --fleet FILE --member NAME, and the command reads the member's database from that file
    // and its password from `passwordVariable` (OUTBOX_DB_PASSWORD_<MEMBER>, childEnvironment()).
    static DatabaseTarget fleetMember(const QString& fleetFile, const QString& memberName,
                                      const QString& passwordVariable, DatabaseUrl url, QString tablePrefix);

    // The configuration's database ([database] url with [database] password when the URL has none,
    // [database] table_prefix). Command lines for it name the same --config file and add --db and
    // --table-prefix only where a flag gave them: the file and the environment give the rest,
    // including a password written inside the file's URL.
    static Result<DatabaseTarget> fromConfig(const config::Config& config);
    // Another URL (a consumer's inbox database, a URL typed into the console) with the
    // configuration's [database] password when it has none.
    static Result<DatabaseTarget> fromConfig(const config::Config& config, const QString& urlText,
                                             const QString& tablePrefix);
    static DatabaseTarget fromConfig(const config::Config& config, DatabaseUrl url,
                                     const QString& tablePrefix);

    const DatabaseUrl& url() const { return m_url; }
    const QString& tablePrefix() const { return m_tablePrefix; }
    bool isEmpty() const { return m_url.database.isEmpty(); }
    // The fleet member it is (fleetMember()), empty when it is not one.
    const QString& memberName() const { return m_memberName; }
    // The same target with another password (one the operator typed at a prompt).
    DatabaseTarget withPassword(const QString& password) const;
    // The same target whose command lines also name --config FILE (a command given --config with
    // --fleet and --member: its children read the same file).
    DatabaseTarget withConfigFile(const QString& configFile) const;

    // How a connection to this target is opened; `purpose` names the connection.
    Database::Options options(const QString& purpose = QStringLiteral("main"),
                              int connectTimeoutSeconds = 5) const;
    Result<std::unique_ptr<Database>> open(const QString& purpose = QStringLiteral("main"),
                                           int connectTimeoutSeconds = 5) const;
    // open() for a reader that never writes (core/db/SnapshotRead: SQLite opens the file read-only).
    Result<std::unique_ptr<Database>> openForReading(const QString& purpose,
                                                     int connectTimeoutSeconds = 5) const;

    // What makes an `outboxctl` command reach this database: --config FILE when the target came
    // from a file, --db URL (never with its password) and --table-prefix=PREFIX; for a fleet member
    // --fleet FILE --member NAME instead. A password travels in the environment (childEnvironment()),
    // never in a command line.
    QStringList outboxctlArguments() const;
    // `COMMAND CONNECTION… ARGUMENTS…`: a child's argument list (the program is locateOutboxctl()'s).
    // The connection comes first so that ARGUMENTS may end with `--` and positionals.
    QStringList outboxctlCommand(const QString& command, const QStringList& arguments = {}) const;
    // `base` with the password as OUTBOX_DB_PASSWORD (a fleet member's: its own variable, which its
    // --member reads before its password_file), for a child started on this target.
    QProcessEnvironment
    childEnvironment(const QProcessEnvironment& base = QProcessEnvironment::systemEnvironment()) const;

private:
    DatabaseUrl m_url;
    QString m_tablePrefix;
    QString m_configFile; // a child reads the same file
    bool m_urlInArguments = true;
    bool m_prefixInArguments = true;
    QString m_fleetFile; // a fleet member: the file a child reads it from
    QString m_memberName;
    QString m_passwordVariable; // a fleet member's OUTBOX_DB_PASSWORD_<MEMBER>
};

} // namespace outbox
