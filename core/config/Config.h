#pragma once

#include "core/config/ConfigKey.h"
#include "core/support/Result.h"

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QVector>

namespace outbox::config {

// Where a value came from.
struct Source
{
    enum Kind { Default, File, Environment, Flag };
    Kind kind = Default;
    QString file; // File
    int line = 0; // File
    QString name; // Environment: the variable; Flag: "--batch-size" or "-X"

    // "default", "file:/etc/outbox/orders.ini:12", "env:OUTBOX_DB_URL", "flag:--db"
    QString toString() const;
};

struct Setting
{
    QString key; // "database.url", "kafka.sasl.mechanisms", "tokens.alice"
    QString value;
    Source source;
    bool secret = false;
};

// A value given on the command line for a key of the table (the front end maps its flags to keys).
struct FlagValue
{
    QString key;
    QString value;
};

struct ConfigInputs
{
    QString file; // --config; empty: no file
    // The process environment (Config::systemEnvironment()); only the variables of the key table
    // are read, an empty variable counts as not set.
    QMap<QString, QString> environment;
    QVector<FlagValue> flags;
    QStringList kafkaArguments; // -X name=value, in order
};

// The one configuration of every command and front end: an INI file, OUTBOX_* environment
// variables and command-line flags over built-in defaults, with one rule:
//
//     flags > environment > file > defaults
//
// The same keys hold for every command (see keys()). A malformed file, an unknown section or key
// and a value of the wrong type are usage errors that name the file and line, the variable or the
// flag. Secrets (the database password, Kafka passwords, tokens) are never part of a message and
// are shown redacted.
class Config
{
public:
    static QString precedence() { return QStringLiteral("flags > environment > file > defaults"); }
    // The table of keys, in the order they are documented and shown.
    static const QVector<ConfigKey>& keys();
    static const ConfigKey* find(const QString& key);
    // The sections a file may have.
    static QStringList sections();
    // The process's environment variables that the key table names (and USER for the actor).
    static QMap<QString, QString> systemEnvironment();
    // One variable of the key table, from the process environment (for front ends without a file).
    static QString environmentValue(const QString& key);

    static Result<Config> load(const ConfigInputs& inputs);
    // This configuration with one more value set from `source` (checked like any other), e.g. a
    // fleet member's database chosen on the command line.
    Result<Config> withValue(const QString& key, const QString& value, const Source& source) const;

    QString file() const { return m_file; }
    // The effective value: set by a flag, the environment or the file, else the default.
    QString value(const QString& key) const;
    Source source(const QString& key) const;
    bool isSet(const QString& key) const { return m_set.contains(key); }
    // Typed reads of a key of the table; load() has checked the values.
    qint64 integer(const QString& key) const;
    bool boolean(const QString& key) const;
    qint64 durationMs(const QString& key) const;
    QStringList list(const QString& key) const;

    // "--batch-size", "OUTBOX_RELAY_BATCH_SIZE" or "file.ini:7: [relay] batch_size": where the value
    // of `key` came from, to start an error message with; empty for a default.
    QString where(const QString& key) const;
    // `error` prefixed with where(key), same kind.
    Error located(const QString& key, const Error& error) const;

    // Every librdkafka property that is set ([kafka] except bootstrap, OUTBOX_KAFKA_SASL_*, -X), by
    // name without the "kafka." prefix.
    QVector<Setting> kafkaProperties() const;
    // [tokens] entries, by name without the "tokens." prefix.
    QVector<Setting> tokens() const;
    // [oidc_groups] entries (GROUP = ROLE members=… operator=…), by group without the prefix.
    QVector<Setting> groups() const;
    // Everything: every key of the table (defaults included), then other Kafka properties and tokens.
    QVector<Setting> settings() const;

    QString tablePrefix() const { return value(QStringLiteral("database.table_prefix")); }
    QString actor() const { return value(QStringLiteral("general.actor")); }
    // The options of the relay, the consumer, the doctor and the database target are built by their
    // owners from these keys (RelayOptions::fromConfig(), ConsumerOptions::fromConfig(),
    // DiagnosisOptions::fromConfig(), DatabaseTarget::fromConfig()): config only reads and checks.

    // The effective configuration with the source of each value and secrets redacted.
    QString toText() const;
    QJsonObject toJson() const;
    // A value as it may be shown: secrets as ***, a password inside a URL replaced by ***.
    static QString redacted(const Setting& setting);

private:
    Status set(const QString& key, const QString& value, const Source& source);

    QString m_file;
    QMap<QString, Setting> m_set; // explicitly set values (not defaults), by key
    QString m_defaultActor;       // the login name
};

// "30s", "15m", "2h", "7d", "500ms", "0"; a plain number is seconds.
Result<qint64> parseDuration(const QString& text);

} // namespace outbox::config
