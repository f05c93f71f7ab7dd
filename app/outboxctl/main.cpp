// outboxctl: the headless front end of Outbox Console (DESIGN §7). Parses the command line and
// hands each command to core; never links Qt Widgets.
#include "app/outboxctl/Cli.h"

#include <QCoreApplication>
#include <cstdio>

using namespace outbox::cli;

namespace {

void printUsage(QTextStream& out, const QList<Command>& commands)
{
    out << "usage: outboxctl COMMAND [options]\n\ncommands:\n";
    for (const Command& c : commands)
        out << "  " << c.name.leftJustified(10) << c.summary << "\n";
    out << "\ncommon options: --db URL  --config FILE  --table-prefix P  --json  --actor NAME  --yes\n"
           "configuration: flags > environment (OUTBOX_*) > --config file > defaults; see `outboxctl config "
           "show`\n"
           "run `outboxctl COMMAND --help` for a command's options\n";
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("outboxctl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(OUTBOX_VERSION));

    const QList<Command> commands = allCommands();
    QStringList args = app.arguments();
    QTextStream out(stdout);
    QTextStream err(stderr);
    if (args.size() < 2 || args.at(1) == QLatin1String("--help") || args.at(1) == QLatin1String("-h") ||
        args.at(1) == QLatin1String("help")) {
        printUsage(args.size() < 2 ? err : out, commands);
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
    const QStringList configKeys = commonConfigKeys() + command->configKeys;
    parser.addOptions(commonOptions());
    parser.addOptions(configOptions(configKeys));
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
    auto config = loadConfig(parser, configKeys);
    if (!config) {
        err << "outboxctl: " << config.message() << "\n";
        return config.error().kind == outbox::ErrorKind::Usage ? UsageError : RuntimeError;
    }
    Context ctx(parser, parser.positionalArguments(), std::move(config).value());
    return command->run(ctx);
}
