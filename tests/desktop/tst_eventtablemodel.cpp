#include "tests/support/BulkEvents.h"
#include "tests/support/TestDatabases.h"
#include "ui/desktop/connection/DatabaseSession.h"
#include "ui/desktop/events/EventTableModel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QHeaderView>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace outbox;
using namespace outbox::desktop;
using namespace outbox::test;

class TestEventTableModel : public QObject
{
    Q_OBJECT

private:
    static void waitIdle(EventTableModel& model) { QTRY_VERIFY_WITH_TIMEOUT(!model.isFetching(), 20000); }
    // Fetches until the end (the model tester may already have started a fetch itself).
    static void fetchAll(EventTableModel& model)
    {
        for (int i = 0; i < 10000 && !model.atEnd(); ++i) {
            if (model.canFetchMore({}))
                model.fetchMore({});
            waitIdle(model);
        }
        QVERIFY(model.atEnd());
    }

private slots:
    void passesTheModelTester_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("sqlite") << QStringLiteral("sqlite");
        QTest::newRow("postgresql") << QStringLiteral("postgresql");
    }
    void passesTheModelTester()
    {
        QFETCH(QString, kind);
        if (!TestDatabases::available(kind))
            QSKIP("server not configured");
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("model")));
        insertGeneratedEvents(*db, 1050, 7);
        DatabaseSession session(DatabaseTarget(db->url(), QString()), QStringLiteral("model"));
        EventTableModel model(&session);
        model.setPageSize(100);
        model.setMaxLoadedPages(3);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setQuery(EventFilter{}, false);
        fetchAll(model);
        QCOMPARE(model.rowCount(), 1050);
        QVERIFY(model.loadedRowCount() <= 3 * 100);
        // Newest first: the last row is the smallest id. Row 0's page may have been dropped (the
        // tester keeps reading row 0, so it may also be back); asking for it reads it again.
        QVERIFY(model.eventAt(1049).has_value());
        QCOMPARE(model.eventAt(1049)->eventId, QStringLiteral("gen-1"));
        (void)model.data(model.index(0, 0));
        QTRY_VERIFY_WITH_TIMEOUT(model.eventAt(0).has_value(), 10000);
        QVERIFY(model.eventAt(0)->id > model.eventAt(1)->id);
        QVERIFY(model.loadedRowCount() <= 3 * 100);

        // Filter: only FAILED rows (every 7th), ascending.
        EventFilter failed;
        failed.statuses = QStringList{QStringLiteral("FAILED")};
        model.setQuery(failed, true);
        fetchAll(model);
        QCOMPARE(model.rowCount(), 1050 / 7);
        QTRY_VERIFY_WITH_TIMEOUT(model.eventAt(0).has_value(), 10000);
        QCOMPARE(model.eventAt(0)->status, QStringLiteral("FAILED"));
        QTRY_VERIFY_WITH_TIMEOUT(model.eventAt(1).has_value(), 10000);
        QVERIFY(model.eventAt(0)->id < model.eventAt(1)->id);

        // Sorting by id through the header flips the keyset order.
        model.sort(EventTableModel::IdColumn, Qt::DescendingOrder);
        QVERIFY(!model.ascending());
        fetchAll(model);
        QVERIFY(model.eventAt(0)->id > model.eventAt(1)->id);
    }

    // Scrolling a view to the end of a 1,000,000-row table: every row becomes reachable while the
    // rows held in memory never exceed maxLoadedPages × pageSize.
    void scrollingAMillionRowsKeepsMemoryBounded_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("sqlite") << QStringLiteral("sqlite");
        QTest::newRow("postgresql") << QStringLiteral("postgresql");
    }
    void scrollingAMillionRowsKeepsMemoryBounded()
    {
        QFETCH(QString, kind);
        if (!TestDatabases::available(kind))
            QSKIP("server not configured");
        constexpr int Rows = 1000000;
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("million")));
        insertGeneratedEvents(*db, Rows);
        DatabaseSession session(DatabaseTarget(db->url(), QString()), QStringLiteral("scroll"));
        EventTableModel model(&session);
        model.setPageSize(2000);
        model.setMaxLoadedPages(6);
        const int bound = 6 * 2000;
        QTableView view;
        view.resize(900, 600);
        view.setModel(&model);
        view.show();
        model.setQuery(EventFilter{}, true);
        model.fetchMore({});
        int maxHeld = 0;
        int rounds = 0;
        while (!model.atEnd()) {
            waitIdle(model);
            view.scrollToBottom(); // the view asks for more when its scroll bar reaches the end
            QCoreApplication::processEvents();
            maxHeld = std::max(maxHeld, model.loadedRowCount());
            QVERIFY2(model.loadedRowCount() <= bound, qPrintable(QString::number(model.loadedRowCount())));
            QVERIFY(++rounds < 5000);
        }
        waitIdle(model);
        QCOMPARE(model.rowCount(), Rows);
        QVERIFY(model.loadedRowCount() <= bound);
        // The rows in view at the end are there and are the last ids.
        const int lastVisible = view.rowAt(view.viewport()->height() - 2);
        QVERIFY(lastVisible > Rows - 100);
        QTRY_VERIFY_WITH_TIMEOUT(model.eventAt(Rows - 1).has_value(), 10000);
        QCOMPARE(model.eventAt(Rows - 1)->eventId, QStringLiteral("gen-%1").arg(Rows));
        // Jumping back to the top reloads the first page; memory stays bounded.
        view.scrollToTop();
        QTRY_VERIFY_WITH_TIMEOUT(model.eventAt(0).has_value(), 10000);
        QCOMPARE(model.eventAt(0)->eventId, QStringLiteral("gen-1"));
        QVERIFY(model.loadedRowCount() <= bound);
        qInfo("rows %d, at most %d held in memory (bound %d), %d scroll rounds", model.rowCount(), maxHeld,
              bound, rounds);
    }
};

QTEST_MAIN(TestEventTableModel)
#include "tst_eventtablemodel.moc"
