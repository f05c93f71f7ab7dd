#pragma once

#include "core/config/Config.h"
#include "core/support/Result.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>
#include <QMap>

namespace outbox::desktop {

class MainWindow;

// outbox-console's command line, the one main() parses (and the tests with it): its options, the
// configuration they make (flags > environment > file > defaults, as outboxctl's) and the fleet
// file the window opens at start.
class ConsoleCommandLine
{
public:
    ConsoleCommandLine();

    QCommandLineOption db;
    QCommandLineOption tablePrefix;
    QCommandLineOption configFile;
    QCommandLineOption fleetFile;
    QCommandLineOption demo;
    QCommandLineOption wallboard;

    // In the order of --help and the man page.
    QList<QCommandLineOption> options() const;
    // The configuration of a parsed command line; `environment`: Config::systemEnvironment().
    Result<config::Config> configuration(const QCommandLineParser& parser,
                                         const QMap<QString, QString>& environment) const;
};

// Shows the fleet file the configuration names (--fleet, OUTBOX_FLEET or [general] fleet) on the
// window's Fleet page: true when it named one and it opened, false when it names none, the file's
// error otherwise.
Result<bool> openConfiguredFleet(MainWindow& window, const config::Config& configuration);

} // namespace outbox::desktop
