#include "core/db/DeadLetterStore.h"
#include "core/support/Failpoints.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/WidgetFinder.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/deadletters/DeadLettersPage.h"
#include "ui/desktop/events/EventTableModel.h"
#include "ui/desktop/events/EventsPage.h"
#include "ui/desktop/widgets/RecordTableModel.h"

#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using namespace outbox;
using namespace outbox::desktop;
using namespace outbox::test;

// The action dialogs as an operator meets them, driven by QTest on the real widgets against real
// databases: the dialog opens at once and busy, focus is in Reason, the sample is a table, a
// sentence says what happens, replay takes a target topic, and the result links to its audit rows.
class TestActionDialogs : public QObject
{
    Q_OBJECT

private:
    static QStringList headers(QTableWidget* table)
    {
        QStringList h;
        for (int c = 0; c < table->columnCount(); ++c)
            h << table->horizontalHeaderItem(c)->text();
        return h;
    }

    // Types into whatever has the keyboard focus in `dialog`, as an operator's keystrokes would.
    static QWidget* focused(QDialog* dialog)
    {
        QWidget* w = QApplication::focusWidget();
        return w && dialog->isAncestorOf(w) ? w : dialog->focusWidget();
    }

    static qint64 scalar(Database& db, const QString& sql)
    {
        auto q = db.exec(sql);
        if (!q || !q->next())
            return -1;
        return q->value(0).toLongLong();
    }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("OutboxConsoleTest"));
        QStandardPaths::setTestModeEnabled(true);
    }
    void cleanup() { QVERIFY(Failpoints::configure(QString()).ok()); }

    void requeueAndReplayDialogs_data() { TestDatabases::addKinds(); }
    void requeueAndReplayDialogs()
    {
        QFETCH(QString, kind);
        if (!TestDatabases::available(kind))
            QSKIP("server not configured");
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("dialogs")));
        const auto ids = insertEvents(*db, 6);
        forceStatus(*db, ids.mid(0, 3), QStringLiteral("FAILED"), QStringLiteral("schema check failed"));
        DeadLetter letter;
        letter.consumerName = QStringLiteral("inventory");
        letter.topic = QStringLiteral("order");
        letter.eventId = QStringLiteral("ev-poison");
        letter.payload = QByteArray(20000, 'x'); // oversized: must not fill the dialog
        letter.headers = QByteArrayLiteral("{}");
        letter.error = QStringLiteral("cannot reserve stock");
        auto letterId = DeadLetterStore(*db).insert(letter);
        QVERIFY(letterId.ok());

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        // The connection is checked before the console switches to it: wait for the events page.
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model() != nullptr, 10000);
        window.pages()->setCurrentWidget(window.events());
        QTRY_COMPARE_WITH_TIMEOUT(window.events()->model()->rowCount(), 6, 10000);
        auto* status = child<QComboBox>(&window, "filterStatus");
        status->setCurrentIndex(status->findData(QStringLiteral("FAILED")));
        QTest::mouseClick(child<QPushButton>(&window, "applyFilter"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model()->rowCount() == 3 &&
                                     window.events()->model()->atEnd() &&
                                     !window.events()->model()->isFetching(),
                                 10000);
        child<QComboBox>(&window, "actionScope")->setCurrentIndex(1);

        // The preview is slow (a loaded database): the dialog is there at once, busy.
        QVERIFY(Failpoints::configure(QStringLiteral("console.action.preview=1*sleep(1500)")).ok());
        QTest::mouseClick(child<QPushButton>(&window, "requeueButton"), Qt::LeftButton);
        QDialog* dialog = nullptr;
        QVERIFY(QTest::qWaitFor(
            [&]() {
                dialog = window.findChild<QDialog*>(QStringLiteral("actionDialog"));
                return dialog && dialog->isVisible();
            },
            500));
        QVERIFY(dialog->property("busy").toBool());
        QVERIFY(child<QProgressBar>(dialog, "actionBusy")->isVisible());
        QVERIFY(!child<QPushButton>(dialog, "actionRun")->isEnabled());
        auto* sample = child<QTableWidget>(dialog, "actionSampleTable");
        QCOMPARE(sample->rowCount(), 0);

        // Focus is in Reason: the operator's typing lands there, even while the preview loads.
        QWidget* target = focused(dialog);
        QVERIFY(target);
        QTest::keyClicks(target, QStringLiteral("schema fixed"));
        QCOMPARE(child<QLineEdit>(dialog, "actionReason")->text(), QStringLiteral("schema fixed"));

        // The preview arrives: a sample table, the count and what requeue does.
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->property("busy").toBool(), 10000);
        QVERIFY(!child<QProgressBar>(dialog, "actionBusy")->isVisible());
        QCOMPARE(headers(sample), (QStringList{QStringLiteral("Id"), QStringLiteral("Type"),
                                               QStringLiteral("Aggregate"), QStringLiteral("Error")}));
        QCOMPARE(sample->rowCount(), 3);
        for (int row = 0; row < 3; ++row) {
            QCOMPARE(sample->item(row, 0)->text(), QString::number(ids.at(row)));
            QCOMPARE(sample->item(row, 1)->text(), QStringLiteral("OrderCreated"));
            QVERIFY2(sample->item(row, 2)->text().startsWith(QStringLiteral("Order/order-")),
                     qPrintable(sample->item(row, 2)->text()));
            QCOMPARE(sample->item(row, 3)->text(), QStringLiteral("schema check failed"));
        }
        const QString consequence = child<QLabel>(dialog, "actionConsequence")->text();
        QVERIFY2(consequence.contains(QStringLiteral("3 event(s) go back to PENDING")),
                 qPrintable(consequence));
        QVERIFY2(consequence.contains(QStringLiteral("idempotent")), qPrintable(consequence));
        QVERIFY(child<QLabel>(dialog, "actionConsequence")->isVisible());

        // Run it (bulk: typed confirmation) and read the summary.
        auto* confirm = child<QLineEdit>(dialog, "actionConfirm");
        QCOMPARE(confirm->placeholderText(), QStringLiteral("requeue 3"));
        QTest::keyClicks(confirm, confirm->placeholderText());
        QVERIFY(child<QPushButton>(dialog, "actionRun")->isEnabled());
        QTest::mouseClick(child<QPushButton>(dialog, "actionRun"), Qt::LeftButton);
        QDialog* result = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((result = window.findChild<QDialog*>(QStringLiteral("actionResult"))) !=
                                         nullptr &&
                                     result->isVisible(),
                                 10000);
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")), qint64(6));
        const qint64 auditId = scalar(*db, QStringLiteral("SELECT MAX(id) FROM {audit} WHERE action = "
                                                          "'events.requeue' AND reason = 'schema fixed'"));
        QVERIFY(auditId > 0);
        QVERIFY2(child<QLabel>(result, "resultDone")->text().contains(QStringLiteral("3 row(s) changed")),
                 qPrintable(child<QLabel>(result, "resultDone")->text()));
        QCOMPARE(child<QLabel>(result, "resultConflicts")->text(), QStringLiteral("none"));
        QCOMPARE(child<QLabel>(result, "resultCancelled")->text(), QStringLiteral("no"));
        QVERIFY(child<QLabel>(result, "resultChunks")->text().startsWith(QStringLiteral("1 ")));
        QCOMPARE(child<QLabel>(result, "resultAuditIds")->text(), QStringLiteral("#%1").arg(auditId));

        // The link to the audit rows shows what the audit log recorded for this run.
        QTest::mouseClick(child<QPushButton>(result, "resultShowAudit"), Qt::LeftButton);
        auto* audit = child<QTableWidget>(result, "resultAuditTable");
        QTRY_VERIFY_WITH_TIMEOUT(audit->isVisible() && audit->rowCount() == 1, 10000);
        QCOMPARE(audit->item(0, 0)->text(), QString::number(auditId));
        QCOMPARE(audit->item(0, 3)->text(), QStringLiteral("events.requeue"));
        QCOMPARE(audit->item(0, 4)->text(), QStringLiteral("3"));
        QCOMPARE(audit->item(0, 6)->text(), QStringLiteral("schema fixed"));
        result->close();

        // Replay a dead letter to a chosen topic.
        window.pages()->setCurrentWidget(window.deadLetters());
        QTest::mouseClick(child<QPushButton>(&window, "dlqApply"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(window.deadLetters()->model()->rowCount(), 1, 10000);
        auto* letters = child<QTableView>(&window, "deadLettersTable");
        letters->selectionModel()->select(letters->model()->index(0, 0),
                                          QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QTest::mouseClick(child<QPushButton>(&window, "replayButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT((dialog = window.findChild<QDialog*>(QStringLiteral("actionDialog"))) !=
                                         nullptr &&
                                     dialog->isVisible() && !dialog->property("busy").toBool(),
                                 10000);
        sample = child<QTableWidget>(dialog, "actionSampleTable");
        QCOMPARE(headers(sample), (QStringList{QStringLiteral("Id"), QStringLiteral("Consumer"),
                                               QStringLiteral("Event id"), QStringLiteral("Error")}));
        QCOMPARE(sample->rowCount(), 1);
        QCOMPARE(sample->item(0, 0)->text(), QString::number(*letterId));
        QCOMPARE(sample->item(0, 1)->text(), QStringLiteral("inventory"));
        QCOMPARE(sample->item(0, 2)->text(), QStringLiteral("ev-poison"));
        QCOMPARE(sample->item(0, 3)->text(), QStringLiteral("cannot reserve stock"));
        auto* consequenceLabel = child<QLabel>(dialog, "actionConsequence");
        QVERIFY2(consequenceLabel->text().contains(QStringLiteral("original topic")),
                 qPrintable(consequenceLabel->text()));
        target = focused(dialog);
        QVERIFY(target);
        QTest::keyClicks(target, QStringLiteral("stock service fixed"));
        QCOMPARE(child<QLineEdit>(dialog, "actionReason")->text(), QStringLiteral("stock service fixed"));
        QTest::keyClicks(child<QLineEdit>(dialog, "actionReplayTopic"), QStringLiteral("orders.retry"));
        QVERIFY2(consequenceLabel->text().contains(QStringLiteral("\"orders.retry\"")),
                 qPrintable(consequenceLabel->text()));
        QVERIFY(child<QPushButton>(dialog, "actionRun")->isEnabled());
        QTest::mouseClick(child<QPushButton>(dialog, "actionRun"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{dead_letters}"),
                      QStringLiteral("status = 'REPLAYING' AND replay_topic = 'orders.retry'")),
            qint64(1), 10000);
        QTRY_VERIFY_WITH_TIMEOUT((result = window.findChild<QDialog*>(QStringLiteral("actionResult"))) !=
                                         nullptr &&
                                     result->isVisible(),
                                 10000);
        QVERIFY(child<QLabel>(result, "resultDone")->text().contains(QStringLiteral("1 row(s) changed")));
    }
};

QTEST_MAIN(TestActionDialogs)
#include "tst_actiondialogs.moc"
