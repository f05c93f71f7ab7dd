// The desktop console's Fleet page (issue 27), driven like an operator drives it: real widgets
// offscreen, QTest clicks and keys on the real table, filter and requeue dialog, real databases
// (a PostgreSQL member on the fixture server and a SQLite member), core's FleetSampler behind it.
#include "core/db/DeadLetterStore.h"
#include "core/fleet/Fleet.h"
#include "tests/support/ConsoleClicks.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/WidgetFinder.h"
#include "ui/desktop/ConsoleStartup.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/events/EventTableModel.h"
#include "ui/desktop/events/EventsPage.h"
#include "ui/desktop/fleet/FleetPage.h"
#include "ui/desktop/fleet/FleetTableModel.h"
#include "ui/desktop/overview/OverviewPage.h"
#include "ui/desktop/recovery/FindingsModel.h"
#include "ui/desktop/recovery/RecoveryPage.h"

#include <QAbstractItemModelTester>
#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QCompleter>
#include <QDialog>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPointer>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>

using namespace outbox;
using namespace outbox::desktop;
using namespace outbox::test;

namespace {

QByteArray withoutPassword(DatabaseUrl url)
{
    url.password.clear();
    return url.redacted().toUtf8();
}

qint64 scalar(Database& db, const QString& sql)
{
    auto q = db.exec(sql);
    if (!q || !q->next())
        return -1;
    return q->value(0).toLongLong();
}

// The row of `member` in the view (through its filter), or an invalid index.
QModelIndex rowOf(QTableView* view, const QString& member, int column = FleetTableModel::Member)
{
    for (int row = 0; row < view->model()->rowCount(); ++row) {
        const QModelIndex i = view->model()->index(row, column);
        if (i.data(FleetTableModel::MemberNameRole).toString() == member)
            return i;
    }
    return {};
}

bool writeFile(const QString& path, const QByteArray& text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

// The members shown on the page, worst first: "name:state".
QStringList shownMembers(QTableView* view)
{
    QStringList members;
    for (int row = 0; row < view->model()->rowCount(); ++row)
        members << view->model()->index(row, FleetTableModel::Member).data().toString() + QLatin1Char(':') +
                       view->model()->index(row, FleetTableModel::State).data().toString();
    return members;
}

// The sick member (FAILED events) on top, the healthy one below.
bool sickShopThenEdge(const QStringList& members)
{
    return members.size() == 2 && members.at(0).startsWith(QStringLiteral("shop:")) &&
           members.at(0) != QStringLiteral("shop:ok") &&
           members.at(0) != QStringLiteral("shop:unreachable") && members.at(1) == QStringLiteral("edge:ok");
}

// Opens `path` through File › Open fleet file… (the menu's own action) and its file dialog (Qt's,
// not the platform's): the file selected, the dialog's Open button clicked. Returns how long the
// window's thread was busy with that click (the dialog closing, the page replaced), -1 when a step
// failed.
qint64 openThroughTheFileMenu(MainWindow& window, const QString& path)
{
    QMenu* fileMenu = nullptr;
    for (QAction* entry : window.menuBar()->actions())
        if (entry->menu() && entry->text().remove(QLatin1Char('&')) == QStringLiteral("File"))
            fileMenu = entry->menu();
    if (!fileMenu) {
        qWarning("no file menu");
        return -1;
    }
    QAction* open = nullptr;
    for (QAction* action : fileMenu->actions())
        if (action->text() == QStringLiteral("Open &fleet file…"))
            open = action;
    if (!open || !open->isEnabled()) {
        for (QAction* action : fileMenu->actions())
            qWarning("%s", qPrintable(action->text()));
        return -1;
    }
    open->trigger();
    QFileDialog* dialog = nullptr;
    if (!QTest::qWaitFor(
            [&] {
                dialog = window.findChild<QFileDialog*>(QStringLiteral("openFleetDialog"));
                return dialog && dialog->isVisible();
            },
            5000))
        return -1;
    // The file chosen in the dialog (typing its path into the file name box is not reliable here:
    // the box's completer can complete a directory name into another test run's directory).
    dialog->selectFile(path);
    QTest::qWait(300);
    auto* buttons = dialog->findChild<QDialogButtonBox*>(QStringLiteral("buttonBox"));
    QPushButton* openButton = buttons ? buttons->button(QDialogButtonBox::Open) : nullptr;
    if (!openButton || !openButton->isEnabled())
        return -1;
    const QPointer<QFileDialog> shown(dialog); // deletes itself when it closes
    QElapsedTimer stall;
    stall.start();
    QTest::mouseClick(openButton, Qt::LeftButton);
    const qint64 longest = stall.elapsed();
    QTest::qWait(50);
    return shown && shown->isVisible() ? -1 : longest;
}

} // namespace

class TestFleetPage : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("OutboxConsoleTest"));
        QStandardPaths::setTestModeEnabled(true);
    }

    // A fleet of a sick PostgreSQL member (FAILED events) and a healthy SQLite member: the page
    // shows the sick one first, filters by tag, draws its backlog; double-clicking it switches the
    // console to it (title and coloured header name it), and requeueing its FAILED events through
    // the real dialog changes that database only, with the audit row there.
    void doubleClickAMemberAndRequeueThere()
    {
        if (!TestDatabases::available(QStringLiteral("postgresql")))
            QSKIP("needs the PostgreSQL test server");
        auto orders = TestDatabases::fresh(QStringLiteral("postgresql"),
                                           TestDatabases::uniqueName(QStringLiteral("fleetdesk_orders")));
        auto edge = TestDatabases::fresh(QStringLiteral("sqlite"),
                                         TestDatabases::uniqueName(QStringLiteral("fleetdesk_edge")));
        const QVector<qint64> sick = insertEvents(*orders, 5);
        forceStatus(*orders, sick.mid(0, 3), QStringLiteral("FAILED"), QStringLiteral("broker said no"));
        forceStatus(*orders, sick.mid(3), QStringLiteral("SENT"));
        const QVector<qint64> healthy = insertEvents(*edge, 4);
        forceStatus(*edge, healthy, QStringLiteral("SENT"));

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("fleet.ini"));
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("[fleet]\nmax_connections = 2\ntimeout = 3s\ninterval = 300ms\n"
                       "[member orders]\nurl = " +
                       withoutPassword(orders->url()) + "\ntags = team=checkout, env=staging\n" +
                       "[member edge]\nurl = " + withoutPassword(edge->url()) + "\ntags = team=edge\n");
        }
        qputenv("OUTBOX_DB_PASSWORD_ORDERS", orders->url().password.toUtf8());

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFleet(path).ok());
        FleetPage* page = window.fleetPage();
        QVERIFY(page);
        QCOMPARE(window.pages()->currentWidget(), page);
        QCOMPARE(window.pages()->tabText(0), QStringLiteral("Fleet"));
        QAbstractItemModelTester tester(page->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto* table = child<QTableView>(&window, "fleetTable");
        QVERIFY(table);

        // Worst first: the sick member on top, with its counts; both members sampled.
        QTRY_VERIFY_WITH_TIMEOUT(table->model()->rowCount() == 2 && page->ticks() >= 1, 15000);
        QCOMPARE(table->model()->index(0, FleetTableModel::Member).data().toString(),
                 QStringLiteral("orders"));
        QCOMPARE(table->model()->index(1, FleetTableModel::Member).data().toString(), QStringLiteral("edge"));
        QCOMPARE(table->model()->index(0, FleetTableModel::Failed).data().toLongLong(), qint64(3));
        QCOMPARE(table->model()->index(0, FleetTableModel::Backlog).data().toLongLong(), qint64(3));
        QCOMPARE(table->model()->index(1, FleetTableModel::Failed).data().toLongLong(), qint64(0));
        QCOMPARE(table->model()->index(1, FleetTableModel::State).data().toString(), QStringLiteral("ok"));
        QVERIFY(table->model()->index(0, FleetTableModel::State).data().toString() != QStringLiteral("ok"));
        QCOMPARE(table->model()->index(0, FleetTableModel::Tags).data().toString(),
                 QStringLiteral("team=checkout, env=staging"));
        QCOMPARE(table->model()->headerData(FleetTableModel::DeadLetters, Qt::Horizontal).toString(),
                 QStringLiteral("Dead letters"));

        // The sparkline's history grows with the ticks and stays bounded.
        QTRY_VERIFY_WITH_TIMEOUT(page->model()->history(QStringLiteral("orders")).size() >= 3, 15000);
        const QVariantList points = rowOf(table, QStringLiteral("orders"), FleetTableModel::Trend)
                                        .data(FleetTableModel::BacklogHistoryRole)
                                        .toList();
        QVERIFY(points.size() >= 3 && points.size() <= FleetTableModel::HistoryPoints);
        QCOMPARE(points.last().toLongLong(), qint64(3));
        QVERIFY(!table->grab().isNull()); // the delegate paints

        // The filter box: by tag, then by name, then cleared.
        auto* filter = child<QLineEdit>(&window, "fleetFilter");
        QTest::keyClicks(filter, QStringLiteral("team=edge"));
        QCOMPARE(table->model()->rowCount(), 1);
        QCOMPARE(table->model()->index(0, 0).data().toString(), QStringLiteral("edge"));
        filter->selectAll();
        QTest::keyClicks(filter, QStringLiteral("ORD"));
        QCOMPARE(table->model()->rowCount(), 1);
        QCOMPARE(table->model()->index(0, 0).data().toString(), QStringLiteral("orders"));
        filter->selectAll();
        QTest::keyClick(filter, Qt::Key_Backspace);
        QCOMPARE(table->model()->rowCount(), 2);

        // Double-click the sick member: the console switches to it.
        const QModelIndex sickRow = rowOf(table, QStringLiteral("orders"));
        QVERIFY(sickRow.isValid());
        const QPoint at = table->visualRect(sickRow).center();
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, at);
        QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, at);
        QTRY_VERIFY_WITH_TIMEOUT(window.windowTitle().contains(QStringLiteral("fleet member orders")), 10000);
        QVERIFY2(window.windowTitle().contains(QString::fromUtf8(withoutPassword(orders->url()))),
                 qPrintable(window.windowTitle()));
        auto* header = child<QLabel>(&window, "profileTag");
        QVERIFY(header->isVisible());
        QVERIFY2(header->text().startsWith(QStringLiteral("Fleet member orders · ")),
                 qPrintable(header->text()));
        QVERIFY2(header->text().contains(QStringLiteral("changes this database only")),
                 qPrintable(header->text()));
        QVERIFY2(header->styleSheet().contains(QStringLiteral("#6a1b9a")), qPrintable(header->styleSheet()));
        QCOMPARE(header->textFormat(), Qt::PlainText);
        QCOMPARE(window.pages()->currentWidget(), window.overview());

        // The doctor's prepared commands for the member opened here name it as its Fleet page's do
        // (--fleet FILE --member NAME), never --db (issue 39 item 1: two command lines for one database).
        QTRY_VERIFY_WITH_TIMEOUT(!window.recovery()->model()->findings().isEmpty(), 20000);
        int commands = 0;
        for (const Finding& f : window.recovery()->model()->findings())
            for (const PreparedAction& a : f.actions) {
                if (a.command.isEmpty())
                    continue;
                ++commands;
                QVERIFY2(a.command.contains(QStringLiteral("--fleet ") + path +
                                            QStringLiteral(" --member orders")) &&
                             !a.command.contains(QStringLiteral("--db")),
                         qPrintable(a.command));
            }
        QVERIFY(commands > 0);

        // Requeue its FAILED events through the real dialog: reason, typed confirmation.
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model() != nullptr, 10000);
        window.pages()->setCurrentWidget(window.events());
        QTRY_COMPARE_WITH_TIMEOUT(window.events()->model()->rowCount(), 5, 10000);
        auto* status = child<QComboBox>(&window, "filterStatus");
        status->setCurrentIndex(status->findData(QStringLiteral("FAILED")));
        QTest::mouseClick(child<QPushButton>(&window, "applyFilter"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model()->rowCount() == 3 &&
                                     window.events()->model()->atEnd() &&
                                     !window.events()->model()->isFetching(),
                                 10000);
        child<QComboBox>(&window, "actionScope")->setCurrentIndex(1);
        QTest::mouseClick(child<QPushButton>(&window, "requeueButton"), Qt::LeftButton);
        QDialog* dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = window.findChild<QDialog*>(QStringLiteral("actionDialog"))) !=
                                         nullptr &&
                                     dialog->isVisible() && !dialog->property("busy").toBool(),
                                 10000);
        QTest::keyClicks(child<QLineEdit>(dialog, "actionReason"), QStringLiteral("broker fixed"));
        auto* confirm = child<QLineEdit>(dialog, "actionConfirm");
        QCOMPARE(confirm->placeholderText(), QStringLiteral("requeue 3"));
        QVERIFY(confirmAndRun(confirm, child<QPushButton>(dialog, "actionRun"), confirm->placeholderText()));
        QDialog* result = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((result = window.findChild<QDialog*>(QStringLiteral("actionResult"))) !=
                                         nullptr &&
                                     result->isVisible(),
                                 10000);

        // Only the member's database changed, and its audit row is there.
        QCOMPARE(countRows(*orders, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")),
                 qint64(0));
        QCOMPARE(countRows(*orders, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")),
                 qint64(3));
        QVERIFY(
            scalar(*orders, QStringLiteral("SELECT COUNT(*) FROM {audit} WHERE action = 'events.requeue' AND "
                                           "reason = 'broker fixed' AND affected_count = 3")) == 1);
        QCOMPARE(countRows(*edge, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(4));
        QCOMPARE(countRows(*edge, QStringLiteral("{audit}")), qint64(0));
        result->close();

        // The Fleet page follows: the member's FAILED count drops on a later tick.
        QTRY_COMPARE_WITH_TIMEOUT(
            rowOf(table, QStringLiteral("orders"), FleetTableModel::Failed).data().toLongLong(), qint64(0),
            15000);
        qunsetenv("OUTBOX_DB_PASSWORD_ORDERS");
    }

    // Issue 40 item 2 on the Fleet page: the dead-letter column counts the member's NEW dead
    // letters; a member that refuses connections keeps one error text tick after tick (the next
    // attempt beside it, never appended to it); a member whose tables are locked stops answering
    // and is shown slow with its last counts, not "unreachable" like the refused one, until
    // [fleet] unreachable_after missed ticks.
    void slowIsNotUnreachableAndDeadLettersCount()
    {
        if (!TestDatabases::available(QStringLiteral("postgresql")))
            QSKIP("needs the PostgreSQL test server");
        auto slow = TestDatabases::fresh(QStringLiteral("postgresql"),
                                         TestDatabases::uniqueName(QStringLiteral("fleetdesk_slow")));
        insertEvents(*slow, 3);
        for (int i = 0; i < 2; ++i) {
            DeadLetter letter;
            letter.consumerName = QStringLiteral("inventory");
            letter.eventId = QStringLiteral("ev-%1").arg(i);
            letter.topic = QStringLiteral("Order");
            letter.payload = "{}";
            letter.error = QStringLiteral("unknown SKU");
            QVERIFY(DeadLetterStore(*slow).insert(letter).ok());
        }
        auto holder = TestDatabases::open(slow->url());
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("fleet.ini"));
        QVERIFY(writeFile(path, "[fleet]\ninterval = 1s\ntimeout = 1s\ndoctor_interval = 60s\n"
                                "unreachable_after = 30\n[member slow]\nurl = " +
                                    withoutPassword(slow->url()) +
                                    "\n[member refused]\nurl = mysql://outbox@127.0.0.1:1/outbox\n"));
        qputenv("OUTBOX_DB_PASSWORD_SLOW", slow->url().password.toUtf8());
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFleet(path).ok());
        auto* table = child<QTableView>(&window, "fleetTable");
        const auto cell = [&](const QString& member, int column) {
            return rowOf(table, member, column).data().toString();
        };
        QTRY_VERIFY_WITH_TIMEOUT(cell(QStringLiteral("slow"), FleetTableModel::Backlog) ==
                                         QLatin1String("3") &&
                                     !cell(QStringLiteral("refused"), FleetTableModel::ErrorText).isEmpty(),
                                 15000);
        QCOMPARE(cell(QStringLiteral("slow"), FleetTableModel::DeadLetters), QStringLiteral("2"));
        const QString unreachable = FleetTableModel::tr("unreachable");
        QCOMPARE(cell(QStringLiteral("refused"), FleetTableModel::State), unreachable);
        // The error says what happened once, whatever the number of ticks.
        const auto errorOnly = [&]() {
            return rowOf(table, QStringLiteral("refused"), FleetTableModel::ErrorText)
                .data()
                .toString()
                .section(QStringLiteral(" (next attempt in "), 0, 0);
        };
        const QString firstError = errorOnly();
        QVERIFY2(firstError.contains(QStringLiteral("127.0.0.1:1")), qPrintable(firstError));
        QTest::qWait(3500);
        QCOMPARE(errorOnly(), firstError);

        // Locked: the member misses its ticks; its last state and counts stay, marked slow.
        QVERIFY(holder->exec(QStringLiteral("BEGIN")).ok());
        QVERIFY(holder->exec(QStringLiteral("LOCK TABLE {events} IN ACCESS EXCLUSIVE MODE")).ok());
        QTRY_VERIFY_WITH_TIMEOUT(
            cell(QStringLiteral("slow"), FleetTableModel::State).contains(QStringLiteral("(slow, ")), 10000);
        const QString state = cell(QStringLiteral("slow"), FleetTableModel::State);
        QVERIFY2(!state.startsWith(unreachable), qPrintable(state));
        QCOMPARE(cell(QStringLiteral("slow"), FleetTableModel::Backlog), QStringLiteral("3"));
        QCOMPARE(cell(QStringLiteral("slow"), FleetTableModel::DeadLetters), QStringLiteral("2"));
        QVERIFY(holder->exec(QStringLiteral("ROLLBACK")).ok());
        // Answering again: no longer slow.
        QTRY_VERIFY_WITH_TIMEOUT(
            !cell(QStringLiteral("slow"), FleetTableModel::State).contains(QStringLiteral("slow")), 15000);
        qunsetenv("OUTBOX_DB_PASSWORD_SLOW");
    }

    // File › Open fleet file… and its dialog open a fleet on the Fleet page. A second file opened
    // the same way while a member that accepts TCP and never answers is still being sampled
    // replaces the page at once: the old page's samples finish on their own threads, the window
    // never waits for them.
    void openFleetFilesFromTheFileMenu()
    {
        QTcpServer blackHole; // listens, nobody answers: a sample of it waits for its connect timeout
        QVERIFY(blackHole.listen(QHostAddress::LocalHost, 0));
        auto edge = TestDatabases::fresh(QStringLiteral("sqlite"),
                                         TestDatabases::uniqueName(QStringLiteral("fleetmenu_edge")));
        auto shop = TestDatabases::fresh(QStringLiteral("sqlite"),
                                         TestDatabases::uniqueName(QStringLiteral("fleetmenu_shop")));
        forceStatus(*shop, insertEvents(*shop, 2), QStringLiteral("FAILED"), QStringLiteral("no broker"));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString first = dir.filePath(QStringLiteral("first.ini"));
        const QString second = dir.filePath(QStringLiteral("second.ini"));
        QVERIFY(writeFile(first, "[fleet]\nmax_connections = 4\ntimeout = 3s\ninterval = 10s\n"
                                 "[member hole]\nurl = postgresql://outbox@127.0.0.1:" +
                                     QByteArray::number(blackHole.serverPort()) + "/nothing\n" +
                                     "[member edge]\nurl = " + withoutPassword(edge->url()) + "\n"));
        QVERIFY(writeFile(second,
                          "[fleet]\ninterval = 10s\n[member shop]\nurl = " + withoutPassword(shop->url()) +
                              "\n[member edge]\nurl = " + withoutPassword(edge->url()) + "\n"));

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!window.fleetPage());
        QVERIFY(openThroughTheFileMenu(window, first) >= 0);
        FleetPage* page = window.fleetPage();
        QVERIFY(page);
        QCOMPARE(page->fleet().file(), first);
        QCOMPARE(window.pages()->currentWidget(), page);
        auto* table = child<QTableView>(&window, "fleetTable");
        // The black hole's first sample is still out: it answers nothing before the timeout (3 s),
        // so the first tick cannot have finished.
        QTest::qWait(300);
        QCOMPARE(page->ticks(), 0);

        const qint64 stall = openThroughTheFileMenu(window, second);
        QVERIFY2(stall >= 0 && stall < 200,
                 qPrintable(QStringLiteral("the window was busy %1 ms").arg(stall)));
        QVERIFY(window.fleetPage()); // (the new page may take the old one's address)
        QCOMPARE(window.fleetPage()->fleet().file(), second);
        QCOMPARE(window.pages()->currentWidget(), window.fleetPage());
        QCOMPARE(window.pages()->tabText(0), QStringLiteral("Fleet"));
        QCOMPARE(window.pages()->indexOf(window.fleetPage()), 0);
        table = child<QTableView>(&window, "fleetTable");
        QTRY_VERIFY_WITH_TIMEOUT(sickShopThenEdge(shownMembers(table)), 10000);
    }

    // `outbox-console --fleet FILE` (and OUTBOX_FLEET): the command line main() parses, the
    // configuration it makes and the fleet the window opens with it show the file's members on the
    // Fleet page; a bad file is main's one error (it exits 2 with it).
    void startWithAFleetFile()
    {
        auto edge = TestDatabases::fresh(QStringLiteral("sqlite"),
                                         TestDatabases::uniqueName(QStringLiteral("fleetstart_edge")));
        auto shop = TestDatabases::fresh(QStringLiteral("sqlite"),
                                         TestDatabases::uniqueName(QStringLiteral("fleetstart_shop")));
        forceStatus(*shop, insertEvents(*shop, 2), QStringLiteral("FAILED"), QStringLiteral("no broker"));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("fleet.ini"));
        QVERIFY(writeFile(
            path, "[fleet]\ninterval = 10s\n[member edge]\nurl = " + withoutPassword(edge->url()) +
                      "\ntags = team=edge\n[member shop]\nurl = " + withoutPassword(shop->url()) + "\n"));
        const QString bad = dir.filePath(QStringLiteral("bad.ini"));
        QVERIFY(writeFile(bad, "[member edge]\nurl = sqlite:///x.db\ncolour = red\n"));

        for (const bool fromEnvironment : {false, true}) {
            const ConsoleCommandLine commandLine;
            QCommandLineParser parser;
            parser.addOptions(commandLine.options());
            QVERIFY(parser.parse(fromEnvironment ? QStringList{QStringLiteral("outbox-console")}
                                                 : QStringList{QStringLiteral("outbox-console"),
                                                               QStringLiteral("--fleet"), path}));
            QMap<QString, QString> environment;
            if (fromEnvironment)
                environment.insert(QStringLiteral("OUTBOX_FLEET"), path);
            auto configuration = commandLine.configuration(parser, environment);
            QVERIFY2(configuration.ok(), qPrintable(configuration.message()));
            MainWindow window;
            window.setConfiguration(*configuration);
            window.show();
            auto opened = openConfiguredFleet(window, *configuration);
            QVERIFY2(opened.ok(), qPrintable(opened.message()));
            QVERIFY(*opened);
            QVERIFY(window.fleetPage());
            QCOMPARE(window.pages()->currentWidget(), window.fleetPage());
            QCOMPARE(window.fleetPage()->fleet().file(), path);
            auto* table = child<QTableView>(&window, "fleetTable");
            QTRY_VERIFY_WITH_TIMEOUT(sickShopThenEdge(shownMembers(table)), 10000);
        }

        // Without a fleet: nothing opened (main shows the connection dialog instead).
        {
            const ConsoleCommandLine commandLine;
            QCommandLineParser parser;
            parser.addOptions(commandLine.options());
            QVERIFY(parser.parse({QStringLiteral("outbox-console")}));
            auto configuration = commandLine.configuration(parser, {});
            QVERIFY(configuration.ok());
            MainWindow window;
            auto opened = openConfiguredFleet(window, *configuration);
            QVERIFY(opened.ok());
            QVERIFY(!*opened);
            QVERIFY(!window.fleetPage());
        }

        // A bad fleet file: one error naming the member and the line; no page.
        {
            const ConsoleCommandLine commandLine;
            QCommandLineParser parser;
            parser.addOptions(commandLine.options());
            QVERIFY(parser.parse({QStringLiteral("outbox-console"), QStringLiteral("--fleet"), bad}));
            auto configuration = commandLine.configuration(parser, {});
            QVERIFY(configuration.ok());
            MainWindow window;
            auto opened = openConfiguredFleet(window, *configuration);
            QVERIFY(!opened.ok());
            QVERIFY2(opened.message().contains(QStringLiteral("edge")) &&
                         opened.message().contains(QStringLiteral("colour")),
                     qPrintable(opened.message()));
            QVERIFY(!window.fleetPage());
        }
    }
};

QTEST_MAIN(TestFleetPage)
#include "tst_fleetpage.moc"
