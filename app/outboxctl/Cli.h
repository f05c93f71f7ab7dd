#pragma once

#include "core/db/Database.h"
#include "core/support/Result.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QJsonValue>
#include <QStringList>
#include <QTextStream>
#include <functional>
#include <memory>

namespace outbox::cli {

// Exit codes, a contract with scripts: 0 success, 1 a runtime error (database, broker, I/O),
// 2 a usage or configuration error (the caller must change what it asked for).
enum ExitCode { Ok = 0, RuntimeError = 1, UsageError = 2 };

// What every command gets: its parsed options, output streams and the common settings.
class Context
{
public:
    Context(QCommandLineParser& parser, QStringList positionals);

    QCommandLineParser& parser;
    QStringList positionals; // after the command (and sub-command) words
    QTextStream out;
    QTextStream err;

    bool json() const;
    QString actor() const;
    bool assumeYes() const;

    // The database from --db, OUTBOX_DB_URL or the config file.
    Result<std::unique_ptr<Database>> openDatabase(const QString& purpose = QStringLiteral("cli"));
    // Like openDatabase(), and refuses a database without the outbox schema.
    Result<std::unique_ptr<Database>> openMigratedDatabase();
    Result<QString> configValue(const QString& key) const;

    // One error line on stderr (with withHint()); returns the exit code that goes with it.
    int fail(const Error& error);
    int usage(const QString& message) { return fail(Error::usage(message)); }
    void printJson(const QJsonValue& value);
};

struct Command
{
    QString name;
    QString summary;
    QString syntax; // positional syntax shown in help
    QList<QCommandLineOption> options;
    std::function<int(Context&)> run;
    QStringList subcommands; // e.g. list, show
};

QList<QCommandLineOption> commonOptions();

// The flag or variable that sets what a core error is about (Error::subject), empty when none;
// withHint() appends it to the message: "no Kafka bootstrap servers given (--kafka-bootstrap …)".
QString hintFor(const QString& subject);
QString withHint(const Error& error);

// Parses "15m", "2h", "7d" (ago) or an ISO 8601 time; an invalid value is a usage error.
Result<QDateTime> parseTimeArgument(const QString& text, const QString& optionName);
Result<QVector<qint64>> parseIds(const QStringList& words);

// --limit (1..10000, default 50) and --after-id (keyset cursor, >= 0) of the listing commands.
struct Paging
{
    int limit = 50;
    qint64 afterId = 0;
};
Result<Paging> pagingFromOptions(const QCommandLineParser& parser);
// Renders rows as aligned columns.
QString table(const QStringList& header, const QVector<QStringList>& rows);
QString formatAge(qint64 ms);

// The command table (one file per command group).
QList<Command> migrateCommands();
QList<Command> statusCommands();
QList<Command> eventCommands();
QList<Command> actionCommands();
QList<Command> auditCommands();
QList<Command> serveCommands();
QList<Command> relayCommands();
QList<Command> demoCommands();
QList<Command> consumeCommands();
QList<Command> reconcileCommands();

} // namespace outbox::cli
