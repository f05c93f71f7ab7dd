#include "tests/support/BulkEvents.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/WidgetFinder.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/relays/ManagedRelay.h"
#include "ui/desktop/relays/RelaysPage.h"
#include "ui/desktop/widgets/RecordTableModel.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using namespace outbox;
using namespace outbox::desktop;
using namespace outbox::test;

// Issue 25: pages that never say something false. The real MainWindow, offscreen, driven by the
// clicks and keys an on-call operator uses, over real SQLite databases and real `outboxctl`
// children (relay, embedded broker).
class TestConsoleTruth : public QObject
{
    Q_OBJECT

private:
    static QAction* menuAction(MainWindow& window, const QString& text)
    {
        for (QAction* menu : window.menuBar()->actions())
            if (menu->menu())
                for (QAction* a : menu->menu()->actions())
                    if (a->text() == text)
                        return a;
        qWarning("no menu action %s", qPrintable(text));
        return nullptr;
    }

    template <typename T> static T* waitForTopLevel(const QString& name)
    {
        T* found = nullptr;
        (void)QTest::qWaitFor(
            [&]() {
                for (QWidget* w : QApplication::topLevelWidgets())
                    if (w->objectName() == name && w->isVisible())
                        found = qobject_cast<T*>(w);
                return found != nullptr;
            },
            10000);
        return found;
    }

    // Opens Connection > Connect…, types the URL and presses Connect.
    static QDialog* connectThroughDialog(MainWindow& window, const QString& url)
    {
        menuAction(window, MainWindow::tr("&Connect…"))->trigger();
        auto* dialog = waitForTopLevel<QDialog>(QStringLiteral("connectDialog"));
        if (!dialog)
            return nullptr;
        auto* edit = child<QLineEdit>(dialog, "profileUrl");
        edit->clear();
        QTest::keyClicks(edit, url);
        QTest::mouseClick(child<QPushButton>(dialog, "connectButton"), Qt::LeftButton);
        return dialog;
    }

    static qint64 registeredRelays(Database& db)
    {
        return countRows(db, QStringLiteral("{relays}"), QStringLiteral("1 = 1"));
    }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("OutboxConsoleTruthTest"));
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    // Item 6: the managed relay belongs to its connection. Switching asks (stop / keep it running
    // in the background, labelled with its database); the new connection's page shows none of the
    // old relay's state or log and its Start works; coming back finds the relay again.
    void managedRelayBelongsToItsConnection()
    {
        if (qEnvironmentVariable("OUTBOXCTL").isEmpty())
            QSKIP("OUTBOXCTL not set");
        auto a = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("relay-a"));
        auto b = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("relay-b"));
        auto broker =
            startOutboxctl({QStringLiteral("kafka"), QStringLiteral("--topic"), QStringLiteral("Order:1")});
        QVERIFY(broker->canReadLine() || broker->waitForReadyRead(10000));
        const QByteArray line = broker->readLine().trimmed();
        QVERIFY2(line.startsWith("bootstrap 127.0.0.1:"), line.constData());
        const QString bootstrap = QStringLiteral("--kafka-bootstrap ") + QString::fromUtf8(line.mid(10));

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(a->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 10000);
        window.pages()->setCurrentWidget(window.relays());
        auto* state = child<QLabel>(&window, "managedRelayState");
        auto* log = child<QPlainTextEdit>(&window, "relayLog");
        auto* served = child<QLabel>(&window, "managedRelayDatabase");
        QVERIFY2(served->text().contains(a->url().redacted()), qPrintable(served->text()));
        QTest::keyClicks(child<QLineEdit>(&window, "relayArguments"), bootstrap);
        QTest::mouseClick(child<QPushButton>(&window, "startRelay"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(registeredRelays(*a), qint64(1), 15000);
        QPointer<ManagedRelay> relayOfA = window.relays()->managedRelay();
        QVERIFY(relayOfA->isRunning());

        // Switching to B asks what becomes of A's relay, naming A's database.
        QPointer<QDialog> dialog = connectThroughDialog(window, TestDatabases::urlText(b->url()));
        QVERIFY(dialog);
        auto* question = waitForTopLevel<QMessageBox>(QStringLiteral("managedRelayQuestion"));
        QVERIFY2(question, "switching connection did not ask about the running managed relay");
        QVERIFY2(question->text().contains(a->url().redacted()), qPrintable(question->text()));
        // Cancel: still on A, its relay untouched.
        QTest::mouseClick(child<QPushButton>(question, "cancelSwitch"), Qt::LeftButton);
        QTest::qWait(200);
        QVERIFY(window.windowTitle().contains(a->url().redacted()));
        QVERIFY(relayOfA && relayOfA->isRunning());
        QCOMPARE(window.relays()->managedRelay(), relayOfA.data());

        // Again, and keep it running in the background.
        dialog = connectThroughDialog(window, TestDatabases::urlText(b->url()));
        question = waitForTopLevel<QMessageBox>(QStringLiteral("managedRelayQuestion"));
        QVERIFY(question);
        QTest::mouseClick(child<QPushButton>(question, "keepManagedRelay"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.windowTitle().contains(b->url().redacted()), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 10000);
        // B's page: nothing of A's relay as if it were B's.
        QVERIFY(window.relays()->managedRelay() != relayOfA.data());
        QCOMPARE(state->text(), RelaysPage::tr("not running"));
        QVERIFY2(!log->toPlainText().contains(a->url().redacted()), qPrintable(log->toPlainText()));
        QVERIFY2(served->text().contains(b->url().redacted()), qPrintable(served->text()));
        // …while A's relay runs on, listed with the database it serves.
        QVERIFY(relayOfA && relayOfA->isRunning());
        auto* background = child<QTableWidget>(&window, "backgroundRelays");
        QVERIFY(background->isVisible());
        QCOMPARE(background->rowCount(), 1);
        QVERIFY2(background->item(0, 0)->text().contains(a->url().redacted()),
                 qPrintable(background->item(0, 0)->text()));
        QCOMPARE(registeredRelays(*a), qint64(1));
        QCOMPARE(registeredRelays(*b), qint64(0));
        QTest::qWait(2500); // heartbeats and samples go on: A's relay never shows up on B's page
        QCOMPARE(state->text(), RelaysPage::tr("not running"));
        QCOMPARE(window.relays()->model()->rowCount(), 0);

        // Start on B starts B's own relay.
        QTest::mouseClick(child<QPushButton>(&window, "startRelay"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(registeredRelays(*b), qint64(1), 15000);
        QPointer<ManagedRelay> relayOfB = window.relays()->managedRelay();
        QVERIFY(relayOfB && relayOfB->isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(log->toPlainText().contains(b->url().redacted()), 5000);
        QVERIFY(!log->toPlainText().contains(a->url().redacted()));

        // Back to A, stopping B's relay: A's page has its relay again, B's stops and deregisters.
        dialog = connectThroughDialog(window, TestDatabases::urlText(a->url()));
        question = waitForTopLevel<QMessageBox>(QStringLiteral("managedRelayQuestion"));
        QVERIFY(question);
        QVERIFY2(question->text().contains(b->url().redacted()), qPrintable(question->text()));
        QTest::mouseClick(child<QPushButton>(question, "stopManagedRelay"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.windowTitle().contains(a->url().redacted()), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(registeredRelays(*b), qint64(0), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!relayOfB, 5000); // stopped, gone from the background list
        QCOMPARE(window.relays()->managedRelay(), relayOfA.data());
        QCOMPARE(state->text(), ManagedRelay::tr("running"));
        QTRY_COMPARE_WITH_TIMEOUT(background->rowCount(), 0, 5000);
        QVERIFY(!background->isVisible());

        QTest::mouseClick(child<QPushButton>(&window, "stopRelay"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(registeredRelays(*a), qint64(0), 20000);
        broker->terminate();
        QVERIFY(broker->waitForFinished(10000));
    }
};

QTEST_MAIN(TestConsoleTruth)
#include "tst_consoletruth.moc"
