// The desktop console's Fleet page (issue 27), driven like an operator drives it: real widgets
// offscreen, QTest clicks and keys on the real table, filter and requeue dialog, real databases
// (a PostgreSQL member on the fixture server and a SQLite member), core's FleetSampler behind it.
#include "core/fleet/Fleet.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/WidgetFinder.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/events/EventTableModel.h"
#include "ui/desktop/events/EventsPage.h"
#include "ui/desktop/fleet/FleetPage.h"
#include "ui/desktop/fleet/FleetTableModel.h"
#include "ui/desktop/overview/OverviewPage.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

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
        QVERIFY(!child<QPushButton>(dialog, "actionRun")->isEnabled());
        QTest::keyClicks(confirm, confirm->placeholderText());
        QVERIFY(child<QPushButton>(dialog, "actionRun")->isEnabled());
        QTest::mouseClick(child<QPushButton>(dialog, "actionRun"), Qt::LeftButton);
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
};

QTEST_MAIN(TestFleetPage)
#include "tst_fleetpage.moc"
