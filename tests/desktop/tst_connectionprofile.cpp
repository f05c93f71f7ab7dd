// A connection profile with a table prefix, driven through the real connect dialog: saved without a
// password, chosen again from the list, and every page, action and managed relay of the console then
// works on the prefixed tables while the unprefixed outbox in the same database stays as it was.
#include "core/broker/EmbeddedBroker.h"
#include "core/db/Migrator.h"
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
#include <QFile>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
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
