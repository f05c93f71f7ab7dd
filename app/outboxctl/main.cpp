// outboxctl: the headless front end of Outbox Console (DESIGN §7). Parses the command line and
// hands each command to core; never links Qt Widgets.
#include "app/outboxctl/Cli.h"
#include "app/outboxctl/Systemd.h"
#include "app/outboxctl/Usage.h"

#include <QCoreApplication>
#include <cstdio>

using namespace outbox::cli;

namespace {

QList<Command> allCommands()
{
    return migrateCommands() + statusCommands() + eventCommands() + actionCommands() + auditCommands() +
           relayCommands() + demoCommands() + serveCommands() + consumeCommands() + reconcileCommands();
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("outboxctl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(OUTBOX_VERSION));
    systemd::importCredentials();

    const QList<Command> commands = allCommands();
    QStringList args = app.arguments();
    QTextStream out(stdout);
    QTextStream err(stderr);
    if (args.size() == 3 && args.at(1) == QLatin1String("help") && args.at(2) == QLatin1String("--man")) {
        out << manPage(commands);
        return Ok;
    }
    if (args.size() < 2 || args.at(1) == QLatin1String("--help") || args.at(1) == QLatin1String("-h") ||
        args.at(1) == QLatin1String("help")) {
        (args.size() < 2 ? err : out) << usageText(commands);
        return args.size() < 2 ? UsageError : Ok;
    }
    if (args.at(1) == QLatin1String("--version")) {
        out << "outboxctl " << OUTBOX_VERSION << "\n";
        return Ok;
    }
    const QString name = args.takeAt(1);
    const Command* command = nullptr;
    for (const Command& c : commands)
        if (c.name == name)
            command = &c;
    if (!command) {
        err << "outboxctl: unknown command \"" << name << "\"; run outboxctl --help\n";
        return UsageError;
    }

    QCommandLineParser parser;
    parser.setApplicationDescription(command->summary);
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addOptions(commonOptions());
    parser.addOptions(command->options);
    parser.addPositionalArgument(name, command->summary, name + QLatin1Char(' ') + command->syntax);
    const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help."));
    parser.addOption(help);
    if (!parser.parse(args)) {
        err << "outboxctl " << name << ": " << parser.errorText() << "\n";
        return UsageError;
    }
    if (parser.isSet(help)) {
        out << parser.helpText().replace(QStringLiteral("outboxctl [options]"),
                                         QStringLiteral("outboxctl ") + name + QStringLiteral(" [options]"));
        return Ok;
    }
    Context ctx(parser, parser.positionalArguments());
    return command->run(ctx);
}
