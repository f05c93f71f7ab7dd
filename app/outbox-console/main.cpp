// outbox-console: the desktop console. Parses the command line and wires the window together.
#include "core/config/Config.h"
#include "core/db/DatabaseTarget.h"
#include "core/support/TimeZone.h"
#include "ui/desktop/ConsoleStartup.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/relays/ManagedRelay.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QStandardPaths>
#include <QTimer>
#include <QTranslator>
#include <cstdio>

using namespace outbox;
using namespace outbox::desktop;

namespace {

// The catalogues: <bindir>/../share/outbox-console/translations when installed (wherever the
// tree was unpacked), <build>/app/outbox-console/translations in the build tree.
QString translationsDirectory()
{
    const QDir bin(QCoreApplication::applicationDirPath());
    for (const QString& candidate : {bin.filePath(QStringLiteral(OUTBOX_DATADIR_FROM_BINDIR "/translations")),
                                     bin.filePath(QStringLiteral("translations"))}) {
        if (QFileInfo(candidate).isDir())
            return QDir::cleanPath(candidate);
    }
    return {};
}

QIcon applicationIcon()
{
    QIcon icon;
    for (int size : {16, 24, 32, 48, 64, 128, 256, 512})
        icon.addFile(QStringLiteral(":/icons/%1/outbox-console.png").arg(size), QSize(size, size));
    return icon;
}

// outbox-console(1) in roff, from the same options as --help (installed as the man page).
QString manPage(const QString& description, const QList<QCommandLineOption>& options)
{
    const auto roff = [](QString text) {
        return text.replace(QLatin1Char('\\'), QStringLiteral("\\e"))
            .replace(QLatin1Char('-'), QStringLiteral("\\-"));
    };
    QString page =
        QStringLiteral(".TH OUTBOX\\-CONSOLE 1 \"\" \"outbox\\-console %1\" \"Outbox Console\"\n"
                       ".SH NAME\noutbox\\-console \\- desktop console for a transactional outbox\n"
                       ".SH SYNOPSIS\n.B outbox\\-console\n[\\fIoptions\\fR]\n.SH DESCRIPTION\n")
            .arg(QStringLiteral(OUTBOX_VERSION));
    page += roff(description) +
            QStringLiteral("\nWithout options it opens the connection dialog (named profiles).\n");
    page += QStringLiteral(".SH OPTIONS\n");
    for (const QCommandLineOption& o : options) {
        QStringList names;
        for (const QString& name : o.names())
            names << QStringLiteral("\\fB") +
                         roff((name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name) +
                         QStringLiteral("\\fR");
        page += QStringLiteral(".TP\n") + names.join(QStringLiteral(", "));
        if (!o.valueName().isEmpty())
            page += QStringLiteral(" \\fI") + roff(o.valueName()) + QStringLiteral("\\fR");
        page += QLatin1Char('\n') + roff(o.description()) + QLatin1Char('\n');
    }
    page += QStringLiteral(
        ".SH ENVIRONMENT\n.TP\n.B OUTBOX_DB_URL\nThe database URL when \\-\\-db is not given.\n"
        ".TP\n.B OUTBOX_DB_PASSWORD\nThe database password; otherwise the console asks for it.\n"
        ".SH SEE ALSO\n.BR outboxctl (1)\n");
    return page;
}

} // namespace

int main(int argc, char* argv[])
{
    outbox::pinLocalTimeZone();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("OutboxConsole"));
    QApplication::setApplicationName(QStringLiteral("outbox-console"));
    QApplication::setApplicationVersion(QStringLiteral(OUTBOX_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral("org.outboxconsole.OutboxConsole"));
    QApplication::setWindowIcon(applicationIcon());

    QTranslator translator;
    const QString i18n = translationsDirectory();
    const bool translated = !i18n.isEmpty() && translator.load(QLocale(), QStringLiteral("outbox_console"),
                                                               QStringLiteral("_"), i18n);
    if (translated)
        QApplication::installTranslator(&translator);
    // core's texts (the doctor's findings, causes, runbooks and actions), shared with outboxctl.
    QTranslator coreTranslator;
    if (!i18n.isEmpty() &&
        coreTranslator.load(QLocale(), QStringLiteral("outbox_core"), QStringLiteral("_"), i18n))
        QApplication::installTranslator(&coreTranslator);
    // OUTBOX_DEBUG_PATHS=1 shows where the data was looked for (the package test checks it).
    if (qEnvironmentVariableIsSet("OUTBOX_DEBUG_PATHS")) {
        std::fprintf(stderr, "outbox-console: translations %s (%s)\n",
                     i18n.isEmpty() ? "not found" : qPrintable(i18n),
                     translated ? qPrintable(translator.filePath()) : "no catalogue for this locale");
        QStringList sizes;
        for (const QSize& size : QApplication::windowIcon().availableSizes())
            sizes << QString::number(size.width());
        std::fprintf(stderr, "outbox-console: window icon %s\n",
                     sizes.isEmpty() ? "missing" : qPrintable(sizes.join(QLatin1Char(' '))));
    }
    QTranslator qtTranslator;
    if (qtTranslator.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                          QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(&qtTranslator);

    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "main", "Outbox Console: live health and audited operations for a transactional outbox."));
    parser.addHelpOption();
    parser.addVersionOption();
    const ConsoleCommandLine commandLine;
    QCommandLineOption manPageOption(QStringLiteral("man-page"));
    manPageOption.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions(commandLine.options() << manPageOption);
    parser.process(app);
    if (parser.isSet(manPageOption)) {
        const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")},
                                      QStringLiteral("Displays help on commandline options."));
        const QCommandLineOption version(QStringLiteral("version"),
                                         QStringLiteral("Displays version information."));
        std::fputs(
            qPrintable(manPage(parser.applicationDescription(), commandLine.options() << help << version)),
            stdout);
        return 0;
    }

    // The same configuration as outboxctl: flags > environment > file > defaults.
    auto configuration = commandLine.configuration(parser, config::Config::systemEnvironment());
    if (!configuration) {
        std::fprintf(stderr, "outbox-console: %s\n", qPrintable(configuration.message()));
        return 2;
    }

    MainWindow window;
    window.setConfiguration(*configuration);
    window.show();
    auto fleetOpened = openConfiguredFleet(window, *configuration);
    if (!fleetOpened) {
        std::fprintf(stderr, "outbox-console: %s\n", qPrintable(fleetOpened.message()));
        return 2;
    }

    ManagedRelay demoProcess;
    QTimer waitForDemo;
    const QString urlText = configuration->value(QStringLiteral("database.url"));
    ConnectionProfile configured;
    configured.tablePrefix = configuration->tablePrefix();
    if (parser.isSet(commandLine.demo)) {
        const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
        QDir().mkpath(dir);
        const QString file = QDir(dir).filePath(QStringLiteral("demo.db"));
        const QString demoUrl = QStringLiteral("sqlite://") + file;
        QObject::connect(&demoProcess, &ManagedRelay::line, &window,
                         [](const QString& line) { std::fprintf(stderr, "demo: %s\n", qPrintable(line)); });
        auto demoTarget = DatabaseTarget::fromConfig(*configuration, demoUrl, QString());
        if (!demoTarget) {
            std::fprintf(stderr, "outbox-console: %s\n", qPrintable(demoTarget.message()));
            return 2;
        }
        demoProcess.startOutboxctl(*demoTarget, QStringLiteral("demo"));
        // Connect once the demo has created its database; the console heals if it is not ready yet.
        int tries = 0;
        QObject::connect(&waitForDemo, &QTimer::timeout, &window, [&, file, demoUrl]() {
            if (QFileInfo::exists(file) || ++tries > 50) {
                waitForDemo.stop();
                window.connectToText(demoUrl, ConnectionProfile{QCoreApplication::translate("main", "Demo"),
                                                                demoUrl, QStringLiteral("green"), QString()});
            }
        });
        waitForDemo.start(200);
    } else if (!urlText.isEmpty()) {
        if (!window.connectToText(urlText, configured)) {
            std::fprintf(stderr, "outbox-console: cannot use the database URL \"%s\"\n", qPrintable(urlText));
            return 2;
        }
    } else if (!*fleetOpened) {
        QTimer::singleShot(0, &window, &MainWindow::showConnectDialog);
    }
    if (parser.isSet(commandLine.wallboard))
        QTimer::singleShot(0, &window, &MainWindow::showWallboard);
    return app.exec();
}
