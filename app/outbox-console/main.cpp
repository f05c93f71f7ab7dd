// outbox-console: the desktop console. Parses the command line and wires the window together.
#include "core/config/Config.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/relays/ManagedRelay.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QLocale>
#include <QStandardPaths>
#include <QTimer>
#include <QTranslator>
#include <cstdio>

using namespace outbox;
using namespace outbox::desktop;

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("OutboxConsole"));
    QApplication::setApplicationName(QStringLiteral("outbox-console"));
    QApplication::setApplicationVersion(QStringLiteral(OUTBOX_VERSION));

    QTranslator translator;
    const QString i18n =
        QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("translations"));
    if (translator.load(QLocale(), QStringLiteral("outbox_console"), QStringLiteral("_"), i18n))
        QApplication::installTranslator(&translator);
    QTranslator qtTranslator;
    if (qtTranslator.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                          QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(&qtTranslator);

    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "main", "Outbox Console: live health and audited operations for a transactional outbox."));
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption db(
        QStringLiteral("db"),
        QCoreApplication::translate(
            "main",
            "Database URL (or OUTBOX_DB_URL; password from the URL, OUTBOX_DB_PASSWORD or a prompt)."),
        QStringLiteral("url"));
    QCommandLineOption tablePrefix(
        QStringLiteral("table-prefix"),
        QCoreApplication::translate("main", "Prefix of the outbox tables (or OUTBOX_DB_TABLE_PREFIX)."),
        QStringLiteral("prefix"));
    QCommandLineOption configFile(
        QStringLiteral("config"),
        QCoreApplication::translate("main",
                                    "INI configuration file: [database] url, table_prefix, password."),
        QStringLiteral("file"));
    QCommandLineOption demo(
        QStringLiteral("demo"),
        QCoreApplication::translate("main", "Start `outboxctl demo` as a child and open its database."));
    QCommandLineOption wallboard(QStringLiteral("wallboard"),
                                 QCoreApplication::translate("main", "Open the full-screen wallboard."));
    parser.addOptions({db, tablePrefix, configFile, demo, wallboard});
    parser.process(app);

    // The same configuration as outboxctl: flags > environment > file > defaults.
    config::ConfigInputs inputs;
    inputs.file = parser.value(configFile);
    inputs.environment = config::Config::systemEnvironment();
    if (parser.isSet(db))
        inputs.flags.push_back({QStringLiteral("database.url"), parser.value(db)});
    if (parser.isSet(tablePrefix))
        inputs.flags.push_back({QStringLiteral("database.table_prefix"), parser.value(tablePrefix)});
    auto configuration = config::Config::load(inputs);
    if (!configuration) {
        std::fprintf(stderr, "outbox-console: %s\n", qPrintable(configuration.message()));
        return 2;
    }

    MainWindow window;
    window.setConfiguredPassword(configuration->value(QStringLiteral("database.password")));
    window.show();

    ManagedRelay demoProcess;
    QTimer waitForDemo;
    const QString urlText = configuration->value(QStringLiteral("database.url"));
    ConnectionProfile configured;
    configured.tablePrefix = configuration->tablePrefix();
    if (parser.isSet(demo)) {
        const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
        QDir().mkpath(dir);
        const QString file = QDir(dir).filePath(QStringLiteral("demo.db"));
        const QString demoUrl = QStringLiteral("sqlite://") + file;
        QObject::connect(&demoProcess, &ManagedRelay::line, &window,
                         [](const QString& line) { std::fprintf(stderr, "demo: %s\n", qPrintable(line)); });
        demoProcess.start(ManagedRelay::locateOutboxctl(), {QStringLiteral("demo"), QStringLiteral("--db"),
                                                            demoUrl, QStringLiteral("--table-prefix=")});
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
    } else {
        QTimer::singleShot(0, &window, &MainWindow::showConnectDialog);
    }
    if (parser.isSet(wallboard))
        QTimer::singleShot(0, &window, &MainWindow::showWallboard);
    return app.exec();
}
