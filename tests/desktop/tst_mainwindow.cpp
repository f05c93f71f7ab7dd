#include "core/config/Config.h"
#include "core/db/DeadLetterStore.h"
#include "core/db/Migrator.h"
#include "core/support/Failpoints.h"
#include "tests/support/BulkEvents.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/WidgetFinder.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/audit/AuditPage.h"
#include "ui/desktop/deadletters/DeadLettersPage.h"
#include "ui/desktop/events/EventTableModel.h"
#include "ui/desktop/events/EventsPage.h"
#include "ui/desktop/overview/OverviewPage.h"
#include "ui/desktop/overview/StatTile.h"
#include "ui/desktop/relays/ManagedRelay.h"
#include "ui/desktop/relays/RelaysPage.h"
#include "ui/desktop/widgets/EventInspector.h"
#include "ui/desktop/widgets/JsonTreeModel.h"
#include "ui/desktop/widgets/RecordTableModel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProcess>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace outbox;
using namespace outbox::desktop;
using namespace outbox::test;

using Environment = QMap<QString, QString>; // variables as the configuration reads them

// Drives the real MainWindow by objectName against real databases: connect, filter, select, act.
class TestMainWindow : public QObject
{
    Q_OBJECT

private:
    // Waits for the preview dialog of an action, fills in the reason (and the typed confirmation
    // when asked for) and runs it.
    static bool runActionDialog(MainWindow& window, const QString& reason, bool expectConfirm)
    {
        QDialog* dialog = nullptr;
        const bool shown = QTest::qWaitFor(
            [&]() {
                dialog = window.findChild<QDialog*>(QStringLiteral("actionDialog"));
                return dialog && dialog->isVisible();
            },
            10000);
        // The dialog opens busy; the preview (count, sample, confirmation phrase) follows.
        if (!shown || !dialog ||
            !QTest::qWaitFor([&]() { return !dialog->property("busy").toBool(); }, 10000))
            return false;
        auto* run = child<QPushButton>(dialog, "actionRun");
        auto* confirm = child<QLineEdit>(dialog, "actionConfirm");
        if (!run || run->isEnabled())
            return false; // nothing may run before a reason is given
        QTest::keyClicks(child<QLineEdit>(dialog, "actionReason"), reason);
        if (confirm->isVisibleTo(dialog) != expectConfirm)
            return false;
        if (expectConfirm) {
            if (run->isEnabled())
                return false; // the typed confirmation is required
            QTest::keyClicks(confirm, confirm->placeholderText());
        }
        if (!run->isEnabled())
            return false;
        QTest::mouseClick(run, Qt::LeftButton);
        return true;
    }

    // Waits for the chunk progress dialog to show the first committed chunk, then clicks its
    // Cancel button.
    static bool pressCancelAfterFirstChunk(MainWindow& window)
    {
        QProgressDialog* progress = nullptr;
        const bool reached = QTest::qWaitFor(
            [&]() {
                progress = window.findChild<QProgressDialog*>(QStringLiteral("actionProgress"));
                return progress && progress->isVisible() && progress->value() >= 1000;
            },
            30000);
        if (!reached)
            return false;
        for (QPushButton* b : progress->findChildren<QPushButton*>()) {
            if (b->text() == QProgressDialog::tr("Cancel") || b->text().contains(QStringLiteral("Cancel"))) {
                QTest::mouseClick(b, Qt::LeftButton);
                return true;
            }
        }
        return false;
    }

    // Waits until the failure groups are listed, then selects the one with `fingerprint`.
    static bool selectGroup(MainWindow& window, const QString& fingerprint)
    {
        RecordTableModel* groups = window.events()->groupsModel();
        int row = -1;
        const bool found = QTest::qWaitFor(
            [&]() {
                for (int i = 0; i < groups->rowCount(); ++i)
                    if (groups->record(i).value(QStringLiteral("fingerprint")).toString() == fingerprint)
                        row = i;
                return row >= 0;
            },
            20000);
        if (!found)
            return false;
        selectRow(child<QTableView>(&window, "failureGroups"), row);
        return true;
    }

    static void selectRow(QTableView* table, int row)
    {
        table->scrollTo(table->model()->index(row, 0));
        const QRect r = table->visualRect(table->model()->index(row, 0));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, r.center());
    }

private slots:
    void cleanup() { QVERIFY(Failpoints::configure(QString()).ok()); }

    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("OutboxConsoleTest"));
        QStandardPaths::setTestModeEnabled(true);
    }

    void operatorWorkflow_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("sqlite") << QStringLiteral("sqlite");
        QTest::newRow("postgresql") << QStringLiteral("postgresql");
    }
    void operatorWorkflow()
    {
        QFETCH(QString, kind);
        if (!TestDatabases::available(kind))
            QSKIP("server not configured");
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("gui")));
        const auto ids = insertEvents(*db, 30);
        forceStatus(*db, ids.mid(0, 4), QStringLiteral("FAILED"),
                    QStringLiteral("schema check failed for order 17"));
        QVERIFY(
            db->exec(QStringLiteral(
                         "UPDATE {events} SET last_error_class = 'deterministic' WHERE status = 'FAILED'"))
                .ok());
        forceStatus(*db, ids.mid(4, 10), QStringLiteral("SENT"));
        DeadLetter letter;
        letter.consumerName = QStringLiteral("inventory");
        letter.topic = QStringLiteral("order");
        letter.eventId = QStringLiteral("ev-poison");
        letter.payload = QByteArrayLiteral("{\"order\":1}");
        letter.headers = QByteArrayLiteral("{}");
        letter.error = QStringLiteral("cannot reserve stock");
        auto letterId = DeadLetterStore(*db).insert(letter);
        QVERIFY(letterId.ok());
        QVERIFY(db->exec(QStringLiteral(
                             "INSERT INTO {relays} (worker_id, host, pid) VALUES ('relay-gui', 'h1', 7)"))
                    .ok());

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        // Connect through the dialog, as an operator would.
        window.showConnectDialog();
        auto* connectDialog = window.findChild<QDialog*>(QStringLiteral("connectDialog"));
        QVERIFY(connectDialog);
        QTest::keyClicks(child<QLineEdit>(connectDialog, "profileUrl"), TestDatabases::urlText(db->url()));
        QTest::mouseClick(child<QPushButton>(connectDialog, "connectButton"), Qt::LeftButton);

        // Overview: the sampler's snapshots reach the tiles.
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(child<StatTile>(&window, "tile_FAILED")->value(), QStringLiteral("4"),
                                  10000);

        // Events: filter FAILED.
        window.pages()->setCurrentWidget(window.events());
        auto* table = child<QTableView>(&window, "eventsTable");
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model()->rowCount() == 30, 10000);
        auto* status = child<QComboBox>(&window, "filterStatus");
        status->setCurrentIndex(status->findData(QStringLiteral("FAILED")));
        QTest::mouseClick(child<QPushButton>(&window, "applyFilter"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model()->atEnd() && !window.events()->model()->isFetching(),
                                 10000);
        QCOMPARE(window.events()->model()->rowCount(), 4);
        for (int row = 0; row < 4; ++row)
            QCOMPARE(window.events()->model()->eventAt(row)->status, QStringLiteral("FAILED"));

        // Select one event: the inspector shows its payload as a tree.
        selectRow(table, 0);
        const qint64 target = window.events()->model()->eventAt(0)->id;
        QTRY_COMPARE_WITH_TIMEOUT(window.events()->inspector()->eventId(), target, 10000);
        QVERIFY(window.events()->inspector()->payloadModel()->rowCount() >= 2);
        QTest::mouseClick(child<QPushButton>(&window, "copyJson"), Qt::LeftButton);
        const QJsonObject copied =
            QJsonDocument::fromJson(QGuiApplication::clipboard()->text().toUtf8()).object();
        QCOMPARE(copied.value(QStringLiteral("id")).toInteger(), target);
        QCOMPARE(copied.value(QStringLiteral("status")).toString(), QStringLiteral("FAILED"));

        // Requeue it with a reason: PENDING in the database, audited, shown in its history.
        QTest::mouseClick(child<QPushButton>(&window, "requeueButton"), Qt::LeftButton);
        QVERIFY(runActionDialog(window, QStringLiteral("fixed the schema"), false));
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(*db, target), QStringLiteral("PENDING"), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(window.statusBar()->currentMessage().contains(QStringLiteral("1 row")),
                                 10000);
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"),
                           QStringLiteral("action = 'events.requeue' AND reason = 'fixed the schema'")),
                 qint64(1));
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->inspector()->historyCount() == 1, 10000);

        // Mark another FAILED event DEAD.
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model()->rowCount() == 3 &&
                                     window.events()->model()->eventAt(0).has_value(),
                                 10000);
        selectRow(table, 0);
        const qint64 deadTarget = window.events()->model()->eventAt(0)->id;
        QTest::mouseClick(child<QPushButton>(&window, "markDeadButton"), Qt::LeftButton);
        QVERIFY(runActionDialog(window, QStringLiteral("poison payload"), false));
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(*db, deadTarget), QStringLiteral("DEAD"), 10000);

        // Bulk: requeue every event of the filter (the 2 FAILED left) needs a typed confirmation.
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model()->rowCount() == 2, 10000);
        child<QComboBox>(&window, "actionScope")->setCurrentIndex(1);
        QTest::mouseClick(child<QPushButton>(&window, "requeueButton"), Qt::LeftButton);
        QVERIFY(runActionDialog(window, QStringLiteral("bulk retry"), true));
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")), qint64(0),
            10000);

        // Failure groups of DEAD events: the DEAD event's error forms one group with its count.
        auto* groupsStatus = child<QComboBox>(&window, "groupsStatus");
        groupsStatus->setCurrentIndex(groupsStatus->findData(QStringLiteral("DEAD")));
        QTest::mouseClick(child<QPushButton>(&window, "refreshGroups"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(window.events()->groupsModel()->rowCount(), 1, 10000);
        QCOMPARE(window.events()->groupsModel()->record(0).value(QStringLiteral("fingerprint")).toString(),
                 QStringLiteral("schema check failed for order <n>"));

        // Dead letters: replay the poison message.
        window.pages()->setCurrentWidget(window.deadLetters());
        QTest::mouseClick(child<QPushButton>(&window, "dlqApply"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(window.deadLetters()->model()->rowCount(), 1, 10000);
        selectRow(child<QTableView>(&window, "deadLettersTable"), 0);
        QTest::mouseClick(child<QPushButton>(&window, "replayButton"), Qt::LeftButton);
        QVERIFY(runActionDialog(window, QStringLiteral("stock service fixed"), false));
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{dead_letters}"), QStringLiteral("status = 'REPLAYING'")),
            qint64(1), 10000);

        // Relays: pause through desired_state, audited.
        window.pages()->setCurrentWidget(window.relays());
        auto* relaysTable = child<QTableView>(&window, "relaysTable");
        QTRY_COMPARE_WITH_TIMEOUT(relaysTable->model()->rowCount(), 1, 10000);
        selectRow(relaysTable, 0);
        QTest::keyClicks(child<QLineEdit>(&window, "relayReason"), QStringLiteral("maintenance window"));
        QTest::mouseClick(child<QPushButton>(&window, "pauseRelay"), Qt::LeftButton);
        // The preview dialog carries the reason over; pausing is typed ("pause 1"); Pause runs it.
        QTRY_VERIFY_WITH_TIMEOUT(window.findChild<QDialog*>(QStringLiteral("relayControlDialog")), 10000);
        QTest::keyClicks(child<QLineEdit>(window.findChild<QDialog*>(QStringLiteral("relayControlDialog")),
                                          "relayControlConfirm"),
                         QStringLiteral("pause 1"));
        QTest::mouseClick(child<QPushButton>(window.findChild<QDialog*>(QStringLiteral("relayControlDialog")),
                                             "relayControlRun"),
                          Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{relays}"), QStringLiteral("desired_state = 'PAUSE'")), qint64(1),
            10000);
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"),
                           QStringLiteral("action = 'relay.pause' AND target_kind = 'relay'")),
                 qint64(1));

        // Audit: every action is listed and exports as CSV and JSON.
        window.pages()->setCurrentWidget(window.audit());
        QTest::mouseClick(child<QPushButton>(&window, "auditApply"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(window.audit()->model()->rowCount(), 5, 10000);
        // Enter in a filter box applies it, as on the other pages.
        auto* action = child<QLineEdit>(&window, "auditAction");
        QTest::keyClicks(action, QStringLiteral("relay.pause"));
        QTest::keyClick(action, Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(window.audit()->model()->rowCount(), 1, 10000);
        action->clear();
        QTest::keyClick(action, Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(window.audit()->model()->rowCount(), 5, 10000);
        QTemporaryDir dir;
        QSignalSpy exported(window.audit(), &AuditPage::exported);
        window.audit()->exportTo(dir.filePath(QStringLiteral("audit.json")), AuditPage::Format::Json);
        QTRY_COMPARE_WITH_TIMEOUT(exported.count(), 1, 10000);
        QFile json(dir.filePath(QStringLiteral("audit.json")));
        QVERIFY(json.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(json.readAll()).array().size(), 5);
        window.audit()->exportTo(dir.filePath(QStringLiteral("audit.csv")), AuditPage::Format::Csv);
        QTRY_COMPARE_WITH_TIMEOUT(exported.count(), 2, 10000);
        QFile csv(dir.filePath(QStringLiteral("audit.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 6);
        QVERIFY(lines.first().startsWith("id,at,actor"));
        QVERIFY(csv.fileName().endsWith(QStringLiteral(".csv")));
    }

    // A bulk action on a filter of 2,500 rows runs in audited chunks of 1,000; cancel stops it
    // between chunks, leaving the finished chunks committed and the rest untouched. Production
    // profiles ask for the typed confirmation even for one row.
    void bulkActionsRunInChunksAndCancel_data() { TestDatabases::addKinds(); }
    void bulkActionsRunInChunksAndCancel()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("chunks")));
        insertGeneratedEvents(*db, 2500, 1); // every row FAILED
        MainWindow window;
        window.show();
        QVERIFY(window.connectToText(
            TestDatabases::urlText(db->url()),
            ConnectionProfile{QStringLiteral("prod"), QString(), QStringLiteral("red")}));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 1, 10000);
        QVERIFY(window.overview()->pointCount() > 0);

        window.pages()->setCurrentWidget(window.events());
        auto* status = child<QComboBox>(&window, "filterStatus");
        status->setCurrentIndex(status->findData(QStringLiteral("FAILED")));
        QTest::mouseClick(child<QPushButton>(&window, "applyFilter"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model()->rowCount() >= 200 &&
                                     window.events()->model()->eventAt(0).has_value(),
                                 10000);

        // One row, production profile: typed confirmation required.
        selectRow(child<QTableView>(&window, "eventsTable"), 0);
        const qint64 one = window.events()->model()->eventAt(0)->id;
        QTest::mouseClick(child<QPushButton>(&window, "requeueButton"), Qt::LeftButton);
        QVERIFY(runActionDialog(window, QStringLiteral("one in production"), true));
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(*db, one), QStringLiteral("PENDING"), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(window.findChild<QDialog*>(QStringLiteral("actionDialog")) == nullptr,
                                 10000);

        // The whole filter (2,499 rows): Cancel once the first chunk is in; a pause after each
        // chunk (failpoint) makes "between chunks" certain on any machine.
        QVERIFY(Failpoints::configure(QStringLiteral("ops.bulk.between_chunks=sleep(2000)")).ok());
        child<QComboBox>(&window, "actionScope")->setCurrentIndex(1);
        QTest::mouseClick(child<QPushButton>(&window, "requeueButton"), Qt::LeftButton);
        QVERIFY(runActionDialog(window, QStringLiteral("bulk with cancel"), true));
        QVERIFY(pressCancelAfterFirstChunk(window));
        QTRY_VERIFY_WITH_TIMEOUT(window.statusBar()->currentMessage().contains(QStringLiteral("Cancelled")),
                                 20000);
        QVERIFY(Failpoints::configure(QString()).ok());
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")),
                 qint64(1 + 1000));
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"), QStringLiteral("reason = 'bulk with cancel'")),
                 qint64(1));

        // Again without cancelling: the remaining 1,499 rows in two audited chunks.
        QTRY_VERIFY_WITH_TIMEOUT(
            window.findChild<QProgressDialog*>(QStringLiteral("actionProgress")) == nullptr, 10000);
        QTest::mouseClick(child<QPushButton>(&window, "requeueButton"), Qt::LeftButton);
        QVERIFY(runActionDialog(window, QStringLiteral("bulk to the end"), true));
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")), qint64(0),
            20000);
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"), QStringLiteral("reason = 'bulk to the end'")),
                 qint64(2));

        // The wallboard opens full screen with the history already drawn.
        window.showWallboard();
        QPointer<OverviewPage> board;
        for (QWidget* w : QApplication::topLevelWidgets())
            if (w->objectName() == QLatin1String("wallboardOverview"))
                board = qobject_cast<OverviewPage*>(w);
        QVERIFY(board);
        QVERIFY(board->isFullScreen());
        QVERIFY(QTest::qWaitForWindowExposed(board));
        QTest::qWait(300); // let the platform finish its window-state changes before leaving
        QCOMPARE(board->pointCount(), window.overview()->pointCount());
        // Deliver Esc to the board itself (offscreen windows are not reliably active, so the
        // platform's focus routing is not what is under test here).
        QKeyEvent esc(QEvent::KeyPress, Qt::Key_Escape, Qt::NoModifier);
        QApplication::sendEvent(board, &esc);
        QTRY_VERIFY_WITH_TIMEOUT(board.isNull() || !board->isVisible(), 5000);
    }

    // Issue 16, item 1: the failure-group buttons act on the whole group through the bulk
    // engine (they used to stop at "page size must be between 1 and 10000"): Requeue group… on
    // 2,500 FAILED events, then Mark group DEAD…, each in three audited chunks.
    void failureGroupButtonsActOnTheGroup_data() { TestDatabases::addKinds(); }
    void failureGroupButtonsActOnTheGroup()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("guigroup")));
        insertGeneratedEvents(*db, 2500, 1); // one group: "schema check failed for row <n>"
        const auto other = insertEvents(*db, 3);
        forceStatus(*db, other, QStringLiteral("FAILED"),
                    QStringLiteral("Broker: Topic authorization failed"));
        MainWindow window;
        window.show();
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model() != nullptr, 10000); // switched once checked
        window.pages()->setCurrentWidget(window.events());
        const QString group = QStringLiteral("schema check failed for row <n>");
        QVERIFY(selectGroup(window, group));

        QTest::mouseClick(child<QPushButton>(&window, "requeueGroup"), Qt::LeftButton);
        QVERIFY2(runActionDialog(window, QStringLiteral("schema registry fixed"), true),
                 qPrintable(window.statusBar()->currentMessage()));
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")), qint64(2500),
            60000);
        QTRY_VERIFY_WITH_TIMEOUT(
            window.statusBar()->currentMessage().contains(QStringLiteral("2500 row(s) changed")), 20000);
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"),
                           QStringLiteral("reason = 'schema registry fixed' AND action = 'events.requeue'")),
                 qint64(3));
        for (qint64 id : other)
            QCOMPARE(statusOf(*db, id), QStringLiteral("FAILED"));

        // The group's events are PENDING now: they leave the FAILED groups (which add up to the
        // FAILED tile). When they fail again, Mark group DEAD… takes them.
        QTRY_VERIFY_WITH_TIMEOUT(window.findChild<QDialog*>(QStringLiteral("actionDialog")) == nullptr,
                                 10000);
        QTRY_COMPARE_WITH_TIMEOUT(window.events()->groupsModel()->rowCount(), 1, 20000);
        QVERIFY(
            db->exec(QStringLiteral("UPDATE {events} SET status = 'FAILED' WHERE status = 'PENDING'")).ok());
        QTest::mouseClick(child<QPushButton>(&window, "refreshGroups"), Qt::LeftButton);
        QVERIFY(selectGroup(window, group));
        QTest::mouseClick(child<QPushButton>(&window, "deadGroup"), Qt::LeftButton);
        QVERIFY2(runActionDialog(window, QStringLiteral("give up on these"), true),
                 qPrintable(window.statusBar()->currentMessage()));
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'DEAD'")), qint64(2500),
            60000);
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{audit}"),
                      QStringLiteral("reason = 'give up on these' AND action = 'events.dead'")),
            qint64(3), 10000);
        for (qint64 id : other)
            QCOMPARE(statusOf(*db, id), QStringLiteral("FAILED"));
    }

    // Cancel in the console's progress dialog stops a group run between chunks: the first chunk
    // is committed and audited, the remaining rows are untouched.
    void cancelStopsAGroupRunBetweenChunks_data() { TestDatabases::addKinds(); }
    void cancelStopsAGroupRunBetweenChunks()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("guicancel")));
        insertGeneratedEvents(*db, 2500, 1);
        MainWindow window;
        window.show();
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model() != nullptr, 10000); // switched once checked
        window.pages()->setCurrentWidget(window.events());
        QVERIFY(selectGroup(window, QStringLiteral("schema check failed for row <n>")));
        QVERIFY(Failpoints::configure(QStringLiteral("ops.bulk.between_chunks=sleep(2000)")).ok());
        QTest::mouseClick(child<QPushButton>(&window, "requeueGroup"), Qt::LeftButton);
        QVERIFY(runActionDialog(window, QStringLiteral("cancel me"), true));
        QVERIFY(pressCancelAfterFirstChunk(window));
        QTRY_VERIFY_WITH_TIMEOUT(window.statusBar()->currentMessage().contains(QStringLiteral("Cancelled")),
                                 20000);
        QVERIFY(Failpoints::configure(QString()).ok());
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")),
                 qint64(1000));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")),
                 qint64(1500));
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"), QStringLiteral("reason = 'cancel me'")),
                 qint64(1));
    }

    // Disconnecting while a bulk run is under way does not wait for the run: it stops before
    // its next chunk, and the GUI thread waits at most for the chunk under way.
    void disconnectDuringARunDoesNotWaitForIt()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("guidisconnect"));
        insertGeneratedEvents(*db, 6000, 1);
        MainWindow window;
        window.show();
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model() != nullptr, 10000); // switched once checked
        window.pages()->setCurrentWidget(window.events());
        QVERIFY(selectGroup(window, QStringLiteral("schema check failed for row <n>")));
        QVERIFY(Failpoints::configure(QStringLiteral("ops.bulk.between_chunks=sleep(700)")).ok());
        QTest::mouseClick(child<QPushButton>(&window, "requeueGroup"), Qt::LeftButton);
        QVERIFY(runActionDialog(window, QStringLiteral("then disconnect"), true));
        QTRY_VERIFY_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{audit}"), QStringLiteral("reason = 'then disconnect'")) >= 1,
            30000);
        QAction* disconnect = nullptr;
        for (QAction* a : window.findChildren<QAction*>())
            if (a->text() == QLatin1String("&Disconnect"))
                disconnect = a;
        QVERIFY(disconnect);
        QElapsedTimer t;
        t.start();
        disconnect->trigger();
        const qint64 waited = t.elapsed();
        // The rest of the run would take five more chunks and pauses (more than 3.5 s).
        QVERIFY2(waited < 2500, qPrintable(QString::number(waited)));
        QVERIFY(window.findChild<QProgressDialog*>(QStringLiteral("actionProgress")) == nullptr ||
                !window.findChild<QProgressDialog*>(QStringLiteral("actionProgress"))->isVisible());
        QTest::qWait(1500); // nothing runs on after the disconnect
        const qint64 chunks =
            countRows(*db, QStringLiteral("{audit}"), QStringLiteral("reason = 'then disconnect'"));
        QVERIFY2(chunks <= 2, qPrintable(QString::number(chunks)));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")),
                 qint64(6000 - 1000 * chunks));
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("Disconnected")),
                 qPrintable(window.statusBar()->currentMessage()));
    }

    // Issue 16, item 4: "every event of the current filter" acts on the filter the table shows,
    // not on text typed into the filter boxes but not applied, and the preview says so.
    void bulkActionUsesTheAppliedFilter()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("applied"));
        const auto ids = insertEvents(*db, 10);
        forceStatus(*db, ids.mid(0, 3), QStringLiteral("FAILED"), QStringLiteral("request timed out"));
        forceStatus(*db, ids.mid(3, 3), QStringLiteral("FAILED"), QStringLiteral("schema check failed"));
        MainWindow window;
        window.show();
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model() != nullptr, 10000); // switched once checked
        window.pages()->setCurrentWidget(window.events());
        auto* status = child<QComboBox>(&window, "filterStatus");
        status->setCurrentIndex(status->findData(QStringLiteral("FAILED")));
        QTest::mouseClick(child<QPushButton>(&window, "applyFilter"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model()->atEnd() &&
                                     !window.events()->model()->isFetching() &&
                                     window.events()->model()->rowCount() == 6,
                                 10000);
        // Typed, not applied: the table still shows the six FAILED events.
        QTest::keyClicks(child<QLineEdit>(&window, "filterError"), QStringLiteral("schema"));
        child<QComboBox>(&window, "actionScope")->setCurrentIndex(1);
        QTest::mouseClick(child<QPushButton>(&window, "requeueButton"), Qt::LeftButton);
        QDialog* dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = window.findChild<QDialog*>(QStringLiteral("actionDialog"))) !=
                                         nullptr &&
                                     dialog->isVisible() && !dialog->property("busy").toBool(),
                                 10000);
        const QString summary = child<QLabel>(dialog, "actionSummary")->text();
        QVERIFY2(summary.contains(QStringLiteral("6 row(s) will change")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("status FAILED")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("not applied")), qPrintable(summary));
        QVERIFY(runActionDialog(window, QStringLiteral("retry what the table shows"), true));
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")), qint64(0),
            10000);
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")),
                 qint64(10));
    }

    // The same on the dead-letters page: the applied consumer filter, not the typed one.
    void deadLetterBulkUsesTheAppliedFilter()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("dlqapplied"));
        for (int i = 0; i < 4; ++i) {
            DeadLetter l;
            l.consumerName = i < 2 ? QStringLiteral("inventory") : QStringLiteral("billing");
            l.topic = QStringLiteral("order");
            l.eventId = QStringLiteral("ev-%1").arg(i);
            l.payload = "{}";
            l.headers = "{}";
            l.error = QStringLiteral("poison");
            QVERIFY(DeadLetterStore(*db).insert(l).ok());
        }
        MainWindow window;
        window.show();
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model() != nullptr, 10000); // switched once checked
        window.pages()->setCurrentWidget(window.deadLetters());
        QTest::keyClicks(child<QLineEdit>(&window, "dlqConsumer"), QStringLiteral("inventory"));
        QTest::mouseClick(child<QPushButton>(&window, "dlqApply"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(window.deadLetters()->model()->rowCount(), 2, 10000);
        auto* consumer = child<QLineEdit>(&window, "dlqConsumer");
        consumer->selectAll();
        QTest::keyClicks(consumer, QStringLiteral("billing")); // typed, not applied
        child<QComboBox>(&window, "dlqScope")->setCurrentIndex(1);
        QTest::mouseClick(child<QPushButton>(&window, "discardButton"), Qt::LeftButton);
        QVERIFY(runActionDialog(window, QStringLiteral("test orders"), true));
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{dead_letters}"),
                      QStringLiteral("status = 'DISCARDED' AND consumer_name = 'inventory'")),
            qint64(2), 10000);
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}"),
                           QStringLiteral("status = 'NEW' AND consumer_name = 'billing'")),
                 qint64(2));
    }

    // The Relays page supervises a real `outboxctl relay` child against the embedded broker: its
    // output streams into the page, it registers and delivers, shows the broker it publishes to,
    // obeys pause, and Stop drains it.
    void managedRelayDeliversAndStops()
    {
        const QString outboxctl = qEnvironmentVariable("OUTBOXCTL");
        if (outboxctl.isEmpty())
            QSKIP("OUTBOXCTL not set");
        auto started =
            startOutboxctl({QStringLiteral("kafka"), QStringLiteral("--topic"), QStringLiteral("Order:3")});
        QProcess& broker = *started;
        QVERIFY(broker.canReadLine() || broker.waitForReadyRead(10000));
        const QByteArray line = broker.readLine().trimmed();
        QVERIFY2(line.startsWith("bootstrap 127.0.0.1:"), line.constData());
        const QString bootstrap = QString::fromUtf8(line.mid(10));

        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("managed"));
        insertEvents(*db, 50);
        MainWindow window;
        window.show();
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 10000); // switched once the check answered
        window.pages()->setCurrentWidget(window.relays());
        QTest::keyClicks(child<QLineEdit>(&window, "relayArguments"),
                         QStringLiteral("--kafka-bootstrap ") + bootstrap);
        QTest::mouseClick(child<QPushButton>(&window, "startRelay"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.relays()->managedRelay()->isRunning(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(50), 30000);
        auto* log = child<QPlainTextEdit>(&window, "relayLog");
        QVERIFY(log->toPlainText().contains(QStringLiteral("relay --db")));
        auto* relaysTable = child<QTableView>(&window, "relaysTable");
        QTRY_COMPARE_WITH_TIMEOUT(relaysTable->model()->rowCount(), 1, 15000);
        // Where it publishes (issue 28): the table's Broker column and the managed relay's line.
        const int brokerColumn = [&]() {
            for (int c = 0; c < relaysTable->model()->columnCount(); ++c)
                if (relaysTable->model()->headerData(c, Qt::Horizontal).toString() == QLatin1String("Broker"))
                    return c;
            return -1;
        }();
        QVERIFY(brokerColumn >= 0);
        QTRY_COMPARE_WITH_TIMEOUT(relaysTable->model()->index(0, brokerColumn).data().toString(),
                                  QStringLiteral("Kafka ") + bootstrap, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(child<QLabel>(&window, "managedRelayBroker")->text(),
                                  QStringLiteral("publishes to Kafka ") + bootstrap, 10000);
        QVERIFY(child<QLabel>(&window, "managedRelayBroker")->isVisible());

        selectRow(relaysTable, 0);
        QTest::keyClicks(child<QLineEdit>(&window, "relayReason"), QStringLiteral("hold deliveries"));
        QTest::mouseClick(child<QPushButton>(&window, "pauseRelay"), Qt::LeftButton);
        // The preview dialog carries the reason over; pausing is typed ("pause 1"); Pause runs it.
        QTRY_VERIFY_WITH_TIMEOUT(window.findChild<QDialog*>(QStringLiteral("relayControlDialog")), 10000);
        QTest::keyClicks(child<QLineEdit>(window.findChild<QDialog*>(QStringLiteral("relayControlDialog")),
                                          "relayControlConfirm"),
                         QStringLiteral("pause 1"));
        QTest::mouseClick(child<QPushButton>(window.findChild<QDialog*>(QStringLiteral("relayControlDialog")),
                                             "relayControlRun"),
                          Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{relays}"), QStringLiteral("desired_state = 'PAUSE'")), qint64(1),
            10000);

        QTest::mouseClick(child<QPushButton>(&window, "stopRelay"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!window.relays()->managedRelay()->isRunning(), 20000);
        QTest::qWait(1500);
        QCOMPARE(window.relays()->managedRelay()->restarts(), 0); // a requested stop is not restarted
        broker.terminate();
        QVERIFY(broker.waitForFinished(10000));
    }

    // View > Serve NOC dashboard runs a supervised `outboxctl serve` on the console's database:
    // the numbers are on http://127.0.0.1:8080 while it is on, and gone when it is switched off.
    void nocDashboardSwitchServesTheDatabase()
    {
        if (qEnvironmentVariable("OUTBOXCTL").isEmpty())
            QSKIP("OUTBOXCTL not set");
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("noc"));
        insertEvents(*db, 7);
        MainWindow window;
        window.show();
        QVERIFY(!window.serveDashboardAction()->isEnabled()); // nothing to serve before connecting
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.serveDashboardAction()->isEnabled(), 10000);
        window.serveDashboardAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(window.nocServer()->isRunning(), 10000);
        QNetworkAccessManager http;
        auto fetchMetrics = [&http]() -> QByteArray {
            QNetworkReply* reply = http.get(QNetworkRequest(
                QUrl(QStringLiteral("http://127.0.0.1:%1/metrics").arg(MainWindow::NocPort))));
            QEventLoop loop;
            QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
            loop.exec();
            const QByteArray body =
                reply->error() == QNetworkReply::NoError ? reply->readAll() : QByteArray();
            reply->deleteLater();
            return body;
        };
        QTRY_VERIFY_WITH_TIMEOUT(fetchMetrics().contains("outbox_events{status=\"PENDING\"} 7"), 20000);
        window.serveDashboardAction()->trigger(); // off
        QTRY_VERIFY_WITH_TIMEOUT(!window.nocServer()->isRunning(), 10000);
        QVERIFY(fetchMetrics().isEmpty());
    }

    void lostConnectionShowsBannerAndHeals()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("later"));
        const QString url = QStringLiteral("sqlite://") + folder + QStringLiteral("/outbox.db");
        MainWindow window;
        window.show();
        // A database that cannot be reached: the banner says so, and the console recovers by
        // itself (no click) once the database is there.
        QVERIFY(window.connectToText(url));
        auto* banner = child<QWidget>(&window, "connectionBanner");
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 10000);
        QCOMPARE(window.snapshotsSeen(), 0);
        QVERIFY(QDir().mkpath(folder));
        {
            auto db = TestDatabases::open(*DatabaseUrl::parse(url));
            QVERIFY(Migrator(*db).migrate().ok());
        }
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(!banner->isVisible(), 5000);
    }

    void anEmptyUrlIsExplainedInTheConsolesOwnWords()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // Connection › Connect…, then Connect without a URL.
        QAction* connectAction = nullptr;
        for (QAction* menu : window.menuBar()->actions())
            if (menu->menu() && menu->text() == QLatin1String("&Connection"))
                for (QAction* a : menu->menu()->actions())
                    if (a->text() == QStringLiteral("&Connect…"))
                        connectAction = a;
        QVERIFY(connectAction);
        connectAction->trigger();
        QDialog* dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = window.findChild<QDialog*>(QStringLiteral("connectDialog"))),
                                 5000);
        child<QLineEdit>(dialog, "profileUrl")->clear();
        QTest::mouseClick(child<QPushButton>(dialog, "connectButton"), Qt::LeftButton);
        // The dialog stays open and says what is missing in the console's words, not outboxctl's flags.
        auto* error = child<QLabel>(dialog, "connectError");
        QTRY_VERIFY_WITH_TIMEOUT(error->isVisible(), 5000);
        QVERIFY(dialog->isVisible());
        QVERIFY2(error->text().contains(QStringLiteral("database URL")), qPrintable(error->text()));
        QVERIFY2(!error->text().contains(QStringLiteral("--db")), qPrintable(error->text()));
        QVERIFY2(!window.statusBar()->currentMessage().contains(QStringLiteral("--db")),
                 qPrintable(window.statusBar()->currentMessage()));
        dialog->reject();
    }

    // The console acts as the configured actor ([general] actor, OUTBOX_ACTOR), like outboxctl and
    // the web console, not as a name of its own made from the login name.
    void auditRowsCarryTheConfiguredActor_data()
    {
        QTest::addColumn<Environment>("environment");
        QTest::addColumn<QString>("file");    // [general] actor in the configuration file
        QTest::addColumn<bool>("processEnv"); // the window reads the process environment itself
        QTest::addColumn<QString>("actor");
        QTest::newRow("OUTBOX_ACTOR")
            << Environment{{QStringLiteral("OUTBOX_ACTOR"), QStringLiteral("alice-noc")},
                           {QStringLiteral("USER"), QStringLiteral("bob")}}
            << QString() << false << QStringLiteral("alice-noc");
        QTest::newRow("[general] actor")
            << Environment{{QStringLiteral("USER"), QStringLiteral("bob")}}
            << QStringLiteral("[general]\nactor = carol-ops\n") << false << QStringLiteral("carol-ops");
        QTest::newRow("OUTBOX_ACTOR over [general] actor")
            << Environment{{QStringLiteral("OUTBOX_ACTOR"), QStringLiteral("alice-noc")},
                           {QStringLiteral("USER"), QStringLiteral("bob")}}
            << QStringLiteral("[general]\nactor = carol-ops\n") << false << QStringLiteral("alice-noc");
        QTest::newRow("OUTBOX_ACTOR of the process (no setConfiguration)")
            << Environment{{QStringLiteral("OUTBOX_ACTOR"), QStringLiteral("dave-oncall")}} << QString()
            << true << QStringLiteral("dave-oncall");
        QTest::newRow("login name") << Environment{{QStringLiteral("USER"), QStringLiteral("bob")}}
                                    << QString() << false << QStringLiteral("bob");
    }
    void auditRowsCarryTheConfiguredActor()
    {
        QFETCH(Environment, environment);
        QFETCH(QString, file);
        QFETCH(bool, processEnv);
        QFETCH(QString, actor);
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("actor")));
        const auto ids = insertEvents(*db, 3);
        forceStatus(*db, ids.mid(0, 1), QStringLiteral("FAILED"), QStringLiteral("broken"));
        QTemporaryDir dir;
        config::ConfigInputs inputs;
        inputs.environment = environment;
        if (!file.isEmpty()) {
            inputs.file = dir.filePath(QStringLiteral("outbox.ini"));
            QFile ini(inputs.file);
            QVERIFY(ini.open(QIODevice::WriteOnly));
            ini.write(file.toUtf8());
        }
        auto configuration = config::Config::load(inputs);
        QVERIFY2(configuration.ok(), qPrintable(configuration.message()));

        // The process environment as outbox-console starts with it (restored afterwards).
        const QByteArray savedActor = qgetenv("OUTBOX_ACTOR");
        const bool hadActor = qEnvironmentVariableIsSet("OUTBOX_ACTOR");
        if (processEnv)
            qputenv("OUTBOX_ACTOR", environment.value(QStringLiteral("OUTBOX_ACTOR")).toUtf8());
        MainWindow window;
        if (hadActor)
            qputenv("OUTBOX_ACTOR", savedActor);
        else
            qunsetenv("OUTBOX_ACTOR");
        if (!processEnv)
            window.setConfiguration(*configuration);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 10000); // switched once the check answered
        window.pages()->setCurrentWidget(window.events());
        auto* status = child<QComboBox>(&window, "filterStatus");
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model()->rowCount() == 3, 10000);
        status->setCurrentIndex(status->findData(QStringLiteral("FAILED")));
        QTest::mouseClick(child<QPushButton>(&window, "applyFilter"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model()->rowCount() == 1 &&
                                     window.events()->model()->eventAt(0).has_value(),
                                 10000);
        selectRow(child<QTableView>(&window, "eventsTable"), 0);
        QTest::mouseClick(child<QPushButton>(&window, "requeueButton"), Qt::LeftButton);
        QVERIFY(runActionDialog(window, QStringLiteral("who did this"), false));
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{audit}"), QStringLiteral("reason = 'who did this'")), qint64(1),
            10000);
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"),
                           QStringLiteral("reason = 'who did this' AND actor = '%1'").arg(actor)),
                 qint64(1));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
