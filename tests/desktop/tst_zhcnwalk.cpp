// Issue 40, "Done when": a zh_CN test walks every page and dialog (Qt's own included) and finds no
// English string outside user data. The real MainWindow with the console's, core's and Qt's
// (qtbase) catalogues loaded as outbox-console loads them, over a SQLite database seeded with an
// incident (failed, dead and blocked events, dead letters in a group, a stale relay, an audit row, a
// consumer's inbox). Every page is opened by a click on its tab and every dialog by the button or
// menu entry an operator uses: the action dialogs and their results, the event inspector's tabs,
// the dead-letter editor (with a JSON error), the groups and group repair, relay control, the
// Recovery findings with a preview and a sample, the Connect dialog (with a refused server), the
// file dialogs, Qt's message box and a line edit's context menu, the Wallboard. Every text
// ScreenTexts collects (titles, labels, buttons, placeholders, items, headers, cells, tool tips,
// menus, the status bar) must hold no Latin word outside the database's own words and the
// documented allow-list (ScreenTexts::allowedWords); and no tr() lookup of the product may miss
// the catalogues (RecordingTranslator).
#include "core/db/DeadLetterStore.h"
#include "core/db/InboxStore.h"
#include "core/ops/DeadLetterEditor.h"
#include "core/ops/OperatorActions.h"
#include "core/support/Failpoints.h"
#include "tests/support/ConsoleClicks.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/RecordingTranslator.h"
#include "tests/support/ScreenTexts.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TestPaths.h"
#include "tests/support/WidgetFinder.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/audit/AuditPage.h"
#include "ui/desktop/consumers/ConsumersPage.h"
#include "ui/desktop/deadletters/DeadLettersPage.h"
#include "ui/desktop/events/BlockedAggregatesPage.h"
#include "ui/desktop/events/EventTableModel.h"
#include "ui/desktop/events/EventsPage.h"
#include "ui/desktop/fleet/FleetPage.h"
#include "ui/desktop/fleet/FleetTableModel.h"
#include "ui/desktop/recovery/FindingsModel.h"
#include "ui/desktop/recovery/RecoveryFlow.h"
#include "ui/desktop/recovery/RecoveryPage.h"
#include "ui/desktop/relays/ManagedRelay.h"
#include "ui/desktop/relays/RelaysPage.h"
#include "ui/desktop/widgets/RecordTableModel.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QFile>
#include <QFileDialog>
#include <QInputDialog>
#include <QLabel>
#include <QLibraryInfo>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSqlRecord>
#include <QStandardPaths>
#include <QStatusBar>
#include <QSysInfo>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QTranslator>
#include <functional>
#include <memory>

using namespace outbox;
using namespace outbox::desktop;
using namespace outbox::test;

namespace {

// The visible top-level window of type T other than `except`, once there is one.
template <typename T> T* waitForWindow(QWidget* except = nullptr, int ms = 10000)
{
    T* found = nullptr;
    (void)QTest::qWaitFor(
        [&]() {
            for (QWidget* w : QApplication::topLevelWidgets())
                if (auto* t = qobject_cast<T*>(w); t && w != except && w->isVisible())
                    found = t;
            return found != nullptr;
        },
        ms);
    return found;
}

// The row of `table` with a cell that contains `text`, once the table shows one (-1 after 10 s):
// after a dialog is cancelled the page reads its rows again.
// With `column`, the row whose cell in that column is exactly `text`.
int rowWith(QTableView* table, const QString& text, int column = -1)
{
    int row = -1;
    (void)QTest::qWaitFor(
        [&]() {
            const QAbstractItemModel* m = table->model();
            for (int r = 0; r < m->rowCount() && row < 0; ++r)
                for (int c = 0; c < m->columnCount(); ++c)
                    if (column < 0 ? m->index(r, c).data().toString().contains(text)
                                   : c == column && m->index(r, c).data().toString() == text)
                        row = r;
            return row >= 0;
        },
        10000);
    QTest::qWait(200); // the page settles (a reload in flight resets the rows once more)
    return row;
}

void clickRow(QTableView* table, int row, int column = 0)
{
    table->scrollTo(table->model()->index(row, column));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                      table->visualRect(table->model()->index(row, column)).center());
}

// Runs `then` on the first visible top-level T, from a timer: a dialog with its own event loop
// (QMessageBox::warning, QFileDialog::getSaveFileName) blocks the code that opened it until `then`
// closes it.
template <typename T> void whenShown(std::function<void(T*)> then)
{
    auto* poll = new QTimer;
    QObject::connect(poll, &QTimer::timeout, poll, [poll, then]() {
        for (QWidget* w : QApplication::topLevelWidgets())
            if (auto* t = qobject_cast<T*>(w); t && w->isVisible()) {
                poll->stop();
                poll->deleteLater();
                then(t);
                return;
            }
    });
    poll->start(50);
}

} // namespace

class TestZhCnWalk : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("OutboxConsoleZhCnWalk"));
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        // Who acts, as an operator's configuration says ([general] actor); written to the audit rows.
        qputenv("OUTBOX_ACTOR", "walker");
        m_data << QStringLiteral("walker");
        // Run as CTest runs it (LANG=zh_CN.UTF-8): Qt's own formats follow the system locale.
        QVERIFY2(QLocale::system().name() == QLatin1String("zh_CN"), qPrintable(QLocale::system().name()));
        QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
        QVERIFY(m_product.load(outbox::test::qmPath()));
        QVERIFY2(
            m_qt.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                      QLibraryInfo::path(QLibraryInfo::TranslationsPath)),
            "qtbase_zh_CN.qm is not installed (Debian: qt6-translations-l10n, installer/install-deps.sh)");
        QCoreApplication::installTranslator(&m_qt);
        QCoreApplication::installTranslator(&m_product);
        seed();
        m_window = std::make_unique<MainWindow>();
        m_window->resize(1280, 800);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void init() { m_texts.clear(); }

    void cleanupTestCase()
    {
        m_window.reset();
        m_db.reset();
    }

    // Before a connection: every page says so, the menus, the window title.
    void notConnected()
    {
        MainWindow& window = *m_window;
        for (int i = 0; i < window.pages()->count(); ++i) {
            QVERIFY(clickTab(window, window.pages()->widget(i)));
            look(&window, QStringLiteral("not connected, tab %1").arg(i));
        }
        for (QAction* menu : window.menuBar()->actions())
            if (menu->menu())
                m_texts += ScreenTexts::ofMenu(menu->menu(), QStringLiteral("menu bar"));
        report();
    }

    // Connection › Connect…: the dialog, then a server that refuses (the driver's words are data).
    void connectDialog()
    {
        MainWindow& window = *m_window;
        QAction* connect = menuAction(window, MainWindow::tr("&Connect…"));
        QVERIFY(connect);
        connect->trigger();
        auto* dialog = waitForTopLevel<QDialog>(QStringLiteral("connectDialog"));
        QVERIFY(dialog);
        look(dialog, QStringLiteral("connect dialog"));
        const QString& refused = m_refused;
        QTest::keyClicks(child<QLineEdit>(dialog, "profileUrl"), refused);
        QTest::mouseClick(child<QPushButton>(dialog, "connectButton"), Qt::LeftButton);
        auto* error = child<QLabel>(dialog, "connectError");
        QTRY_VERIFY_WITH_TIMEOUT(error->isVisible() && !error->text().isEmpty(), 15000);
        // The driver's words after the URL are the server's (MariaDB's client library's).
        const QString driver = error->text().section(refused, 1).section(QStringLiteral("："), 1);
        m_data << driver.trimmed();
        look(dialog, QStringLiteral("connect dialog, refused"));
        m_texts.push_back({QStringLiteral("status bar"), window.statusBar()->currentMessage()});
        dialog->reject();
        report();
    }

    // Connected: every page with its data, then the menus again.
    void pages()
    {
        MainWindow& window = *m_window;
        QVERIFY(window.connectToText(TestDatabases::urlText(m_db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 1, 20000);
        const int recovery = window.pages()->indexOf(window.recovery());
        QTRY_VERIFY_WITH_TIMEOUT(window.pages()->tabText(recovery) != window.pages()->tabText(0) &&
                                     window.pages()->tabText(recovery).contains(QStringLiteral("（")),
                                 20000);
        for (int i = 0; i < window.pages()->count(); ++i) {
            QWidget* page = window.pages()->widget(i);
            QVERIFY(clickTab(window, page));
            // Each page reads its data when it is shown: wait for its tables to fill.
            QTest::qWait(300);
            for (QTableView* table : page->findChildren<QTableView*>())
                if (table->isVisibleTo(page) && table->model())
                    (void)QTest::qWaitFor([table]() { return table->model()->rowCount() > 0; }, 5000);
            look(&window, QStringLiteral("page %1").arg(window.pages()->tabText(i)));
        }
        report();
    }

    // Events: a row in the inspector (each of its tabs), Requeue… and Mark DEAD… with their
    // previews, a requeue run to its result, the failure group's dialog.
    void eventDialogs()
    {
        MainWindow& window = *m_window;
        QVERIFY(clickTab(window, window.events()));
        auto* table = child<QTableView>(&window, "eventsTable");
        QTRY_VERIFY_WITH_TIMEOUT(table->model()->rowCount() >= 6, 10000);
        int failed = rowWith(table, QString::number(m_failedId), EventTableModel::IdColumn);
        QVERIFY(failed >= 0);
        clickRow(table, failed);
        auto* tabs = child<QTabWidget>(&window, "inspectorTabs");
        QVERIFY(tabs);
        QTRY_VERIFY_WITH_TIMEOUT(!child<QLabel>(&window, "inspectorTitle")->text().isEmpty(), 10000);
        for (int i = 0; i < tabs->count(); ++i) {
            QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {}, tabs->tabBar()->tabRect(i).center());
            QTest::qWait(300);
            look(&window, QStringLiteral("event inspector tab %1").arg(i));
        }

        for (const char* button : {"markDeadButton", "requeueButton"}) {
            failed = rowWith(table, QString::number(m_failedId), EventTableModel::IdColumn);
            QVERIFY(failed >= 0);
            clickRow(table, failed);
            QTest::mouseClick(child<QPushButton>(&window, button), Qt::LeftButton);
            QPointer<QDialog> dialog = waitForTopLevel<QDialog>(QStringLiteral("actionDialog"));
            QVERIFY2(dialog, button);
            QTRY_VERIFY_WITH_TIMEOUT(!dialog || !dialog->property("busy").toBool(), 15000);
            QVERIFY2(dialog, qPrintable(window.statusBar()->currentMessage()));
            look(dialog, QLatin1String(button));
            if (QLatin1String(button) == QLatin1String("markDeadButton")) {
                dialog->reject();
                QTRY_VERIFY(!dialog->isVisible());
                continue;
            }
            QTest::keyClicks(child<QLineEdit>(dialog, "actionReason"), m_reason);
            auto* confirm = child<QLineEdit>(dialog, "actionConfirm");
            if (confirm->isVisible())
                QTest::keyClicks(confirm, confirm->placeholderText());
            QTest::mouseClick(child<QPushButton>(dialog, "actionRun"), Qt::LeftButton);
            auto* result = waitForTopLevel<QDialog>(QStringLiteral("actionResult"));
            QVERIFY(result);
            QTest::qWait(500);
            if (auto* show = child<QPushButton>(result, "resultShowAudit"); show && show->isVisible()) {
                QTest::mouseClick(show, Qt::LeftButton);
                QTest::qWait(500);
            }
            look(result, QStringLiteral("requeue result"));
            result->close();
        }

        // The failure groups of FAILED events, and a group's dialog.
        auto* groups = child<QTableView>(&window, "failureGroups");
        QTRY_VERIFY_WITH_TIMEOUT(groups->model()->rowCount() > 0, 10000);
        look(&window, QStringLiteral("events page, groups"));
        clickRow(groups, 0);
        QTest::mouseClick(child<QPushButton>(&window, "requeueGroup"), Qt::LeftButton);
        auto* dialog = waitForTopLevel<QDialog>(QStringLiteral("actionDialog"));
        QVERIFY(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->property("busy").toBool(), 15000);
        look(dialog, QStringLiteral("requeue group"));
        dialog->reject();
        report();
    }

    // Blocked: the page with its blocked aggregate and its Requeue dialog.
    void blockedDialogs()
    {
        MainWindow& window = *m_window;
        QVERIFY(clickTab(window, window.blocked()));
        auto* table = child<QTableView>(&window, "blockedTable");
        QTest::mouseClick(child<QPushButton>(&window, "blockedRefresh"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(table->model()->rowCount() > 0, 15000);
        look(&window, QStringLiteral("blocked page"));
        clickRow(table, 0);
        QTest::mouseClick(child<QPushButton>(&window, "blockedDead"), Qt::LeftButton);
        auto* dialog = waitForTopLevel<QDialog>(QStringLiteral("actionDialog"));
        QVERIFY(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->property("busy").toBool(), 15000);
        look(dialog, QStringLiteral("blocked: mark dead"));
        dialog->reject();
        report();
    }

    // Dead letters: the detail, Replay…, Discard…, Edit… with a JSON error, Groups… and a group's
    // payload repair with its preview.
    void deadLetterDialogs()
    {
        MainWindow& window = *m_window;
        QVERIFY(clickTab(window, window.deadLetters()));
        auto* table = child<QTableView>(&window, "deadLettersTable");
        QTRY_VERIFY_WITH_TIMEOUT(table->model()->rowCount() >= 2, 10000);
        clickRow(table, 0);
        QTest::qWait(300);
        look(&window, QStringLiteral("dead letter detail"));
        for (const char* button : {"replayButton", "discardButton"}) {
            QVERIFY(rowWith(table, m_sku) == 0);
            clickRow(table, 0);
            QTest::mouseClick(child<QPushButton>(&window, button), Qt::LeftButton);
            QPointer<QDialog> dialog = waitForTopLevel<QDialog>(QStringLiteral("actionDialog"));
            QVERIFY2(dialog, button);
            QTRY_VERIFY_WITH_TIMEOUT(!dialog || !dialog->property("busy").toBool(), 15000);
            QVERIFY2(dialog, qPrintable(window.statusBar()->currentMessage()));
            look(dialog, QLatin1String(button));
            dialog->reject();
            QTRY_VERIFY(!dialog->isVisible());
        }

        QVERIFY(rowWith(table, m_sku) == 0);
        clickRow(table, 0);
        QTest::mouseClick(child<QPushButton>(&window, "editButton"), Qt::LeftButton);
        auto* edit = waitForTopLevel<QDialog>(QStringLiteral("dlqEditDialog"));
        QVERIFY(edit);
        look(edit, QStringLiteral("edit dead letter"));
        auto* payload = child<QPlainTextEdit>(edit, "dlqEditPayload");
        payload->selectAll();
        QTest::keyClicks(payload, QStringLiteral("{\"sku\": \"SKU-1\", "));
        QTest::keyClicks(child<QLineEdit>(edit, "dlqEditReason"), m_reason);
        QTest::mouseClick(child<QPushButton>(edit, "dlqEditSave"), Qt::LeftButton);
        QTRY_VERIFY(!child<QLabel>(edit, "dlqEditError")->text().isEmpty());
        m_data << QStringLiteral("{\"sku\": \"SKU-1\", ");
        look(edit, QStringLiteral("edit dead letter, invalid JSON"));
        edit->reject();

        QTest::mouseClick(child<QPushButton>(&window, "groupsButton"), Qt::LeftButton);
        auto* groups = waitForTopLevel<QDialog>(QStringLiteral("dlqGroupsDialog"));
        QVERIFY(groups);
        auto* groupTable = child<QTableView>(groups, "dlqGroupsTable");
        QTRY_VERIFY_WITH_TIMEOUT(groupTable->model()->rowCount() > 0, 10000);
        look(groups, QStringLiteral("dead-letter groups"));
        clickRow(groupTable, 0);
        QTest::mouseClick(child<QPushButton>(groups, "dlqGroupEdit"), Qt::LeftButton);
        auto* repair = waitForTopLevel<QDialog>(QStringLiteral("groupEditDialog"));
        QVERIFY(repair);
        look(repair, QStringLiteral("group repair"));
        QTest::keyClicks(child<QLineEdit>(repair, "groupEditPath"), QStringLiteral("sku"));
        QTest::keyClicks(child<QLineEdit>(repair, "groupEditTo"), QStringLiteral("\"SKU-2\""));
        QTest::mouseClick(child<QPushButton>(repair, "groupEditPreview"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!child<QLabel>(repair, "groupEditSummary")->text().isEmpty(), 15000);
        m_data << QStringLiteral("SKU-2");
        look(repair, QStringLiteral("group repair, preview"));
        repair->close();
        groups->close();
        report();
    }

    // Relays: the stale relay, Pause with a reason, the confirmation dialog; Start without a broker.
    void relayDialogs()
    {
        MainWindow& window = *m_window;
        QVERIFY(clickTab(window, window.relays()));
        auto* table = child<QTableView>(&window, "relaysTable");
        QTRY_VERIFY_WITH_TIMEOUT(table->model()->rowCount() > 0, 10000);
        clickRow(table, 0);
        QTest::keyClicks(child<QLineEdit>(&window, "relayReason"), m_reason);
        QPushButton* pause = nullptr;
        for (QPushButton* b : window.relays()->findChildren<QPushButton*>())
            if (b->text() == RelaysPage::tr("Pause"))
                pause = b;
        QVERIFY(pause);
        QTest::mouseClick(pause, Qt::LeftButton);
        auto* dialog = waitForTopLevel<QDialog>(QStringLiteral("relayControlDialog"));
        QVERIFY(dialog);
        QTest::qWait(500);
        look(dialog, QStringLiteral("relay control"));
        dialog->reject();
        QTest::mouseClick(child<QPushButton>(&window, "startRelay"), Qt::LeftButton);
        auto* log = child<QPlainTextEdit>(&window, "relayLog");
        QTRY_VERIFY_WITH_TIMEOUT(log->toPlainText().count(QLatin1Char('\n')) >= 2, 15000);
        // The child's hint names where a setting comes from as command syntax: a flag's value
        // placeholder (--kafka-bootstrap <host:port>) is syntax like the flag; the rest is read.
        static const QRegularExpression placeholder(QStringLiteral("--[a-z-]+ (<[^<>]+>)"));
        for (auto m = placeholder.globalMatch(log->toPlainText()); m.hasNext();)
            m_data << m.next().captured(1);
        // The log shows what the child outboxctl prints as it prints it (its own errors, in its
        // words); the console's lines around it are checked.
        look(&window, QStringLiteral("relays page, start without a broker"));
        report();
    }

    // Recovery: every finding of the incident, a prepared action's preview, a sample's inspector.
    void recoveryFindings()
    {
        MainWindow& window = *m_window;
        QVERIFY(clickTab(window, window.recovery()));
        const auto* model = window.recovery()->model();
        QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() >= 4, 20000);
        QStringList ids;
        for (int i = 0; i < model->rowCount(); ++i)
            ids << model->at(i)->id;
        for (const QString& id : std::as_const(ids)) {
            QVERIFY2(chooseFinding(window, id), qPrintable(id));
            RecoveryFlow* flow = window.recovery()->flow();
            QTest::qWait(300);
            look(&window, QStringLiteral("finding ") + id);
            auto* actions = child<QListWidget>(flow, "findingActions");
            auto* preview = child<QPushButton>(flow, "previewAction");
            if (actions->count() > 0) {
                QTest::mouseClick(actions->viewport(), Qt::LeftButton, {},
                                  actions->visualItemRect(actions->item(0)).center());
                if (preview->isEnabled()) {
                    QTest::mouseClick(preview, Qt::LeftButton);
                    QTRY_COMPARE_WITH_TIMEOUT(flow->step(), RecoveryFlow::Preview, 20000);
                    QTest::qWait(300);
                    look(&window, QStringLiteral("finding %1, preview").arg(id));
                }
            }
            auto* samples = child<QListWidget>(flow, "findingSamples");
            if (samples && samples->count() > 0 && samples->isVisible()) {
                QTest::mouseClick(samples->viewport(), Qt::LeftButton, {},
                                  samples->visualItemRect(samples->item(0)).center());
                QTest::mouseClick(child<QPushButton>(flow, "openSample"), Qt::LeftButton);
                if (auto* inspector = waitForTopLevel<QDialog>(QStringLiteral("sampleInspector"), 5000)) {
                    QTest::qWait(500);
                    look(inspector, QStringLiteral("finding %1, sample").arg(id));
                    inspector->close();
                }
            }
        }
        report();
    }

    // Consumers: the inbox of the consumer, double-clicked.
    void consumersInbox()
    {
        MainWindow& window = *m_window;
        QVERIFY(clickTab(window, window.consumers()));
        QTest::mouseClick(child<QPushButton>(&window, "consumersRefresh"), Qt::LeftButton);
        QTest::qWait(1500);
        look(&window, QStringLiteral("consumers page"));
        report();
    }

    // Qt's own: the file dialogs of the File menu and the Audit page's export, the message box of
    // an unreadable fleet file, a line edit's context menu.
    void qtDialogs()
    {
        MainWindow& window = *m_window;
        for (const char* name : {"openFleetAction", "importProfilesAction", "exportProfilesAction"}) {
            QAction* action = menuAction(window, QLatin1String(name));
            QVERIFY(action);
            action->trigger();
            auto* dialog = waitForWindow<QFileDialog>();
            QVERIFY2(dialog, name);
            QTest::qWait(300);
            look(dialog, QLatin1String(name));
            dialog->reject();
            QTRY_VERIFY(!dialog->isVisible());
        }

        // A fleet file that does not parse: Qt's warning box (QMessageBox::warning, a nested event
        // loop: it is read and closed from a timer while the file dialog's accept() waits for it).
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.ini"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("[member a]\n");
        file.close();
        m_data << path;
        menuAction(window, QStringLiteral("openFleetAction"))->trigger();
        auto* dialog = waitForWindow<QFileDialog>();
        QVERIFY(dialog);
        bool warned = false;
        whenShown<QMessageBox>([this, &warned](QMessageBox* box) {
            warned = true;
            look(box, QStringLiteral("fleet file warning"));
            box->done(QMessageBox::Ok);
        });
        dialog->selectFile(path);
        QMetaObject::invokeMethod(dialog, "accept");
        QTRY_VERIFY(warned);

        // Audit › Export CSV…: QFileDialog::getSaveFileName's dialog, read and cancelled the same way.
        QVERIFY(clickTab(window, window.audit()));
        bool asked = false;
        whenShown<QFileDialog>([this, &asked](QFileDialog* save) {
            asked = true;
            QTest::qWait(300);
            look(save, QStringLiteral("audit export"));
            save->reject();
        });
        QTest::mouseClick(child<QPushButton>(&window, "exportCsv"), Qt::LeftButton);
        QTRY_VERIFY(asked);

        // A line edit's own menu (Undo, Copy, Paste, …).
        std::unique_ptr<QMenu> menu(child<QLineEdit>(&window, "auditActor")->createStandardContextMenu());
        m_texts += ScreenTexts::ofMenu(menu.get(), QStringLiteral("line edit context menu"));
        report();
    }

    // File › Open fleet file… with this database and a member that refuses connections: the Fleet
    // page (states, counts, findings, the refused member's error and its next attempt).
    void fleetPage()
    {
        MainWindow& window = *m_window;
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("fleet.ini"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("[fleet]\ninterval = 1s\ntimeout = 2s\n[member shop]\nurl = " +
                   TestDatabases::urlText(m_db->url()).toUtf8() +
                   "\ntags = env=staging\n[member refused]\nurl = " + m_refused.toUtf8() + "\n");
        file.close();
        m_data << path << QStringLiteral("shop") << QStringLiteral("refused")
               << QStringLiteral("env=staging");
        menuAction(window, QStringLiteral("openFleetAction"))->trigger();
        auto* dialog = waitForWindow<QFileDialog>();
        QVERIFY(dialog);
        dialog->selectFile(path);
        QMetaObject::invokeMethod(dialog, "accept");
        QTRY_VERIFY_WITH_TIMEOUT(window.fleetPage() && window.fleetPage()->model()->rowCount() == 2, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(
            !window.fleetPage()->model()->index(0, FleetTableModel::ErrorText).data().toString().isEmpty() ||
                !window.fleetPage()
                     ->model()
                     ->index(1, FleetTableModel::ErrorText)
                     .data()
                     .toString()
                     .isEmpty(),
            15000);
        QTest::qWait(1500);
        QCOMPARE(window.pages()->currentWidget(), window.fleetPage());
        look(&window, QStringLiteral("fleet page"));
        report();
    }

    // View › Wallboard.
    void wallboard()
    {
        MainWindow& window = *m_window;
        menuAction(window, MainWindow::tr("&Wallboard"))->trigger();
        auto* board = waitForTopLevel<QWidget>(QStringLiteral("wallboardOverview"));
        QVERIFY(board);
        QTest::qWait(2500);
        look(board, QStringLiteral("wallboard"));
        board->close();
        report();
    }

    // Dead letters › Edit…: another operator's edit lands first; the conflict the dialog shows.
    void staleEditConflict()
    {
        MainWindow& window = *m_window;
        QVERIFY(clickTab(window, window.deadLetters()));
        auto* table = child<QTableView>(&window, "deadLettersTable");
        const int row = rowWith(table, m_sku);
        QVERIFY(row >= 0);
        clickRow(table, row);
        const qint64 id = window.deadLetters()->model()->record(row).value(QStringLiteral("id")).toInteger();
        QTest::mouseClick(child<QPushButton>(&window, "editButton"), Qt::LeftButton);
        auto* edit = waitForTopLevel<QDialog>(QStringLiteral("dlqEditDialog"));
        QVERIFY(edit);
        DeadLetterEdit other;
        other.actor = QStringLiteral("alice");
        other.reason = QStringLiteral("INC-7 retry");
        other.payload = QByteArray(R"({"sku":"SKU-1","quantity":3})");
        other.baseEditCount = DeadLetterStore(*m_db).find(id)->editCount;
        QVERIFY(DeadLetterEditor(*m_db).edit(id, other).ok());
        auto* payload = child<QPlainTextEdit>(edit, "dlqEditPayload");
        payload->selectAll();
        QTest::keyClicks(payload, QStringLiteral("{\"sku\":\"SKU-1\",\"quantity\":5}"));
        QTest::keyClicks(child<QLineEdit>(edit, "dlqEditReason"), m_reason);
        QTest::mouseClick(child<QPushButton>(edit, "dlqEditSave"), Qt::LeftButton);
        auto* error = child<QLabel>(edit, "dlqEditError");
        QTRY_VERIFY_WITH_TIMEOUT(error->text().contains(QString::number(id)), 10000);
        QVERIFY(edit->isVisible());
        look(edit, QStringLiteral("edit dead letter, edited meanwhile"));
        m_texts.push_back({QStringLiteral("status bar"), window.statusBar()->currentMessage()});
        edit->reject();
        report();
    }

    // Recovery: a requeue of 2,500 FAILED events runs in chunks: its progress, Cancel, verification.
    void chunkedRunProgress()
    {
        MainWindow& window = *m_window;
        const QVector<qint64> ids = insertEvents(*m_db, 2500);
        forceStatus(*m_db, ids, QStringLiteral("FAILED"), m_chunked);
        QVERIFY(Failpoints::configure(QStringLiteral("ops.bulk.between_chunks=sleep(1500)")).ok());
        QVERIFY(clickTab(window, window.recovery()));
        QTest::mouseClick(child<QPushButton>(&window, "runDoctor"), Qt::LeftButton);
        FindingsModel* model = window.recovery()->model();
        int row = -1;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&]() {
                for (int i = 0; i < model->rowCount(); ++i)
                    if (model->at(i)->id == QLatin1String("failed-events") &&
                        model->at(i)->evidence.count == 2500)
                        row = i;
                return row >= 0;
            }(),
            20000);
        auto* findings = child<QTableView>(&window, "recoveryFindings");
        QTest::mouseClick(findings->viewport(), Qt::LeftButton, {},
                          findings->visualRect(model->index(row, FindingsModel::TitleColumn)).center());
        RecoveryFlow* flow = window.recovery()->flow();
        QTRY_COMPARE_WITH_TIMEOUT(flow->finding().evidence.count, qint64(2500), 5000);
        auto* actions = child<QListWidget>(flow, "findingActions");
        int requeue = -1;
        for (int i = 0; i < actions->count(); ++i)
            if (flow->finding().actions.at(i).operation == PreparedAction::Operation::RequeueEvents)
                requeue = i;
        QVERIFY(requeue >= 0);
        QTest::mouseClick(actions->viewport(), Qt::LeftButton, {},
                          actions->visualItemRect(actions->item(requeue)).center());
        QTest::mouseClick(child<QPushButton>(flow, "previewAction"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(flow->step(), RecoveryFlow::Preview, 20000);
        QTest::keyClicks(child<QLineEdit>(flow, "recoveryReason"), m_reason);
        QTest::keyClicks(child<QLineEdit>(flow, "recoveryConfirm"), QStringLiteral("requeue 2500"));
        QTest::mouseClick(child<QPushButton>(flow, "recoveryRun"), Qt::LeftButton);
        auto* progress = child<QProgressBar>(flow, "recoveryProgress");
        QTRY_VERIFY_WITH_TIMEOUT(progress->value() >= 1000, 20000);
        QCOMPARE(flow->step(), int(RecoveryFlow::Running));
        look(&window, QStringLiteral("chunked run, progress"));
        QTest::mouseClick(child<QPushButton>(flow, "recoveryCancel"), Qt::LeftButton);
        look(&window, QStringLiteral("chunked run, cancelling"));
        auto* verification = child<QLabel>(flow, "verificationResult");
        QTRY_VERIFY_WITH_TIMEOUT(verification->property("findingGone").isValid(), 30000);
        QVERIFY(Failpoints::configure(QString()).ok());
        look(&window, QStringLiteral("chunked run, cancelled"));
        report();
    }

    // Relays: a managed relay runs on this database; Connect… to another asks stop or keep.
    void managedRelayQuestion()
    {
        MainWindow& window = *m_window;
        auto broker =
            startOutboxctl({QStringLiteral("kafka"), QStringLiteral("--topic"), QStringLiteral("Order:1")});
        QVERIFY(broker->canReadLine() || broker->waitForReadyRead(10000));
        const QByteArray line = broker->readLine().trimmed();
        QVERIFY2(line.startsWith("bootstrap 127.0.0.1:"), line.constData());
        QVERIFY(clickTab(window, window.relays()));
        auto* arguments = child<QLineEdit>(&window, "relayArguments");
        arguments->clear();
        QTest::keyClicks(arguments, QStringLiteral("--kafka-bootstrap=") + QString::fromUtf8(line.mid(10)));
        QTest::mouseClick(child<QPushButton>(&window, "startRelay"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.relays()->managedRelay()->isRunning(), 15000);
        auto other = TestDatabases::fresh(QStringLiteral("sqlite"),
                                          TestDatabases::uniqueName(QStringLiteral("zhwalk-other")));
        m_data << other->url().redacted() << other->url().database;
        menuAction(window, MainWindow::tr("&Connect…"))->trigger();
        // The console closes the dialog (deleted on close) once it is done with it: a guarded pointer.
        QPointer<QDialog> dialog = waitForTopLevel<QDialog>(QStringLiteral("connectDialog"));
        QVERIFY(dialog);
        auto* url = child<QLineEdit>(dialog, "profileUrl");
        url->clear();
        QTest::keyClicks(url, TestDatabases::urlText(other->url()));
        QTest::mouseClick(child<QPushButton>(dialog, "connectButton"), Qt::LeftButton);
        auto* question = waitForTopLevel<QMessageBox>(QStringLiteral("managedRelayQuestion"));
        QVERIFY(question);
        look(question, QStringLiteral("managed relay question"));
        QTest::mouseClick(child<QPushButton>(question, "cancelSwitch"), Qt::LeftButton);
        QTest::qWait(200);
        m_texts.push_back({QStringLiteral("status bar"), window.statusBar()->currentMessage()});
        if (dialog && dialog->isVisible())
            dialog->reject();
        QTest::mouseClick(child<QPushButton>(&window, "stopRelay"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!window.relays()->managedRelay()->isActive(), 20000);
        terminateAndWait(*broker);
        report();
    }

    // Connect… to a server that wants the password the URL does not give: the prompt.
    void passwordPrompt()
    {
        if (!TestDatabases::available(QStringLiteral("mysql")))
            QSKIP("no MariaDB test server");
        MainWindow& window = *m_window;
        auto db = TestDatabases::fresh(QStringLiteral("mysql"),
                                       TestDatabases::uniqueName(QStringLiteral("zhwalk-pw")));
        DatabaseUrl url = db->url();
        QVERIFY(!url.password.isEmpty());
        url.password.clear();
        m_data << url.redacted() << url.database << url.user;
        menuAction(window, MainWindow::tr("&Connect…"))->trigger();
        // The console closes the dialog (deleted on close) once it is done with it: a guarded pointer.
        QPointer<QDialog> dialog = waitForTopLevel<QDialog>(QStringLiteral("connectDialog"));
        QVERIFY(dialog);
        auto* edit = child<QLineEdit>(dialog, "profileUrl");
        edit->clear();
        QTest::keyClicks(edit, url.redacted());
        QTest::mouseClick(child<QPushButton>(dialog, "connectButton"), Qt::LeftButton);
        auto* prompt = waitForTopLevel<QInputDialog>(QStringLiteral("passwordPrompt"));
        QVERIFY2(prompt, "no password prompt");
        QTest::qWait(200);
        look(prompt, QStringLiteral("password prompt"));
        prompt->reject();
        QTest::qWait(200);
        if (dialog && dialog->isVisible())
            dialog->reject();
        report();
    }

    // Every text the product looked up above has a translation.
    void everyLookupTranslated()
    {
        const QStringList missed = m_product.missed();
        QVERIFY2(missed.isEmpty(), qPrintable(missed.join(QLatin1Char('\n'))));
    }

    // The walk can fail: an English text on a window is reported; the data and allow-list are not.
    void anEnglishTextIsReported()
    {
        QWidget w;
        auto* label = new QLabel(QStringLiteral("Look in:"), &w);
        auto* ok = new QLabel(QStringLiteral("查看：/tmp/ 中 3 个 PENDING 事件，Kafka"), &w);
        ok->setToolTip(QStringLiteral("<b>unknown SKU SKU-1</b>"));
        w.show();
        const QVector<ScreenTexts::Text> texts = ScreenTexts::of(&w);
        const QStringList english = ScreenTexts::english(texts, {QStringLiteral("unknown SKU SKU-1")});
        QCOMPARE(english.size(), 1);
        QVERIFY2(english.first().contains(label->text()), qPrintable(english.first()));
        QCOMPARE(ScreenTexts::latinWords(QStringLiteral("运行 outboxctl requeue --db=sqlite:///x -- 1"), {}),
                 QStringList());
        QCOMPARE(ScreenTexts::latinWords(QStringLiteral("心跳 heartbeat_age_ms"), {}),
                 QStringList{QStringLiteral("heartbeat_age_ms")});
        QCOMPARE(ScreenTexts::latinWords(QStringLiteral("确定 (&O)"), {}), QStringList());
    }

private:
    void seed()
    {
        m_db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                    TestDatabases::uniqueName(QStringLiteral("zhwalk")));
        Database& db = *m_db;
        const QVector<qint64> ids = insertEvents(db, 6);
        m_failedId = ids.at(0); // FAILED, with a later OrderPaid of its aggregate waiting
        // order-0 has a later event that its FAILED one blocks.
        insertEvents(db, 1, QStringLiteral("OrderPaid"));
        exec(db,
             QStringLiteral("UPDATE {events} SET created_at = %1")
                 .arg(db.dialect().nowPlusMillis(QStringLiteral(":ms"))),
             {{QStringLiteral(":ms"), -600000}});
        forceStatus(db, {ids.at(0), ids.at(1)}, QStringLiteral("FAILED"), m_authorization);
        forceStatus(db, {ids.at(2)}, QStringLiteral("DEAD"), m_tooLarge);
        forceStatus(db, {ids.at(3)}, QStringLiteral("SENT"));
        exec(db, QStringLiteral("UPDATE {events} SET last_error_class = 'deterministic', attempts = 3, "
                                "worker_id = 'relay-old' WHERE status IN ('FAILED', 'DEAD')"));
        // An operator's earlier requeue: an audit row.
        forceStatus(db, {ids.at(4)}, QStringLiteral("FAILED"), m_authorization);
        ActionRequest requeue;
        requeue.ids = {ids.at(4)};
        requeue.reason = QStringLiteral("INC-7 retry");
        requeue.actor = QStringLiteral("alice");
        QVERIFY(OperatorActions(db).requeue(requeue).ok());
        registerRelay(db, QStringLiteral("relay-old"), 600000);
        // Stored values that the tables show as they are (Labels: "stored values stay as they
        // are"): the audit row's outcome and target kind.
        auto audit = db.exec(QStringLiteral("SELECT outcome, target_kind FROM {audit}"));
        QVERIFY(audit.ok());
        while (audit->next())
            m_data << audit->value(0).toString() << audit->value(1).toString();
        // The events' columns, as the inspector's Columns tab and the raw JSON name them, and the
        // error class stored in one of them.
        auto columns = db.exec(QStringLiteral("SELECT * FROM {events}"));
        QVERIFY(columns.ok());
        for (int i = 0; i < columns->record().count(); ++i)
            m_data << columns->record().fieldName(i);
        m_data << QStringLiteral("deterministic");
        auto q = db.exec(QStringLiteral("SELECT event_id FROM {events} ORDER BY id"));
        QVERIFY(q.ok());
        while (q->next())
            m_data << q->value(0).toString();
        QVERIFY(InboxStore(db)
                    .recordProcessed(m_data.last(), QStringLiteral("billing"), QStringLiteral("order-5"), 1)
                    .ok());
        for (int i = 0; i < 2; ++i) {
            DeadLetter letter;
            letter.consumerName = QStringLiteral("inventory");
            letter.eventId = m_data.at(i);
            letter.topic = QStringLiteral("Order");
            letter.payload = QByteArrayLiteral("{\"sku\":\"SKU-1\",\"quantity\":2}");
            letter.headers = QByteArrayLiteral("{\"trace_id\":\"t-0\"}");
            letter.error = m_sku;
            letter.attempts = 3;
            QVERIFY(DeadLetterStore(db).insert(letter).ok());
        }
        // The database's own words: errors, names, ids, payload keys and values, the host, paths.
        m_data << m_authorization << m_tooLarge << m_chunked << m_sku << QStringLiteral("unknown SKU SKU-<n>")
               << QStringLiteral("SKU-1") << QStringLiteral("OrderCreated") << QStringLiteral("OrderPaid")
               << QStringLiteral("Order") << QStringLiteral("relay-old") << QStringLiteral("relay-host")
               << QStringLiteral("alice") << QStringLiteral("INC-7 retry") << m_reason
               << QStringLiteral("events.requeue") << QStringLiteral("billing") << QStringLiteral("inventory")
               << QStringLiteral("order_id") << QStringLiteral("order-") << QStringLiteral("total")
               << QStringLiteral("trace_id") << QStringLiteral("t-") << QStringLiteral("sku")
               << QStringLiteral("quantity") << QSysInfo::machineHostName() << m_db->url().database
               << QStringLiteral("topic-authorization")
               << QStringLiteral("message-too-large")
               // The database's names that texts quote: tables, columns, a header key.
               << QStringLiteral("outbox_events") << QStringLiteral("dead_letters")
               << QStringLiteral("event_id") << QStringLiteral("trace_id") << QStringLiteral("topic");
    }

    void look(QWidget* root, const QString& step)
    {
        for (ScreenTexts::Text t : ScreenTexts::of(root)) {
            t.where = step + QStringLiteral(": ") + t.where;
            m_texts.push_back(t);
        }
    }

    // Fails with every English text collected since the last report.
    void report()
    {
        const QStringList english = ScreenTexts::english(m_texts, m_data);
        m_texts.clear();
        for (const QString& line : english)
            qWarning("English: %s", qPrintable(line));
        QVERIFY2(english.isEmpty(),
                 qPrintable(QStringLiteral("%1 English text(s), see above").arg(english.size())));
    }

    const QString m_authorization = QStringLiteral("Broker: Topic authorization failed");
    const QString m_tooLarge = QStringLiteral("Broker: Message size too large");
    const QString m_sku = QStringLiteral("unknown SKU SKU-1");
    const QString m_chunked = QStringLiteral("Broker: Local: Message timed out");
    const QString m_reason = QStringLiteral("INC-9 walk");
    const QString m_refused = QStringLiteral("mysql://outbox@127.0.0.1:1/outbox");
    qint64 m_failedId = 0;
    std::unique_ptr<Database> m_db;
    std::unique_ptr<MainWindow> m_window;
    QStringList m_data;
    QVector<ScreenTexts::Text> m_texts;
    RecordingTranslator m_product;
    QTranslator m_qt;
};

QTEST_MAIN(TestZhCnWalk)
#include "tst_zhcnwalk.moc"
