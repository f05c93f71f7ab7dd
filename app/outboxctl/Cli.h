#pragma once

#include "app/outboxctl/TerminalDevice.h"
#include "core/config/Config.h"
#include "core/db/Database.h"
#include "core/db/DatabaseTarget.h"
#include "core/fleet/Fleet.h"
#include "core/support/Result.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QJsonValue>
#include <QStringList>
#include <QTextStream>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

namespace outbox::cli {

// Exit codes, a contract with scripts: 0 success, 1 a runtime error (database, broker, I/O),
// 2 a usage or configuration error (the caller must change what it asked for).
enum ExitCode { Ok = 0, RuntimeError = 1, UsageError = 2 };

// What every command gets: its parsed options, the configuration, output streams.
class Context
{
public:
    // `member`: the fleet member that --member NAME chose (loadConfig()), empty without one.
    Context(QCommandLineParser& parser, QStringList positionals, config::Config config,
            DatabaseTarget member = {});

    QCommandLineParser& parser;
    QStringList positionals; // after the command (and sub-command) words

private:
    TerminalDevice m_stdout; // before `out`: it outlives the stream's last flush

public:
    // Human output: every byte through TerminalText::escapeOutput() (TerminalDevice).
    QTextStream out;
    QTextStream err;

    bool json() const;
    QString actor() const { return m_config.actor(); }
    bool assumeYes() const;
    // The effective configuration: flags > environment > --config file > defaults.
    const config::Config& config() const { return m_config; }

    // The configured database ([database] url, password and table_prefix) as one value, or the
    // member --member chose as the fleet file gave it (its command lines name --fleet FILE --member
    // NAME): every connection and every command line on it come from here.
    Result<DatabaseTarget> target() const;
    // The fleet file ([general] fleet, --fleet, OUTBOX_FLEET), read now.
    Result<Fleet> fleet() const;
    // Like fleet() when a fleet file is configured; none without one.
    Result<std::optional<Fleet>> configuredFleet() const;
    // True when a command that can watch a fleet (doctor, status) should: a fleet file is given,
    // no --member, and no database given with more weight than the fleet (a --db flag over a fleet
    // file named in the configuration file).
    bool watchesFleet() const;

    // The configured database ([database] url, password and table_prefix).
    Result<std::unique_ptr<Database>> openDatabase(const QString& purpose = QStringLiteral("cli"));
    // Like openDatabase(), and refuses a database without the outbox schema.
    Result<std::unique_ptr<Database>> openMigratedDatabase();
    // What `work` returns on the migrated database (openMigratedDatabase()), or why it could not
    // be opened: the commands that do one thing on the database, then print what it returned.
    template <typename Work> auto onDatabase(Work&& work) -> decltype(work(std::declval<Database&>()))
    {
        auto db = openMigratedDatabase();
        if (!db)
            return db.error();
        return work(**db);
    }

    // One error line on stderr (with withHint()); returns the exit code that goes with it.
    int fail(const Error& error);
    int usage(const QString& message) { return fail(Error::usage(message)); }
    // `value` as indented JSON; returns Ok, so that a command can end with it.
    int printJson(const QJsonValue& value);
    // One record (an event, a dead letter) for people: a "key  value" line per field, the keys in a
    // column as wide as the longest and two spaces ("replay_lease_until" ran into its value once);
    // objects and arrays as compact JSON, null as "-", every value on one line.
    void printRecord(const QJsonObject& record);
    // `record` as JSON with --json, else as printRecord() does; returns Ok.
    int showRecord(const QJsonObject& record);
    // The line that tells how to get a keyset page's next page, when there is one.
    void printNextPage(qint64 nextAfterId);

private:
    config::Config m_config;
    DatabaseTarget m_member;
};

// One entry of the command table: everything --help (and a man page) needs, and what runs.
struct Command
{
    QString name;
    QString summary;
    QString syntax; // positional syntax shown in help
    QList<QCommandLineOption> options;
    std::function<int(Context&)> run;
    QStringList subcommands; // e.g. list, show
    // Configuration keys this command takes as flags besides the common ones: "relay.*",
    // "kafka.bootstrap", "-X" (librdkafka properties). Their help comes from the key table.
    QStringList configKeys = {};
    // Whether the command works on a whole fleet (--fleet without --member); the others work on one
    // database and refuse --fleet without --member.
    bool watchesFleets = false;
};

// `run`, refusing positional arguments first: "`what` takes no positional arguments".
std::function<int(Context&)> withoutPositionals(const QString& what, std::function<int(Context&)> run);

// One sub-command: its word, its own options (besides its command's) and what runs.
struct Subcommand
{
    QString name;
    QList<QCommandLineOption> options;
    std::function<int(Context&)> run;
};

// Takes the sub-command word off ctx.positionals and runs that sub-command of `command`; a usage
// error without one or with an unknown one ("events needs a sub-command: list, show or blocked").
int runSubcommand(Context& ctx, const QString& command, const QList<Subcommand>& subcommands);
// Their words ("list", "show"), in order.
QStringList subcommandNames(const QList<Subcommand>& subcommands);

// Options every command takes: --config, --json, --yes (and the common configuration flags).
QList<QCommandLineOption> commonOptions();
// The configuration keys every command takes as flags: --db, --table-prefix, --actor.
QStringList commonConfigKeys();
// The keys of the table that `patterns` name ("relay.*", "web.listen"), with a flag.
QVector<config::ConfigKey> configKeysFor(const QStringList& patterns);
// Command-line options for those keys (and -X when the patterns name it).
QList<QCommandLineOption> configOptions(const QStringList& patterns);
// What a command runs with: the configuration, and the fleet member --member NAME chose (its
// database as the fleet file gave it, never read back from the configuration's text), empty without.
struct LoadedConfig
{
    config::Config config;
    DatabaseTarget member;
};

// The configuration from --config, the environment and the flags of `patterns` in `parser`, with
// the member of --member standing for the configured database.
Result<LoadedConfig> loadConfig(const QCommandLineParser& parser, const QStringList& patterns);

// `config` with a fleet member's database ([database] url, table_prefix and password, for what
// reads the configuration: config show, the relay's options) standing for the configured one, and
// that member's target: what --member NAME does for every command. A usage error when there is no
// fleet file, no such member, or --db / --table-prefix is given too.
Result<LoadedConfig> withFleetMember(const config::Config& config, const QString& memberName);
// True when --fleet is given without --member (a command that works on one database refuses it).
bool fleetGivenWithoutMember(const QCommandLineParser& parser, const config::Config& config);

// How to set what a core error is about (Error::subject: a configuration key, from the
// configuration table, or an input), empty when there is no such thing; withHint() appends it:
// "no Kafka bootstrap servers given (--kafka-bootstrap host:port, OUTBOX_KAFKA_BOOTSTRAP or
// [kafka] bootstrap)".
QString hintFor(const QString& subject);
QString withHint(const Error& error);

// Parses "15m", "2h", "7d" (ago) or an ISO 8601 time; an invalid value is a usage error.
Result<QDateTime> parseTimeArgument(const QString& text, const QString& optionName);
Result<QVector<qint64>> parseIds(const QStringList& words);
// The one ID a sub-command takes: a usage error ("dlq show takes one ID") without one or with
// more words.
Result<qint64> oneId(const QStringList& words, const QString& what);

// --limit (1..10000, default 50) and --after-id (keyset cursor, >= 0) of the listing commands.
struct Paging
{
    int limit = 50;
    qint64 afterId = 0;
};
Result<Paging> pagingFromOptions(const QCommandLineParser& parser);
// The --limit and --after-id options of a listing command.
QList<QCommandLineOption> pagingOptions();
// An age option ("15m", "2h", "7d" or an ISO 8601 time, see parseTimeArgument) as milliseconds
// before now, never negative; `fallback` when the option is not given.
Result<qint64> ageOption(const QCommandLineParser& parser, const QString& name, const QString& fallback);
// Renders rows as aligned columns.
QString table(const QStringList& header, const QVector<QStringList>& rows);
QString formatAge(qint64 ms);
// One line of at most `max` characters (newlines become spaces, an ellipsis marks the cut).
QString oneLine(QString text, int max);
// A time as the tables print it, in UTC; "-" when there is none.
QString timeText(const QDateTime& t);

} // namespace outbox::cli
