// The console's "Find" bar and the inspector's Trail tab, driven by QTest keys and clicks on the real
// widgets against a real database: a header search and a payload search each leave exactly the
// matching event, an odd key is refused with a message (the table is not replaced), and the Trail
// tab shows the selected event's life in time order. The trace id field finds the events of one W3C
// trace (a trace id or a whole traceparent typed in) and refuses what is not a trace id.
#include "core/db/DeadLetterStore.h"
#include "core/db/EventStore.h"
#include "core/db/InboxStore.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/WidgetFinder.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/events/EventTableModel.h"
#include "ui/desktop/events/EventsPage.h"
#include "ui/desktop/widgets/EventInspector.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using namespace outbox;
using namespace outbox::desktop;
using namespace outbox::test;

class TestEventSearchPage : public QObject
{
    Q_OBJECT

private:
    static void settle(EventsPage* page, int rows)
    {
        QTRY_VERIFY_WITH_TIMEOUT(page->model()->rowCount() == rows && page->model()->atEnd() &&
                                     !page->model()->isFetching(),
                                 10000);
    }

    static void typeAndEnter(QLineEdit* edit, const QString& text)
    {
        edit->setFocus();
        edit->selectAll();
        QTest::keyClick(edit, Qt::Key_Delete);
        QTest::keyClicks(edit, text);
        QTest::keyClick(edit, Qt::Key_Return);
    }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("OutboxConsoleTest"));
        QStandardPaths::setTestModeEnabled(true);
    }

    void findBarAndTrail()
    {
        auto db =
            TestDatabases::fresh(QStringLiteral("sqlite"), TestDatabases::uniqueName(QStringLiteral("find")));
        QVector<NewEvent> events;
        for (int i = 0; i < 4; ++i) {
            NewEvent e;
            e.eventId = QStringLiteral("evt-%1").arg(i);
            e.eventType = QStringLiteral("OrderCreated");
            e.aggregateType = QStringLiteral("Order");
            e.aggregateId = QStringLiteral("O-1");
            e.payload = QStringLiteral(R"({"customer":{"id":"C-%1"}})").arg(40 + i).toUtf8();
            e.headers = QJsonObject{{QStringLiteral("trace_id"), QStringLiteral("T-%1").arg(i)}};
            events << e;
        }
        QVERIFY(db->beginWrite().ok());
        QVERIFY(EventWriter(*db).appendBatch(events).ok());
        QVERIFY(db->commit().ok());
        // evt-2 was sent, consumed by inventory and dead-lettered by billing.
        EventStore store(*db);
        auto batch = store.claim(QStringLiteral("relay-a"), 10, 60000);
        QVERIFY(batch.ok());
        QVector<SentMark> marks;
        QVector<qint64> back;
        qint64 sentId = 0;
        for (const OutboxEvent& e : batch->events) {
            if (e.eventId == QLatin1String("evt-2")) {
                marks << SentMark(e.id, 3, 77, QStringLiteral("orders"));
                sentId = e.id;
            } else {
                back << e.id;
            }
        }
        QVERIFY(store.markSent(batch->leaseToken, marks).ok());
        QVERIFY(store.release(batch->leaseToken, back).ok());
        QTest::qWait(20); // distinct timestamps on SQLite's millisecond clock
        QVERIFY(db->beginWrite().ok());
        QVERIFY(InboxStore(*db)
                    .recordProcessed(QStringLiteral("evt-2"), QStringLiteral("inventory"),
                                     QStringLiteral("O-1"), 1)
                    .ok());
        QVERIFY(db->commit().ok());
        QTest::qWait(20);
        DeadLetter letter;
        letter.consumerName = QStringLiteral("billing");
        letter.topic = QStringLiteral("orders");
        letter.eventId = QStringLiteral("evt-2");
        letter.payload = QByteArrayLiteral("{}");
        letter.headers = QByteArrayLiteral("{}");
        letter.error = QStringLiteral("card declined");
        QVERIFY(DeadLetterStore(*db).insert(letter).ok());

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model() != nullptr, 10000);
        EventsPage* page = window.events();
        window.pages()->setCurrentWidget(page);
        settle(page, 4);

        // Header search: exactly the event with that trace id.
        typeAndEnter(child<QLineEdit>(page, "filterHeader"), QStringLiteral("trace_id=T-1"));
        settle(page, 1);
        QCOMPARE(page->model()->eventAt(0)->eventId, QStringLiteral("evt-1"));

        // Payload search replaces it (header cleared): exactly evt-2.
        typeAndEnter(child<QLineEdit>(page, "filterHeader"), QString());
        typeAndEnter(child<QLineEdit>(page, "filterPayload"), QStringLiteral("customer.id=C-42"));
        settle(page, 1);
        QCOMPARE(page->model()->eventAt(0)->eventId, QStringLiteral("evt-2"));

        // A key with odd characters: a message, and the table keeps what it showed.
        typeAndEnter(child<QLineEdit>(page, "filterHeader"), QStringLiteral("trace id'=x"));
        QTRY_VERIFY(child<QLabel>(page, "eventsInfo")->text().contains(QStringLiteral("invalid header key")));
        QCOMPARE(page->model()->rowCount(), 1);
        typeAndEnter(child<QLineEdit>(page, "filterHeader"), QString());
        settle(page, 1);

        // Partition and offset, by the Apply button.
        typeAndEnter(child<QLineEdit>(page, "filterPayload"), QString());
        settle(page, 4);
        QTest::keyClicks(child<QLineEdit>(page, "filterPartition"), QStringLiteral("3"));
        QTest::keyClicks(child<QLineEdit>(page, "filterOffset"), QStringLiteral("77"));
        QTest::mouseClick(child<QPushButton>(page, "applyFilter"), Qt::LeftButton);
        settle(page, 1);
        QCOMPARE(page->model()->eventAt(0)->id, sentId);

        // Select it and open the Trail tab.
        QTableView* table = page->table();
        const QRect cell = table->visualRect(page->model()->index(0, 1));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        EventInspector* inspector = page->inspector();
        QTRY_COMPARE_WITH_TIMEOUT(inspector->eventId(), sentId, 10000);
        auto* tabs = child<QTabWidget>(inspector, "inspectorTabs");
        const int trailTab = [&]() {
            for (int i = 0; i < tabs->count(); ++i)
                if (tabs->tabText(i) == QLatin1String("Trail"))
                    return i;
            return -1;
        }();
        QVERIFY(trailTab >= 0);
        QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {}, tabs->tabBar()->tabRect(trailTab).center());
        QCOMPARE(tabs->currentIndex(), trailTab);
        QTableWidget* trail = inspector->trailTable();
        QVERIFY(trail->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(trail->rowCount() >= 5, 10000);
        QStringList kinds;
        for (int r = 0; r < trail->rowCount(); ++r)
            kinds << trail->item(r, 1)->data(Qt::UserRole).toString();
        QCOMPARE(kinds,
                 (QStringList{QStringLiteral("created"), QStringLiteral("attempts"), QStringLiteral("sent"),
                              QStringLiteral("inbox"), QStringLiteral("dead_letter")}));
        QVERIFY(trail->item(2, 2)->text().contains(QStringLiteral("orders partition 3 offset 77")));
        QVERIFY(trail->item(3, 2)->text().contains(QStringLiteral("inventory")));
        QVERIFY(trail->item(4, 2)->text().contains(QStringLiteral("card declined")));
    }

    void traceIdField()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("trace")));
        const QString traceA = QStringLiteral("4bf92f3577b34da6a3ce929d0e0e4736");
        const QStringList traceparents = {
            QStringLiteral("00-%1-00f067aa0ba902b7-01").arg(traceA),
            QStringLiteral("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"), QString(),
            QStringLiteral("00-%1-53995c3f42cd8ad8-01").arg(traceA)};
        QVector<NewEvent> events;
        for (int i = 0; i < traceparents.size(); ++i) {
            NewEvent e;
            e.eventId = QStringLiteral("evt-%1").arg(i);
            e.eventType = QStringLiteral("OrderCreated");
            e.aggregateType = QStringLiteral("Order");
            e.aggregateId = QStringLiteral("O-%1").arg(i);
            e.payload = QByteArrayLiteral("{}");
            if (!traceparents.at(i).isEmpty())
                e.headers = QJsonObject{{QStringLiteral("traceparent"), traceparents.at(i)}};
            events << e;
        }
        QVERIFY(db->beginWrite().ok());
        QVERIFY(EventWriter(*db).appendBatch(events).ok());
        QVERIFY(db->commit().ok());

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model() != nullptr, 10000);
        EventsPage* page = window.events();
        window.pages()->setCurrentWidget(page);
        settle(page, 4);
        auto* field = child<QLineEdit>(page, "filterTraceId");
        QVERIFY(field->isVisible());

        const auto shownIds = [page]() {
            QStringList ids;
            for (int r = 0; r < page->model()->rowCount(); ++r)
                ids << page->model()->eventAt(r)->eventId;
            ids.sort();
            return ids;
        };
        typeAndEnter(field, traceA);
        settle(page, 2);
        QCOMPARE(shownIds(), (QStringList{QStringLiteral("evt-0"), QStringLiteral("evt-3")}));

        // Not a trace id (upper case): one message, the table keeps what it showed.
        typeAndEnter(field, traceA.toUpper());
        QTRY_VERIFY(child<QLabel>(page, "eventsInfo")->text().contains(QStringLiteral("invalid trace id")));
        QCOMPARE(page->model()->rowCount(), 2);

        // A whole traceparent pasted from a log finds the same trace; clearing shows every event.
        typeAndEnter(field, traceparents.at(1));
        settle(page, 1);
        QCOMPARE(shownIds(), QStringList{QStringLiteral("evt-1")});
        typeAndEnter(field, QString());
        settle(page, 4);
    }
};

QTEST_MAIN(TestEventSearchPage)
#include "tst_eventsearchpage.moc"
