#include "ui/desktop/ConsoleStartup.h"

#include "ui/desktop/MainWindow.h"

#include <QCoreApplication>

namespace outbox::desktop {

ConsoleCommandLine::ConsoleCommandLine()
    : db(QStringLiteral("db"),
         QCoreApplication::translate(
             "main",
             "Database URL (or OUTBOX_DB_URL; password from the URL, OUTBOX_DB_PASSWORD or a prompt)."),
         QStringLiteral("url")),
      tablePrefix(
          QStringLiteral("table-prefix"),
          QCoreApplication::translate("main", "Prefix of the outbox tables (or OUTBOX_DB_TABLE_PREFIX)."),
          QStringLiteral("prefix")),
      configFile(QStringLiteral("config"),
                 QCoreApplication::translate(
                     "main", "INI configuration file: [database] url, table_prefix, password."),
                 QStringLiteral("file")),
      fleetFile(QStringLiteral("fleet"),
                QCoreApplication::translate(
                    "main", "Fleet file: show its members on the Fleet page (or OUTBOX_FLEET, "
                            "[general] fleet); double-click one to open it."),
                QStringLiteral("file")),
      demo(QStringLiteral("demo"),
           QCoreApplication::translate("main", "Start `outboxctl demo` as a child and open its database.")),
      wallboard(QStringLiteral("wallboard"),
                QCoreApplication::translate("main", "Open the full-screen wallboard."))
{
}

QList<QCommandLineOption> ConsoleCommandLine::options() const
{
    return {db, tablePrefix, configFile, fleetFile, demo, wallboard};
}

Result<config::Config> ConsoleCommandLine::configuration(const QCommandLineParser& parser,
                                                         const QMap<QString, QString>& environment) const
{
    config::ConfigInputs inputs;
    inputs.file = parser.value(configFile);
    inputs.environment = environment;
    if (parser.isSet(db))
        inputs.flags.push_back({QStringLiteral("database.url"), parser.value(db)});
    if (parser.isSet(tablePrefix))
        inputs.flags.push_back({QStringLiteral("database.table_prefix"), parser.value(tablePrefix)});
    if (parser.isSet(fleetFile))
        inputs.flags.push_back({QStringLiteral("general.fleet"), parser.value(fleetFile)});
    return config::Config::load(inputs);
}

Result<bool> openConfiguredFleet(MainWindow& window, const config::Config& configuration)
{
    const QString path = configuration.value(QStringLiteral("general.fleet"));
    if (path.isEmpty())
        return false;
    if (Status opened = window.openFleet(path); !opened)
        return opened.error();
    return true;
}

} // namespace outbox::desktop
