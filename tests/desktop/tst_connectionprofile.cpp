// A connection profile with a table prefix, driven through the real connect dialog: saved without a
// password, chosen again from the list, and every page, action and managed relay of the console then
// works on the prefixed tables while the unprefixed outbox in the same database stays as it was.
#include "core/broker/kafka/EmbeddedBroker.h"
#include "core/db/Migrator.h"
#include "core/fleet/Fleet.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/WidgetFinder.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/events/EventTableModel.h"
#include "ui/desktop/events/EventsPage.h"
#include "ui/desktop/overview/StatTile.h"
#include "ui/desktop/relays/ManagedRelay.h"
#include "ui/desktop/relays/RelaysPage.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace outbox;
using namespace outbox::desktop;
using namespace outbox::test;

class TestConnectionProfile : public QObject
{
    Q_OBJECT

private:
    static QDialog* openConnectDialog(MainWindow& window)
    {
        window.showConnectDialog();
        QDialog* dialog = nullptr;
        (void)QTest::qWaitFor(
            [&]() {
                const auto dialogs = window.findChildren<QDialog*>(QStringLiteral("connectDialog"));
                for (QDialog* d : dialogs)
                    if (d->isVisible())
                        dialog = d;
                return dialog != nullptr;
            },
            5000);
        return dialog;
    }

    // Triggers the File menu's action and answers its file dialog by typing `path` and Enter.
    static bool chooseFile(MainWindow& window, const char* action, const char* dialogName,
                           const QString& path)
    {
        auto* a = window.findChild<QAction*>(QLatin1String(action));
        if (!a) {
            qWarning("no action %s", action);
            return false;
        }
        a->trigger();
        QFileDialog* dialog = nullptr;
        if (!QTest::qWaitFor(
                [&]() {
                    dialog = window.findChild<QFileDialog*>(QLatin1String(dialogName));
                    return dialog && dialog->isVisible();
                },
                5000)) {
            qWarning("no dialog %s", dialogName);
            return false;
        }
        // Its directory, the file name typed into its field, then its Open/Save button.
        dialog->setDirectory(QFileInfo(path).absolutePath());
        auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
        if (!name) {
            qWarning("no file name field in %s", dialogName);
            return false;
        }
        name->selectAll();
        QTest::keyClicks(name, QFileInfo(path).fileName());
        auto* buttons = dialog->findChild<QDialogButtonBox*>(QStringLiteral("buttonBox"));
        QPushButton* accept = buttons ? qobject_cast<QPushButton*>(buttons->buttons().value(0)) : nullptr;
        for (QAbstractButton* b : buttons ? buttons->buttons() : QList<QAbstractButton*>{})
            if (buttons->buttonRole(b) == QDialogButtonBox::AcceptRole)
                accept = qobject_cast<QPushButton*>(b);
        if (!accept || !QTest::qWaitFor([&]() { return accept->isEnabled(); }, 5000)) {
            qWarning("no enabled accept button in %s (field \"%s\")", dialogName, qPrintable(name->text()));
            return false;
        }
        QTest::mouseClick(accept, Qt::LeftButton);
        QPointer<QFileDialog> open(dialog);
        if (!QTest::qWaitFor([&]() { return !open || !open->isVisible(); }, 5000)) {
            qWarning("%s still open", dialogName);
            return false;
        }
        return true;
    }

    static QByteArray savedSettings()
    {
        QSettings().sync();
        QFile saved(QSettings().fileName());
        return saved.open(QIODevice::ReadOnly) ? saved.readAll() : QByteArray();
    }

    static void typeInto(QLineEdit* edit, const QString& text)
    {
        edit->selectAll();
        QTest::keyClick(edit, Qt::Key_Backspace);
        QTest::keyClicks(edit, text);
    }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("OutboxConsoleProfileTest"));
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void cleanupTestCase() { QSettings().clear(); }

    // File › Import connection profiles from fleet file…: one profile per member (URL, table prefix,
    // red for env=prod), no password in the saved settings even when the member has one; an invalid
    // file is one error and changes no profile.
    void importProfilesFromAFleetFile()
    {
        QSettings().clear();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("fleet.ini"));
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("[fleet]\ninterval = 5s\n"
                       "[member orders]\nurl = postgresql://outbox@db-orders:5432/orders?sslmode=require\n"
                       "table_prefix = o_\ntags = team=checkout, env=prod\n"
                       "[member edge-cache]\nurl = sqlite:///var/lib/edge/outbox.db\ntags = team=edge\n");
        }
        qputenv("OUTBOX_DB_PASSWORD_ORDERS", "pw-from-environment");
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(chooseFile(window, "importProfilesAction", "importProfilesDialog", path));
        qunsetenv("OUTBOX_DB_PASSWORD_ORDERS");
        QVERIFY2(window.statusBar()->currentMessage().startsWith(
                     QStringLiteral("Imported 2 connection profile(s)")),
                 qPrintable(window.statusBar()->currentMessage()));
        const QVector<ConnectionProfile> profiles = ProfileStore::load();
        QCOMPARE(profiles.size(), 2);
        QCOMPARE(profiles.at(0).name, QStringLiteral("orders"));
        QCOMPARE(profiles.at(0).url,
                 QStringLiteral("postgresql://outbox@db-orders:5432/orders?sslmode=require"));
        QCOMPARE(profiles.at(0).tablePrefix, QStringLiteral("o_"));
        QCOMPARE(profiles.at(0).colour, QStringLiteral("red"));
        QCOMPARE(profiles.at(1).name, QStringLiteral("edge-cache"));
        QCOMPARE(profiles.at(1).url, QStringLiteral("sqlite:///var/lib/edge/outbox.db"));
        QCOMPARE(profiles.at(1).tablePrefix, QString());
        QCOMPARE(profiles.at(1).colour, QString());
        const QByteArray settings = savedSettings();
        QVERIFY(settings.contains("db-orders"));
        QVERIFY2(!settings.contains("pw-from-environment"), settings.constData());

        // The connect dialog offers them.
        QDialog* dialog = openConnectDialog(window);
        QVERIFY(dialog);
        auto* choice = child<QComboBox>(dialog, "profileChoice");
        QVERIFY(choice->findText(QStringLiteral("orders"), Qt::MatchContains) >= 0);
        QVERIFY(choice->findText(QStringLiteral("edge-cache"), Qt::MatchContains) >= 0);
        dialog->reject();

        // A bad file: one error naming the member and its line; the profiles stay as they were.
        const QString bad = dir.filePath(QStringLiteral("bad.ini"));
        {
            QFile file(bad);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("[member billing]\nurl = postgresql://outbox@db/billing\n"
                       "[member orders]\nurl = postgresql://outbox@db/orders\ncolour = red\n");
        }
        QVERIFY(chooseFile(window, "importProfilesAction", "importProfilesDialog", bad));
        const QString message = window.statusBar()->currentMessage();
        QVERIFY2(message.startsWith(QStringLiteral("Cannot import connection profiles: ")) &&
                     message.contains(QStringLiteral(":5: member orders: unknown key colour")),
                 qPrintable(message));
        QCOMPARE(ProfileStore::load().size(), 2);
    }

    // File › Export connection profiles to fleet file…: a fleet file core's parser reads back with
    // every profile as a member (name made a member name, URL without its password, table prefix,
    // env=prod for a red profile).
    void exportProfilesToAFleetFile()
    {
        QSettings().clear();
        ProfileStore::save(ConnectionProfile{QStringLiteral("Local dev"),
                                             QStringLiteral("sqlite:///tmp/dev.db"), QStringLiteral("green"),
                                             QString()});
        ProfileStore::save(ConnectionProfile{
            QStringLiteral("orders"), QStringLiteral("postgresql://ops:pw-secret@db-orders:5432/orders"),
            QStringLiteral("red"), QStringLiteral("o_")});
        ProfileStore::save(ConnectionProfile{QStringLiteral("payments"),
                                             QStringLiteral("mysql://outbox@db-pay:3306/payments"), QString(),
                                             QString()});
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("exported.ini"));
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(chooseFile(window, "exportProfilesAction", "exportProfilesDialog", path));
        QVERIFY2(window.statusBar()->currentMessage().startsWith(
                     QStringLiteral("Exported 3 connection profile(s)")),
                 qPrintable(window.statusBar()->currentMessage()));

        QFile written(path);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QByteArray text = written.readAll();
        QVERIFY2(!text.contains("pw-secret"), text.constData());
        auto fleet = Fleet::load(path, QProcessEnvironment());
        QVERIFY2(fleet.ok(), qPrintable(fleet.message()));
        QCOMPARE(fleet->members().size(), 3);
        const FleetMember& dev = fleet->members().at(0);
        QCOMPARE(dev.name, QStringLiteral("Local-dev"));
        QCOMPARE(dev.url().redacted(), QStringLiteral("sqlite:///tmp/dev.db"));
        QVERIFY(dev.tags.isEmpty());
        const FleetMember* orders = fleet->member(QStringLiteral("orders"));
        QVERIFY(orders);
        QCOMPARE(orders->url().redacted(), QStringLiteral("postgresql://ops@db-orders:5432/orders"));
        QVERIFY(orders->url().password.isEmpty());
        QCOMPARE(orders->tablePrefix(), QStringLiteral("o_"));
        QCOMPARE(orders->tagTexts(), QStringList{QStringLiteral("env=prod")});
        const FleetMember* payments = fleet->member(QStringLiteral("payments"));
        QVERIFY(payments);
        QCOMPARE(payments->url().redacted(), QStringLiteral("mysql://outbox@db-pay:3306/payments"));

        // Imported again, the same profiles come back (the red one red).
        QSettings().clear();
        QVERIFY(chooseFile(window, "importProfilesAction", "importProfilesDialog", path));
        const QVector<ConnectionProfile> back = ProfileStore::load();
        QCOMPARE(back.size(), 3);
        QCOMPARE(back.at(1).name, QStringLiteral("orders"));
        QCOMPARE(back.at(1).url, QStringLiteral("postgresql://ops@db-orders:5432/orders"));
        QCOMPARE(back.at(1).colour, QStringLiteral("red"));
        QCOMPARE(back.at(1).tablePrefix, QStringLiteral("o_"));

        // A profile whose URL cannot be written is one error naming it; no file is written.
        ProfileStore::save(
            ConnectionProfile{QStringLiteral("broken"), QStringLiteral("ftp://x/y"), QString(), QString()});
        const QString second = dir.filePath(QStringLiteral("second.ini"));
        QVERIFY(chooseFile(window, "exportProfilesAction", "exportProfilesDialog", second));
        QVERIFY2(window.statusBar()->currentMessage().startsWith(
                     QStringLiteral("Cannot export connection profiles: ")),
                 qPrintable(window.statusBar()->currentMessage()));
        QVERIFY(!QFile::exists(second));
        QSettings().clear();
    }

    void profileWithTablePrefixWorksOnThePrefixedTablesOnly()
    {
        if (qEnvironmentVariable("OUTBOXCTL").isEmpty())
            QSKIP("OUTBOXCTL not set");
        // One SQLite database, two outboxes: another application's (unprefixed) and ours (t_).
        auto plain = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("profileprefix"));
        const auto plainIds = insertEvents(*plain, 5);
        forceStatus(*plain, plainIds.mid(0, 2), QStringLiteral("FAILED"), QStringLiteral("boom"));
        auto opened =
            Database::open(plain->url(), Database::Options{QStringLiteral("test"), QStringLiteral("t_"), 5});
        QVERIFY(opened.ok());
        Database& t = **opened;
        QVERIFY(Migrator(t).migrate().ok());
        const auto ids = insertEvents(t, 8, QStringLiteral("OrderCreated"), QStringLiteral("t-order-"));
        forceStatus(t, ids.mid(0, 3), QStringLiteral("FAILED"), QStringLiteral("schema check failed"));
        auto broker = EmbeddedBroker::start(1);
        QVERIFY(broker.ok());
        QVERIFY((*broker)->createTopic(QStringLiteral("order"), 3).ok());

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        // Save two profiles: one whose URL holds a password, and ours.
        QDialog* dialog = openConnectDialog(window);
        QVERIFY(dialog);
        typeInto(child<QLineEdit>(dialog, "profileName"), QStringLiteral("remote"));
        typeInto(child<QLineEdit>(dialog, "profileUrl"),
                 QStringLiteral("postgresql://ops:pw-secret@127.0.0.1:1/orders?sslmode=verify-full"));
        typeInto(child<QLineEdit>(dialog, "profileTablePrefix"), QStringLiteral("r-1")); // - cannot be typed
        QCOMPARE(child<QLineEdit>(dialog, "profileTablePrefix")->text(), QStringLiteral("r1"));
        QTest::mouseClick(child<QPushButton>(dialog, "saveProfile"), Qt::LeftButton);
        typeInto(child<QLineEdit>(dialog, "profileName"), QStringLiteral("ours"));
        typeInto(child<QLineEdit>(dialog, "profileUrl"), TestDatabases::urlText(plain->url()));
        typeInto(child<QLineEdit>(dialog, "profileTablePrefix"), QStringLiteral("t_"));
        QTest::mouseClick(child<QPushButton>(dialog, "saveProfile"), Qt::LeftButton);
        dialog->reject();
        QSettings().sync();
        QFile saved(QSettings().fileName());
        QVERIFY2(saved.open(QIODevice::ReadOnly), qPrintable(saved.fileName()));
        const QByteArray settings = saved.readAll();
        QVERIFY2(!settings.contains("pw-secret"), settings.constData());
        QVERIFY2(settings.contains("tablePrefix=t_") && settings.contains("tablePrefix=r1"),
                 settings.constData());

        // Choose ours again from the list, with the keyboard, and connect.
        dialog = openConnectDialog(window);
        QVERIFY(dialog);
        auto* choice = child<QComboBox>(dialog, "profileChoice");
        QCOMPARE(choice->count(), 3);
        choice->setFocus();
        QTest::keyClick(choice, Qt::Key_Down);
        QTest::keyClick(choice, Qt::Key_Down);
        QCOMPARE(child<QLineEdit>(dialog, "profileName")->text(), QStringLiteral("ours"));
        QCOMPARE(child<QLineEdit>(dialog, "profileTablePrefix")->text(), QStringLiteral("t_"));
        QTest::mouseClick(child<QPushButton>(dialog, "connectButton"), Qt::LeftButton);

        // The overview and the event browser show t_*: 3 FAILED of 8, not 2 of 5.
        QTRY_COMPARE_WITH_TIMEOUT(child<StatTile>(&window, "tile_FAILED")->value(), QStringLiteral("3"),
                                  15000);
        QVERIFY(window.windowTitle().contains(QStringLiteral("t_")));
        window.pages()->setCurrentWidget(window.events());
        QTRY_COMPARE_WITH_TIMEOUT(window.events()->model()->rowCount(), 8, 15000);

        // An action from the console changes t_* only.
        auto* status = child<QComboBox>(&window, "filterStatus");
        status->setCurrentIndex(status->findData(QStringLiteral("FAILED")));
        QTest::mouseClick(child<QPushButton>(&window, "applyFilter"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(
            window.events()->model()->rowCount() == 3 && window.events()->model()->atEnd(), 15000);
        auto* table = child<QTableView>(&window, "eventsTable");
        const QRect r = table->visualRect(table->model()->index(0, 0));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, r.center());
        const qint64 target = window.events()->model()->eventAt(0)->id;
        QTest::mouseClick(child<QPushButton>(&window, "requeueButton"), Qt::LeftButton);
        QDialog* action = nullptr;
        QVERIFY(QTest::qWaitFor(
            [&]() {
                action = window.findChild<QDialog*>(QStringLiteral("actionDialog"));
                return action && action->isVisible() && child<QPushButton>(action, "actionRun");
            },
            10000));
        QTest::keyClicks(child<QLineEdit>(action, "actionReason"), QStringLiteral("prefixed profile"));
        QTRY_VERIFY_WITH_TIMEOUT(child<QPushButton>(action, "actionRun")->isEnabled(), 10000);
        QTest::mouseClick(child<QPushButton>(action, "actionRun"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(t, target), QStringLiteral("PENDING"), 15000);
        QCOMPARE(countRows(t, QStringLiteral("{audit}"), QStringLiteral("reason = 'prefixed profile'")),
                 qint64(1));
        QCOMPARE(countRows(*plain, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")),
                 qint64(2));
        QCOMPARE(countRows(*plain, QStringLiteral("{audit}")), qint64(0));

        // The relay the console starts works on t_* too.
        window.pages()->setCurrentWidget(window.relays());
        QTest::keyClicks(child<QLineEdit>(&window, "relayArguments"),
                         QStringLiteral("--kafka-bootstrap ") + (*broker)->bootstrap());
        QTest::mouseClick(child<QPushButton>(&window, "startRelay"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(countRows(t, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")),
                                  qint64(6), 30000);
        QVERIFY(child<QPlainTextEdit>(&window, "relayLog")
                    ->toPlainText()
                    .contains(QStringLiteral("--table-prefix=t_")));
        QTest::mouseClick(child<QPushButton>(&window, "stopRelay"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!window.relays()->managedRelay()->isRunning(), 20000);
        QCOMPARE(countRows(*plain, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")),
                 qint64(3));
        QCOMPARE(countRows(*plain, QStringLiteral("{relays}")), qint64(0));
    }
};

QTEST_MAIN(TestConnectionProfile)
#include "tst_connectionprofile.moc"
