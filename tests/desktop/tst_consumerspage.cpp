// The Consumers page driven like an operator drives it: real widgets, QTest clicks and keys, a
// real database and the embedded broker. Per-consumer table, rate chart, lag per partition after
// typing a bootstrap, and the inbox browser's filters and keyset pages.
#include "core/broker/kafka/EmbeddedBroker.h"
#include "core/db/DeadLetterStore.h"
#include "core/db/InboxStore.h"
#include "tests/support/ConsumerGroupKit.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/WidgetFinder.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/consumers/ConsumersPage.h"
#include "ui/desktop/widgets/RecordTableModel.h"

#include <QChart>
#include <QComboBox>
#include <QLineEdit>
#include <QLineSeries>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace outbox;
using namespace outbox::desktop;
using namespace outbox::test;

namespace {

int rowOf(RecordTableModel* model, const QString& key, const QString& value)
{
    for (int i = 0; i < model->rowCount(); ++i)
        if (model->record(i).value(key).toVariant().toString() == value)
            return i;
    return -1;
}

QString cell(RecordTableModel* model, int row, const QString& key)
{
    for (int c = 0; c < model->columnCount(); ++c)
        if (model->columns().at(c).key == key)
            return model->cellText(row, c);
    return QStringLiteral("<no column %1>").arg(key);
}

void replaceText(QLineEdit* edit, const QString& text)
{
    edit->setFocus();
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClick(edit, Qt::Key_Delete);
    QTest::keyClicks(edit, text);
}

} // namespace

class TestConsumersPage : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("OutboxConsoleTest"));
        QStandardPaths::setTestModeEnabled(true);
    }

    void consumersLagAndInboxBrowser()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("cpage")));
        InboxStore inbox(*db);
        for (int i = 0; i < 3; ++i)
            QVERIFY(
                inbox
                    .recordProcessed(QStringLiteral("e-%1").arg(i), QStringLiteral("inventory"), QString(), 1)
                    .value());
        QVERIFY(inbox
                    .recordFailed(QStringLiteral("e-9"), QStringLiteral("inventory"), QString(), 4,
                                  QStringLiteral("out of stock"))
                    .ok());
        for (int i = 0; i < 130; ++i) // more than one inbox page
            QVERIFY(
                inbox.recordProcessed(QStringLiteral("b-%1").arg(i), QStringLiteral("billing"), QString(), 1)
                    .value());
        QVERIFY(inbox.countDuplicate(QStringLiteral("inventory")).ok());
        DeadLetter letter;
        letter.consumerName = QStringLiteral("inventory");
        letter.eventId = QStringLiteral("e-9");
        letter.topic = QStringLiteral("order");
        letter.headers = R"({"schema_version":"1"})";
        letter.payload = "{}";
        letter.error = QStringLiteral("out of stock");
        QVERIFY(DeadLetterStore(*db).insert(letter).ok());

        auto broker = EmbeddedBroker::start(1);
        QVERIFY(broker.ok());
        QVERIFY((*broker)->createTopic(QStringLiteral("order"), 2).ok());
        QVERIFY(produceToPartitions((*broker)->bootstrap(), QStringLiteral("order"), {{0, 6}, {1, 1}}));
        QVERIFY(commitGroupOffsets((*broker)->bootstrap(), QStringLiteral("inventory"),
                                   QStringLiteral("order"), {{0, 1}, {1, 1}}));

        MainWindow window;
        window.resize(1400, 1000);
        window.show();
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        ConsumersPage* page = window.consumers();
        QTabBar* tabs = window.pages()->tabBar();
        const int tab = window.pages()->indexOf(page);
        QVERIFY(tab >= 0);
        QCOMPARE(window.pages()->tabText(tab), QStringLiteral("Consumers"));
        QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(tab).center());
        QCOMPARE(window.pages()->currentWidget(), page);

        // The per-consumer table, read on a session thread when the page is shown.
        RecordTableModel* consumers = page->consumersModel();
        QTRY_COMPARE_WITH_TIMEOUT(consumers->rowCount(), 2, 20000);
        const int inventory = rowOf(consumers, QStringLiteral("consumer"), QStringLiteral("inventory"));
        QVERIFY(inventory >= 0);
        QCOMPARE(cell(consumers, inventory, QStringLiteral("processed")), QStringLiteral("3"));
        QCOMPARE(cell(consumers, inventory, QStringLiteral("failed")), QStringLiteral("1"));
        QCOMPARE(cell(consumers, inventory, QStringLiteral("duplicates")), QStringLiteral("1"));
        QCOMPARE(cell(consumers, inventory, QStringLiteral("dead_letters_new")), QStringLiteral("1"));
        const int billing = rowOf(consumers, QStringLiteral("consumer"), QStringLiteral("billing"));
        QCOMPARE(cell(consumers, billing, QStringLiteral("processed")), QStringLiteral("130"));

        // The rate chart: one line per consumer; billing's 130 rows all fall into the last hour.
        QCOMPARE(page->rateChart()->series().size(), 2);
        for (QAbstractSeries* s : page->rateChart()->series()) {
            auto* line = qobject_cast<QLineSeries*>(s);
            QVERIFY(line);
            double sum = 0;
            for (const QPointF& p : line->points())
                sum += p.y();
            QVERIFY2(sum > 0, qPrintable(line->name()));
        }

        // Lag per partition once a bootstrap is typed and Refresh clicked.
        auto* lagTable = child<QTableView>(page, "consumerLagTable");
        replaceText(child<QLineEdit>(page, "consumersBootstrap"), (*broker)->bootstrap());
        QTest::mouseClick(child<QPushButton>(page, "consumersRefresh"), Qt::LeftButton);
        RecordTableModel* lag = page->lagModel();
        QTRY_COMPARE_WITH_TIMEOUT(lag->rowCount(), 2, 20000);
        QVERIFY(lagTable->isVisible());
        QCOMPARE(cell(lag, 0, QStringLiteral("partition")), QStringLiteral("0"));
        QCOMPARE(cell(lag, 0, QStringLiteral("lag")), QStringLiteral("5"));
        QCOMPARE(cell(lag, 1, QStringLiteral("lag")), QStringLiteral("0"));
        QCOMPARE(cell(consumers, rowOf(consumers, QStringLiteral("consumer"), QStringLiteral("inventory")),
                      QStringLiteral("total_lag")),
                 QStringLiteral("5"));

        // The inbox browser: the first keyset page, Load more, then exact filters.
        RecordTableModel* rows = page->inboxModel();
        auto* more = child<QPushButton>(page, "inboxMore");
        QTRY_COMPARE_WITH_TIMEOUT(rows->rowCount(), ConsumersPage::InboxPageSize, 20000);
        QVERIFY(more->isEnabled());
        QTest::mouseClick(more, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(rows->rowCount(), 134, 20000);
        QTRY_VERIFY(!more->isEnabled());
        QCOMPARE(rows->records().size(), 134);

        replaceText(child<QLineEdit>(page, "inboxConsumer"), QStringLiteral("inventory"));
        auto* status = child<QComboBox>(page, "inboxStatus");
        status->setFocus();
        QTest::keyClick(status, Qt::Key_Down); // PROCESSED
        QTest::keyClick(status, Qt::Key_Down); // FAILED
        QCOMPARE(status->currentData().toString(), QStringLiteral("FAILED"));
        QTest::mouseClick(child<QPushButton>(page, "inboxApply"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(rows->rowCount(), 1, 20000);
        QCOMPARE(cell(rows, 0, QStringLiteral("event_id")), QStringLiteral("e-9"));
        QCOMPARE(cell(rows, 0, QStringLiteral("last_error")), QStringLiteral("out of stock"));

        QTest::keyClick(status, Qt::Key_Up);
        QTest::keyClick(status, Qt::Key_Up); // any status
        replaceText(child<QLineEdit>(page, "inboxEventId"), QStringLiteral("e-1"));
        QTest::keyClick(child<QLineEdit>(page, "inboxEventId"), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(rows->rowCount(), 1, 20000);
        QCOMPARE(cell(rows, 0, QStringLiteral("event_id")), QStringLiteral("e-1")); // not e-10…

        replaceText(child<QLineEdit>(page, "inboxEventId"), QStringLiteral("x' OR '1'='1"));
        QTest::mouseClick(child<QPushButton>(page, "inboxApply"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(rows->rowCount(), 0, 20000);
        QCOMPARE(countRows(*db, QStringLiteral("{inbox}")), qint64(134));

        // A double click on a consumer opens its inbox.
        replaceText(child<QLineEdit>(page, "inboxEventId"), QString());
        auto* consumerTable = child<QTableView>(page, "consumersTable");
        const QRect r = consumerTable->visualRect(
            consumers->index(rowOf(consumers, QStringLiteral("consumer"), QStringLiteral("billing")), 0));
        QVERIFY2(consumerTable->viewport()->rect().contains(r.center()), "the billing row is not on screen");
        // A real double click: press, release, then the second press that Qt reports as a double click.
        QTest::mouseClick(consumerTable->viewport(), Qt::LeftButton, {}, r.center());
        QTest::mouseDClick(consumerTable->viewport(), Qt::LeftButton, {}, r.center());
        QCOMPARE(child<QLineEdit>(page, "inboxConsumer")->text(), QStringLiteral("billing"));
        QTRY_COMPARE_WITH_TIMEOUT(rows->rowCount(), ConsumersPage::InboxPageSize, 20000);
        for (const QJsonObject& o : rows->records())
            QCOMPARE(o.value(QStringLiteral("consumer")).toString(), QStringLiteral("billing"));
    }
};

QTEST_MAIN(TestConsumersPage)
#include "tst_consumerspage.moc"
