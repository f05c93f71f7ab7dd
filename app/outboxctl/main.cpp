// outboxctl: the headless front end of Outbox Console. Parses the command line and
// hands each command to core; never links Qt Widgets.
#include "app/outboxctl/Cli.h"
#include "app/outboxctl/Systemd.h"
#include "app/outboxctl/Usage.h"
#include "app/outboxctl/commands/Commands.h"
#include "core/support/TerminalText.h"
#include "core/support/TimeZone.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QTranslator>
#include <cstdio>

using namespace outbox::cli;

namespace {

// core's catalogue (the doctor's texts) for the locale of LANG / LC_ALL / LC_MESSAGES:
// <bindir>/../share/outboxctl/translations when installed; in the build tree the console's
// <build>/app/outbox-console/translations, or <build>/app/outboxctl/translations in a headless
// build (no console). Ids, JSON keys and commands stay English.
void installTranslator(QCoreApplication& app, QTranslator& translator)
{
    const QDir bin(QCoreApplication::applicationDirPath());
    for (const QString& dir : {bin.filePath(QStringLiteral(OUTBOXCTL_DATADIR_FROM_BINDIR "/translations")),
                               bin.filePath(QStringLiteral("../outbox-console/translations")),
                               bin.filePath(QStringLiteral("translations"))}) {
        if (QFileInfo(dir).isDir() &&
            translator.load(QLocale(), QStringLiteral("outbox_core"), QStringLiteral("_"), dir)) {
            app.installTranslator(&translator);
            return;
        }
    }
}

} // namespace

int main(int argc, char* argv[])
{
    outbox::pinLocalTimeZone();
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("outboxctl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(OUTBOX_VERSION));
    systemd::importCredentials();

    const QList<Command> commands = allCommands();
    QStringList args = app.arguments();
    QTextStream out(stdout);
    QTextStream err(stderr);
    // Generated at build time from the command and configuration tables: the man page and the
    // configuration example (installed as outboxctl.1 and /etc/outbox/outbox.ini.example).
    if (args.size() == 3 && args.at(1) == QLatin1String("help") && args.at(2) == QLatin1String("--man")) {
        out << manPage(commands);
        return Ok;
    }
    if (args.size() == 3 && args.at(1) == QLatin1String("help") &&
        args.at(2) == QLatin1String("--ini-example")) {
        out << iniExample();
        return Ok;
    }
    // The generated pages of docs/ (configuration.md, runbooks/), checked against the repository.
    if (args.size() == 4 && args.at(1) == QLatin1String("help") && args.at(2) == QLatin1String("--docs")) {
        const QString error = writeGeneratedDocs(args.at(3));
        if (!error.isEmpty()) {
            err << "outboxctl: " << error << "\n";
            return RuntimeError;
        }
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
    // After the generated documents above, which stay English whatever the builder's locale.
    QTranslator translator;
    installTranslator(app, translator);
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
        err << "outboxctl " << name << ": " << outbox::TerminalText::escapeKeepingLines(parser.errorText())
            << "\n";
        return UsageError;
    }
    if (parser.isSet(help)) {
        out << parser.helpText().replace(QStringLiteral("outboxctl [options]"),
                                         QStringLiteral("outboxctl ") + name + QStringLiteral(" [options]"));
        return Ok;
    }
    auto config = loadConfig(parser, configKeys);
    if (!config) {
        err << "outboxctl: " << outbox::TerminalText::escapeKeepingLines(config.message()) << "\n";
        return config.error().kind == outbox::ErrorKind::Usage ? UsageError : RuntimeError;
    }
    if (!command->watchesFleets && fleetGivenWithoutMember(parser, config->config)) {
        err << "outboxctl: " << name
            << " works on one database: add --member NAME to --fleet (or give --db instead)\n";
        return UsageError;
    }
    Context ctx(parser, parser.positionalArguments(), std::move(config->config), std::move(config->member));
    return command->run(ctx);
}
