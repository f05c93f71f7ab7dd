// Issue 40 items 4, 5 and 10: pages that follow what happens and keep each database's own settings.
// The real MainWindow (offscreen) driven by clicks and keys, over real SQLite and MariaDB
// databases and real `outboxctl` children (the relay, the embedded Kafka broker).
#include "core/db/InboxStore.h"
#include "core/db/RelayStore.h"
#include "tests/support/ConsoleClicks.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/WidgetFinder.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/consumers/ConsumersPage.h"
#include "ui/desktop/events/BlockedAggregatesPage.h"
#include "ui/desktop/recovery/FindingsModel.h"
#include "ui/desktop/recovery/RecoveryFlow.h"
#include "ui/desktop/recovery/RecoveryPage.h"
#include "ui/desktop/relays/ManagedRelay.h"
#include "ui/desktop/relays/RelaysPage.h"
#include "ui/desktop/widgets/RecordTableModel.h"

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QDialog>
#include <QDialogButtonBox>
#include <QGraphicsTextItem>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace outbox;
using namespace outbox::desktop;
using namespace outbox::test;

namespace {

// Connection › Connect…, the URL typed, Connect pressed.
QDialog* connectThroughDialog(MainWindow& window, const QString& url)
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

// Connects through the dialog and answers a question about a running managed relay with `answer`.
void switchTo(MainWindow& window, const QString& url, const char* answer = "keepManagedRelay")
{
    QVERIFY(connectThroughDialog(window, url));
    if (window.relays()->managedRelay()->isActive()) {
        auto* question = waitForTopLevel<QMessageBox>(QStringLiteral("managedRelayQuestion"));
        QVERIFY(question);
        QTest::mouseClick(child<QPushButton>(question, answer), Qt::LeftButton);
    }
    QTRY_VERIFY_WITH_TIMEOUT(window.windowTitle().contains(DatabaseUrl::parse(url)->redacted()), 15000);
}

// The embedded Kafka broker (`outboxctl kafka`) and its bootstrap address.
std::unique_ptr<QProcess> startBroker(QString* bootstrap)
{
    auto broker =
        startOutboxctl({QStringLiteral("kafka"), QStringLiteral("--topic"), QStringLiteral("Order:1")});
    if (!broker->canReadLine() && !broker->waitForReadyRead(10000))
        return nullptr;
    const QByteArray line = broker->readLine().trimmed();
    if (!line.startsWith("bootstrap 127.0.0.1:"))
        return nullptr;
    *bootstrap = QString::fromUtf8(line.mid(10));
    return broker;
}

qint64 registeredRelays(Database& db)
{
    return countRows(db, QStringLiteral("{relays}"));
}

} // namespace

class TestConsoleCurrent : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("OutboxConsoleCurrentTest"));
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    // Item 5: the Blocked page follows the sampler. Opened while nothing is blocked, it shows the
    // aggregate that a later FAILED event blocks within a few samples, without Refresh.
    void blockedPageFollowsTheSampler()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("blocked")));
        const auto ids = insertEvents(*db, 2, QStringLiteral("OrderCreated"), QStringLiteral("same-"));
        exec(*db, QStringLiteral("UPDATE {events} SET aggregate_id = 'same-0'"));
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 10000);
        clickTab(window, window.blocked());
        QTest::qWait(500);
        QCOMPARE(window.blocked()->model()->rowCount(), 0);

        forceStatus(*db, {ids.at(0)}, QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Topic authorization failed"));
        QTRY_COMPARE_WITH_TIMEOUT(window.blocked()->model()->rowCount(), 1, 15000);
        QCOMPARE(window.blocked()->model()->record(0).value(QStringLiteral("blocking_id")).toInteger(),
                 ids.at(0));

        // …and lets it go once it is not blocked any more, keeping nothing stale on screen.
        forceStatus(*db, {ids.at(0)}, QStringLiteral("SENT"));
        QTRY_COMPARE_WITH_TIMEOUT(window.blocked()->model()->rowCount(), 0, 15000);
    }

    // Item 5: a server asks for the password the URL did not give; the prompt gets the right one
    // and the Connect dialog closes, the console on the new database (no red "cannot connect").
    void connectDialogClosesOnceThePasswordWorks()
    {
        if (!TestDatabases::available(QStringLiteral("mysql")))
            QSKIP("no MariaDB test server");
        auto db =
            TestDatabases::fresh(QStringLiteral("mysql"), TestDatabases::uniqueName(QStringLiteral("pw")));
        DatabaseUrl url = db->url();
        QVERIFY(!url.password.isEmpty());
        const QString password = url.password;
        url.password.clear();
        const QString withoutPassword = url.redacted();

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QPointer<QDialog> dialog = connectThroughDialog(window, withoutPassword);
        QVERIFY(dialog);
        auto* prompt = waitForTopLevel<QInputDialog>(QStringLiteral("passwordPrompt"));
        QVERIFY2(prompt, "no password prompt");
        auto* field = prompt->findChild<QLineEdit*>();
        QVERIFY(field);
        QTest::keyClicks(field, password);
        QTest::keyClick(field, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 15000);
        // Closed (and deleted); while it is open, its red text says why.
        const auto dialogText = [&dialog]() {
            auto* error = dialog ? dialog->findChild<QLabel*>(QStringLiteral("connectError")) : nullptr;
            return error ? error->text() : QString();
        };
        QTRY_VERIFY2_WITH_TIMEOUT(!dialog || !dialog->isVisible(), qPrintable(dialogText()), 5000);
        QVERIFY(window.windowTitle().contains(withoutPassword));
    }

    // Item 5: after A → B → A the managed relay's output lines appear once each in its log.
    void relayOutputOnceAfterRoundTrips()
    {
        QString bootstrap;
        auto broker = startBroker(&bootstrap);
        QVERIFY(broker);
        auto a = TestDatabases::fresh(QStringLiteral("sqlite"),
                                      TestDatabases::uniqueName(QStringLiteral("once-a")));
        auto b = TestDatabases::fresh(QStringLiteral("sqlite"),
                                      TestDatabases::uniqueName(QStringLiteral("once-b")));
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(a->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 10000);
        clickTab(window, window.relays());
        QTest::keyClicks(child<QLineEdit>(&window, "relayArguments"),
                         QStringLiteral("--kafka-bootstrap ") + bootstrap);
        QTest::mouseClick(child<QPushButton>(&window, "startRelay"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(registeredRelays(*a), qint64(1), 15000);
        QPointer<ManagedRelay> relay = window.relays()->managedRelay();

        for (int trip = 0; trip < 2; ++trip) {
            switchTo(window, TestDatabases::urlText(b->url()));
            switchTo(window, TestDatabases::urlText(a->url()));
        }
        QCOMPARE(window.relays()->managedRelay(), relay.data());
        auto* log = child<QPlainTextEdit>(&window, "relayLog");
        const QString before = log->toPlainText();
        QSignalSpy lines(relay.data(), &ManagedRelay::line);
        QTest::mouseClick(child<QPushButton>(&window, "stopRelay"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(registeredRelays(*a), qint64(0), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!relay->isActive(), 20000);
        QVERIFY(lines.count() > 0);
        QString expected;
        for (const QList<QVariant>& args : std::as_const(lines))
            expected += QLatin1Char('\n') + args.at(0).toString();
        QCOMPARE(log->toPlainText().mid(before.size()), expected);
        terminateAndWait(*broker);
    }

    // Item 4: each database has its own managed relay arguments: B's Relays page does not offer
    // A's broker and ordering, and A's come back with A.
    void relayArgumentsBelongToTheirDatabase()
    {
        auto a = TestDatabases::fresh(QStringLiteral("sqlite"),
                                      TestDatabases::uniqueName(QStringLiteral("args-a")));
        auto b = TestDatabases::fresh(QStringLiteral("sqlite"),
                                      TestDatabases::uniqueName(QStringLiteral("args-b")));
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(a->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 10000);
        clickTab(window, window.relays());
        auto* arguments = child<QLineEdit>(&window, "relayArguments");
        const QString ofA = QStringLiteral("--ordering=aggregate --kafka-bootstrap=127.0.0.1:1");
        QTest::keyClicks(arguments, ofA);
        switchTo(window, TestDatabases::urlText(b->url()));
        QCOMPARE(arguments->text(), QString());
        QTest::keyClicks(arguments, QStringLiteral("--kafka-bootstrap=127.0.0.1:2"));
        switchTo(window, TestDatabases::urlText(a->url()));
        QCOMPARE(arguments->text(), ofA);
        switchTo(window, TestDatabases::urlText(b->url()));
        QCOMPARE(arguments->text(), QStringLiteral("--kafka-bootstrap=127.0.0.1:2"));
    }

    // Item 4: "Start a managed relay" of the no-relay finding names the broker the dead relay
    // registered (the relay registry), and the relay it starts sends the events there.
    void preparedRelayCarriesTheRegisteredBroker()
    {
        QString bootstrap;
        auto broker = startBroker(&bootstrap);
        QVERIFY(broker);
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("registry")));
        insertEvents(*db, 5);
        RelayRecord dead;
        dead.workerId = QStringLiteral("relay-dead");
        dead.host = QStringLiteral("relay-host");
        dead.state = QStringLiteral("RUNNING");
        dead.brokerKind = QStringLiteral("kafka");
        dead.brokerAddress = bootstrap;
        QVERIFY(RelayStore(*db).heartbeat(dead).ok());
        exec(*db,
             QStringLiteral("UPDATE {relays} SET heartbeat_at = %1")
                 .arg(db->dialect().nowPlusMillis(QStringLiteral(":ms"))),
             {{QStringLiteral(":ms"), -600000}});

        MainWindow window;
        window.setConfiguration(config::Config{}); // no broker configured: only the registry knows
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QVERIFY(chooseFinding(window, QStringLiteral("no-relay")));
        RecoveryFlow* flow = window.recovery()->flow();
        auto* actions = child<QListWidget>(flow, "findingActions");
        QVERIFY(actions->count() > 0);
        QTest::mouseClick(actions->viewport(), Qt::LeftButton, {},
                          actions->visualItemRect(actions->item(0)).center());
        auto* start = child<QPushButton>(flow, "startManagedRelay");
        QVERIFY(start->isVisible());
        QTest::mouseClick(start, Qt::LeftButton);
        QCOMPARE(window.pages()->currentWidget(), window.relays());
        const QString arguments = child<QLineEdit>(&window, "relayArguments")->text();
        QVERIFY2(arguments.contains(QStringLiteral("--broker=kafka://") + bootstrap), qPrintable(arguments));
        QTRY_VERIFY_WITH_TIMEOUT(window.relays()->managedRelay()->isRunning(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(5), 30000);
        QTest::mouseClick(child<QPushButton>(&window, "stopRelay"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!window.relays()->managedRelay()->isActive(), 20000);
        terminateAndWait(*broker);
    }

    // Item 4: without any broker known, the prepared start asks for one in the status bar; once
    // the operator's relay runs, that request leaves the status bar.
    void brokerRequestLeavesOnceTheRelayRuns()
    {
        QString bootstrap;
        auto broker = startBroker(&bootstrap);
        QVERIFY(broker);
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("nobroker")));
        insertEvents(*db, 3);
        MainWindow window;
        window.setConfiguration(config::Config{});
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QVERIFY(chooseFinding(window, QStringLiteral("no-relay")));
        RecoveryFlow* flow = window.recovery()->flow();
        auto* actions = child<QListWidget>(flow, "findingActions");
        QVERIFY(actions->count() > 0);
        QTest::mouseClick(actions->viewport(), Qt::LeftButton, {},
                          actions->visualItemRect(actions->item(0)).center());
        QTest::mouseClick(child<QPushButton>(flow, "startManagedRelay"), Qt::LeftButton);
        QCOMPARE(window.pages()->currentWidget(), window.relays());
        const QString request = window.statusBar()->currentMessage();
        QVERIFY2(request.contains(QStringLiteral("--kafka-bootstrap")), qPrintable(request));
        auto* arguments = child<QLineEdit>(&window, "relayArguments");
        arguments->end(false);
        QTest::keyClicks(arguments, QStringLiteral(" --kafka-bootstrap=") + bootstrap);
        QTest::mouseClick(child<QPushButton>(&window, "startRelay"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(registeredRelays(*db), qint64(1), 15000);
        QTRY_VERIFY2_WITH_TIMEOUT(window.statusBar()->currentMessage() != request,
                                  qPrintable(window.statusBar()->currentMessage()), 5000);
        QTest::mouseClick(child<QPushButton>(&window, "stopRelay"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!window.relays()->managedRelay()->isActive(), 20000);
        terminateAndWait(*broker);
    }

    // Item 10: Quit is in the File menu (Ctrl+Q), where a desktop application has it.
    void quitIsInTheFileMenu()
    {
        MainWindow window;
        QMenu* file = nullptr;
        for (QAction* menu : window.menuBar()->actions())
            if (menu->menu() && menu->text() == MainWindow::tr("&File"))
                file = menu->menu();
        QVERIFY(file);
        QAction* quit = nullptr;
        for (QAction* a : file->actions())
            if (a->objectName() == QLatin1String("quitAction"))
                quit = a;
        QVERIFY2(quit, "no Quit in the File menu");
        QCOMPARE(quit->text(), MainWindow::tr("&Quit"));
        QCOMPARE(quit->shortcut(), QKeySequence(QKeySequence::Quit));
        QVERIFY(file->actions().last() == quit);
    }

    // Item 10: an idle consumer's rate chart labels its Y axis in whole, distinct steps (0 1), not
    // 1 1 1 0 0.
    void idleConsumerChartCountsInWholeSteps()
    {
        auto db =
            TestDatabases::fresh(QStringLiteral("sqlite"), TestDatabases::uniqueName(QStringLiteral("idle")));
        InboxStore inbox(*db);
        QVERIFY(
            inbox.recordProcessed(QStringLiteral("e-1"), QStringLiteral("inventory"), QString(), 1).value());
        exec(*db,
             QStringLiteral("UPDATE {inbox} SET processed_at = %1")
                 .arg(db->dialect().nowPlusMillis(QStringLiteral(":ms"))),
             {{QStringLiteral(":ms"), -3 * 3600000}});
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 10000);
        clickTab(window, window.consumers());
        QTRY_COMPARE_WITH_TIMEOUT(window.consumers()->consumersModel()->rowCount(), 1, 20000);
        QChart* chart = window.consumers()->rateChart();
        QTRY_COMPARE_WITH_TIMEOUT(chart->series().size(), 1, 10000);
        QChartView* view = nullptr;
        for (QChartView* v : window.consumers()->findChildren<QChartView*>())
            if (v->chart() == chart)
                view = v;
        QVERIFY(view);
        QTest::qWait(100);
        // The labels left of the plot: the Y axis's.
        const QRectF plot = chart->plotArea();
        QStringList labels;
        for (QGraphicsItem* item : view->scene()->items())
            if (auto* text = dynamic_cast<QGraphicsTextItem*>(item);
                text && text->isVisible() && !text->toPlainText().isEmpty() &&
                text->sceneBoundingRect().right() <= plot.left() + 1 &&
                text->sceneBoundingRect().center().y() >= plot.top() - 10 &&
                text->sceneBoundingRect().center().y() <= plot.bottom() + 10)
                labels << text->toPlainText();
        QVERIFY2(labels.size() >= 2, qPrintable(labels.join(u' ')));
        const QSet<QString> distinct(labels.cbegin(), labels.cend());
        QVERIFY2(distinct.size() == labels.size(), qPrintable(labels.join(u' ')));
        for (const QString& label : std::as_const(labels)) {
            bool whole = false;
            label.toInt(&whole);
            QVERIFY2(whole, qPrintable(label));
        }
    }
};

QTEST_MAIN(TestConsoleCurrent)
#include "tst_consolecurrent.moc"
