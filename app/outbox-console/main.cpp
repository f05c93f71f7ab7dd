// outbox-console: the desktop console. Parses the command line and wires the window together.
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
        QCoreApplication::translate("main",
                                    "Database URL (password from the URL, OUTBOX_DB_PASSWORD or a prompt)."),
        QStringLiteral("url"));
    QCommandLineOption demo(
        QStringLiteral("demo"),
        QCoreApplication::translate("main", "Start `outboxctl demo` as a child and open its database."));
    QCommandLineOption wallboard(QStringLiteral("wallboard"),
                                 QCoreApplication::translate("main", "Open the full-screen wallboard."));
    parser.addOptions({db, demo, wallboard});
    parser.process(app);

    MainWindow window;
    window.show();

    ManagedRelay demoProcess;
    QTimer waitForDemo;
    QString urlText = parser.value(db);
    if (urlText.isEmpty())
        urlText = qEnvironmentVariable("OUTBOX_DB_URL");
    if (parser.isSet(demo)) {
        const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
        QDir().mkpath(dir);
        const QString file = QDir(dir).filePath(QStringLiteral("demo.db"));
        const QString demoUrl = QStringLiteral("sqlite://") + file;
        QObject::connect(&demoProcess, &ManagedRelay::line, &window,
                         [](const QString& line) { std::fprintf(stderr, "demo: %s\n", qPrintable(line)); });
        demoProcess.start(ManagedRelay::locateOutboxctl(),
                          {QStringLiteral("demo"), QStringLiteral("--db"), demoUrl});
        // Connect once the demo has created its database; the console heals if it is not ready yet.
        int tries = 0;
        QObject::connect(&waitForDemo, &QTimer::timeout, &window, [&, file, demoUrl]() {
            if (QFileInfo::exists(file) || ++tries > 50) {
                waitForDemo.stop();
                window.connectToText(demoUrl, ConnectionProfile{QCoreApplication::translate("main", "Demo"),
                                                                demoUrl, QStringLiteral("green")});
            }
        });
        waitForDemo.start(200);
    } else if (!urlText.isEmpty()) {
        if (!window.connectToText(urlText)) {
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
