#include "tests/support/ConsoleClicks.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/WidgetFinder.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/consumers/ConsumersPage.h"
#include "ui/desktop/widgets/RecordTableModel.h"

#include <QElapsedTimer>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace outbox;
using namespace outbox::desktop;
using namespace outbox::test;

// Issue 40 item 9: the Consumers page on 1.1M inbox rows (PostgreSQL) shows the count of unconsumed
// events about as fast as the database can read the two tables once. In the trial the count took
// 107 s: it walked the SENT events in chunks and asked the inbox about each chunk (10.8 s from the
// command line on these rows, quiet machine), where one anti-join takes 1.2-1.6 s
// (docs/benchmarks.md). The limit is relative, read on the same server in the same run: the two
// cheapest full reads of the rows the count needs (COUNT(*) of the SENT events, of the consumer's
// inbox rows), so that a busy machine slows both sides alike.
class TestConsumersScale : public QObject
{
    Q_OBJECT

private:
    static constexpr qint64 Rows = 1100000;

    static qint64 millisToCount(Database& db, const QString& table, const QString& where)
    {
        QElapsedTimer clock;
        clock.start();
        (void)countRows(db, table, where);
        return clock.elapsed();
    }

private slots:
    void unconsumedCountOnAMillionInboxRows()
    {
        if (!TestDatabases::available(QStringLiteral("postgresql")))
            QSKIP("no PostgreSQL test server (CTest starts one)");
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"), QStringLiteral("bigInbox"));
        // The rows of tests/bench/consumers_unconsumed.sh: every 1,000th SENT event has no inbox row.
        exec(*db, QStringLiteral("INSERT INTO {events} (event_id, event_type, aggregate_type, aggregate_id, "
                                 "topic, payload, status, created_at, sent_at, available_at) "
                                 "SELECT 'ev-' || g, 'OrderPlaced', 'Order', 'o-' || (g % 50000), 'orders', "
                                 "'{}', 'SENT', now() - interval '1 hour', now() - interval '1 hour', "
                                 "now() - interval '1 hour' FROM generate_series(1, %1) g")
                      .arg(Rows));
        exec(*db, QStringLiteral("INSERT INTO {inbox} (event_id, consumer_name, status, processed_at) "
                                 "SELECT 'ev-' || g, 'inventory', 'PROCESSED', now() - interval '50 minutes' "
                                 "FROM generate_series(1, %1) g WHERE g % 1000 <> 0")
                      .arg(Rows));
        exec(*db, QStringLiteral("VACUUM ANALYZE {events}"));
        exec(*db, QStringLiteral("VACUUM ANALYZE {inbox}"));

        // The reference: each table read once, the best of two.
        qint64 reference = std::numeric_limits<qint64>::max();
        for (int i = 0; i < 2; ++i)
            reference = std::min(
                reference, millisToCount(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")) +
                               millisToCount(*db, QStringLiteral("{inbox}"),
                                             QStringLiteral("consumer_name = 'inventory'")));

        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 20000);
        ConsumersPage* page = window.consumers();
        QSignalSpy complete(page, &ConsumersPage::overviewLoaded);
        QElapsedTimer clock;
        qint64 figuresAt = -1;
        connect(page, &ConsumersPage::figuresLoaded, this, [&]() { figuresAt = clock.elapsed(); });
        clock.start();
        QVERIFY(clickTab(window, page));
        QTRY_VERIFY_WITH_TIMEOUT(complete.count() > 0, 120000);
        QVERIFY(figuresAt >= 0);
        // The count runs after the fast figures are on screen (counts and rates by consumer).
        const qint64 took = clock.elapsed() - figuresAt;

        // What the operator reads in the table: 1,100 unconsumed of 1,098,900 processed.
        RecordTableModel* model = page->consumersModel();
        QCOMPARE(model->rowCount(), 1);
        QCOMPARE(model->record(0).value(QStringLiteral("processed")).toInteger(), Rows - Rows / 1000);
        QCOMPARE(model->record(0).value(QStringLiteral("unconsumed")).toInteger(), Rows / 1000);
        auto* table = child<QTableView>(&window, "consumersTable");
        bool shown = false;
        for (int c = 0; c < model->columnCount(); ++c)
            shown = shown || model->index(0, c).data().toString().remove(QLatin1Char(',')) ==
                                 QString::number(Rows / 1000);
        QVERIFY2(shown && table->isVisible(), "the count is in the table");

        const qint64 limit = 5 * reference + 1000;
        qInfo("Consumers page: figures after %lld ms, then the unconsumed count in %lld ms; the rows read "
              "once: %lld ms; limit %lld ms",
              figuresAt, took, reference, limit);
        QVERIFY2(took <= limit, qPrintable(QStringLiteral("%1 ms > %2 ms").arg(took).arg(limit)));
    }
};

QTEST_MAIN(TestConsumersScale)
#include "tst_consumersscale.moc"
