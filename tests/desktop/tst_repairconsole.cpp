#include "core/db/DeadLetterStore.h"
#include "core/db/EventWriter.h"
#include "core/ops/DeadLetterEditor.h"
#include "tests/support/ConsoleClicks.h"
#include "tests/support/DeadLetters.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/WidgetFinder.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/connection/ConnectionProfile.h"
#include "ui/desktop/deadletters/DeadLettersPage.h"
#include "ui/desktop/events/BlockedAggregatesPage.h"
#include "ui/desktop/widgets/RecordTableModel.h"

#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace outbox;
using namespace outbox::desktop;
using namespace outbox::test;

// The console's Blocked page, the dead-letter editor and the dead-letter groups, driven by QTest
// clicks and keys on the real widgets against a real database.
class TestRepairConsole : public QObject
{
    Q_OBJECT

private:
    // One NEW dead letter of the topic "orders".
    static QDialog* openDialog(QWidget& window, const char* name)
    {
        QDialog* dialog = nullptr;
        (void)QTest::qWaitFor(
            [&]() {
                dialog = window.findChild<QDialog*>(QLatin1String(name));
                return dialog && dialog->isVisible() && !dialog->property("busy").toBool();
            },
            10000);
        return dialog && dialog->isVisible() ? dialog : nullptr;
    }

    static void selectRow(QTableView* table, int row)
    {
        table->selectionModel()->clearSelection();
        const QRect cell = table->visualRect(table->model()->index(row, 0));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    }

    static void replaceText(QPlainTextEdit* editor, const QString& text)
    {
        editor->setFocus();
        QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClick(editor, Qt::Key_Delete);
        QTest::keyClicks(editor, text);
    }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("OutboxConsoleTest"));
        QStandardPaths::setTestModeEnabled(true);
    }

    void blockedPageUnblocksWithItsConsequence()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("blocked")));
        QVector<NewEvent> events;
        for (int i = 0; i < 3; ++i) {
            NewEvent e;
            e.eventType = QStringLiteral("OrderChanged");
            e.aggregateType = QStringLiteral("Order");
            e.aggregateId = QStringLiteral("O-42");
            e.payload = "{}";
            events << e;
        }
        QVERIFY(db->beginWrite());
        QVERIFY(EventWriter(*db).appendBatch(events).ok());
        QVERIFY(db->commit());
        const qint64 first = db->scalar(QStringLiteral("SELECT MIN(id) FROM {events}"))->toLongLong();
        forceStatus(*db, {first}, QStringLiteral("FAILED"), QStringLiteral("topic ACL"));

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.blocked() != nullptr, 10000);
        window.pages()->setCurrentWidget(window.blocked());
        QTRY_COMPARE_WITH_TIMEOUT(window.blocked()->model()->rowCount(), 1, 10000);
        const QJsonObject row = window.blocked()->model()->record(0);
        QCOMPARE(row.value(QStringLiteral("aggregate")).toString(), QStringLiteral("Order/O-42"));
        QCOMPARE(row.value(QStringLiteral("blocking_id")).toInteger(), first);
        QCOMPARE(row.value(QStringLiteral("waiting")).toInteger(), 2);

        selectRow(child<QTableView>(&window, "blockedTable"), 0);
        QTest::mouseClick(child<QPushButton>(&window, "blockedRequeue"), Qt::LeftButton);
        QDialog* dialog = openDialog(window, "actionDialog");
        QVERIFY(dialog);
        auto* ordering = child<QLabel>(dialog, "actionOrdering");
        QVERIFY(ordering->isVisible());
        QVERIFY2(
            ordering->text().contains(QStringLiteral("2 later event(s) of Order/O-42 will be sent after it")),
            qPrintable(ordering->text()));
        QTest::keyClicks(child<QLineEdit>(dialog, "actionReason"), QStringLiteral("ACL fixed"));
        QTest::mouseClick(child<QPushButton>(dialog, "actionRun"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(*db, first), QStringLiteral("PENDING"), 10000);
        // Once it is PENDING again nothing is blocked: the page reloads empty.
        QTRY_COMPARE_WITH_TIMEOUT(window.blocked()->model()->rowCount(), 0, 10000);
    }

    // Issue 25 item 5: a red (production) profile asks for a typed confirmation for every action,
    // the dead-letter edit too: Save without it is refused and writes nothing.
    void productionEditNeedsTypedConfirmation()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("prodedit")));
        auto id = insertDeadLetter(*db, QStringLiteral("inventory"), QStringLiteral("e-prod"),
                                   R"({"trace_id":"t-1"})", R"({"sku":"SKU-l","quantity":3})",
                                   QStringLiteral("unknown SKU SKU-l"));
        QVERIFY(id.ok());

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ConnectionProfile production;
        production.name = QStringLiteral("prod");
        production.colour = QStringLiteral("red");
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url()), production));
        window.pages()->setCurrentWidget(window.deadLetters());
        QTRY_COMPARE_WITH_TIMEOUT(window.deadLetters()->model()->rowCount(), 1, 10000);
        selectRow(child<QTableView>(&window, "deadLettersTable"), 0);
        QTest::mouseClick(child<QPushButton>(&window, "editButton"), Qt::LeftButton);
        QDialog* dialog = openDialog(window, "dlqEditDialog");
        QVERIFY(dialog);
        replaceText(child<QPlainTextEdit>(dialog, "dlqEditPayload"),
                    QStringLiteral("{\"sku\":\"SKU-1\",\"quantity\":3}"));
        QTest::keyClicks(child<QLineEdit>(dialog, "dlqEditReason"), QStringLiteral("SKU typo"));
        auto* save = child<QPushButton>(dialog, "dlqEditSave");
        QTest::mouseClick(save, Qt::LeftButton);
        QVERIFY(dialog->isVisible());
        auto* error = child<QLabel>(dialog, "dlqEditError");
        QVERIFY2(error->text().contains(QStringLiteral("to confirm")), qPrintable(error->text()));
        QTest::qWait(300);
        QCOMPARE(DeadLetterStore(*db).find(*id)->editCount, 0);
        auto* confirm = child<QLineEdit>(dialog, "dlqEditConfirm");
        QTest::keyClicks(confirm, QStringLiteral("edit %1").arg(*id));
        QTest::mouseClick(save, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(DeadLetterStore(*db).find(*id)->editCount, 1, 10000);
        QCOMPARE(DeadLetterStore(*db).find(*id)->payload, QByteArray(R"({"sku":"SKU-1","quantity":3})"));
    }

    void deadLetterEditorRefusesInvalidJsonAndShowsTheDifference()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("editor")));
        const QByteArray original = R"({"sku":"SKU-l","quantity":3})";
        auto id = insertDeadLetter(*db, QStringLiteral("inventory"), QStringLiteral("e-typo"),
                                   R"({"trace_id":"t-1"})", original, QStringLiteral("unknown SKU SKU-l"));
        QVERIFY(id.ok());

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.deadLetters() != nullptr, 10000);
        window.pages()->setCurrentWidget(window.deadLetters());
        QTRY_COMPARE_WITH_TIMEOUT(window.deadLetters()->model()->rowCount(), 1, 10000);
        auto* table = child<QTableView>(&window, "deadLettersTable");
        selectRow(table, 0);
        QTest::mouseClick(child<QPushButton>(&window, "editButton"), Qt::LeftButton);
        QDialog* dialog = openDialog(window, "dlqEditDialog");
        QVERIFY(dialog);
        auto* payload = child<QPlainTextEdit>(dialog, "dlqEditPayload");
        auto* error = child<QLabel>(dialog, "dlqEditError");
        auto* save = child<QPushButton>(dialog, "dlqEditSave");
        QCOMPARE(payload->toPlainText(), QString::fromUtf8(original));

        // Invalid JSON: refused with a message, the dialog stays, nothing is written.
        replaceText(payload, QStringLiteral("{\"sku\": \"SKU-1\", "));
        QTest::keyClicks(child<QLineEdit>(dialog, "dlqEditReason"), QStringLiteral("SKU typo"));
        QTest::mouseClick(save, Qt::LeftButton);
        QVERIFY(dialog->isVisible());
        QVERIFY2(error->text().contains(QStringLiteral("not valid JSON")), qPrintable(error->text()));
        QTest::qWait(200);
        QCOMPARE(DeadLetterStore(*db).find(*id)->payload, original);
        // Headers must be an object of strings.
        replaceText(payload, QStringLiteral("{\"sku\":\"SKU-1\",\"quantity\":3}"));
        auto* headers = child<QPlainTextEdit>(dialog, "dlqEditHeaders");
        replaceText(headers, QStringLiteral("{\"trace_id\": 7}"));
        QTest::mouseClick(save, Qt::LeftButton);
        QVERIFY(dialog->isVisible());
        QVERIFY2(error->text().contains(QStringLiteral("must be a string")), qPrintable(error->text()));
        replaceText(headers, QStringLiteral("{\"trace_id\": \"t-1\", \"x-fixed\": \"yes\"}"));
        QVERIFY2(error->text().isEmpty(), qPrintable(error->text()));
        QTest::mouseClick(save, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(DeadLetterStore(*db).find(*id)->editCount == 1, 10000);
        auto edited = DeadLetterStore(*db).find(*id);
        QCOMPARE(edited->payload, QByteArray(R"({"sku":"SKU-1","quantity":3})"));
        QCOMPARE(edited->originalPayload, original);
        QCOMPARE(
            QJsonDocument::fromJson(edited->headers).object().value(QStringLiteral("x-fixed")).toString(),
            QStringLiteral("yes"));
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"), QStringLiteral("action = 'dlq.edit'")), qint64(1));

        // The page reloads; the inspector shows what the edit changed.
        QTRY_VERIFY_WITH_TIMEOUT(
            window.deadLetters()->model()->rowCount() == 1 &&
                window.deadLetters()->model()->record(0).value(QStringLiteral("edit_count")).toInt() == 1,
            10000);
        selectRow(table, 0);
        auto* detail = child<QPlainTextEdit>(&window, "deadLetterDetail");
        QTRY_VERIFY_WITH_TIMEOUT(detail->toPlainText().contains(QStringLiteral("Edited 1 time")), 5000);
        const QString text = detail->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("-     \"sku\": \"SKU-l\"")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("+     \"sku\": \"SKU-1\"")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("+     \"x-fixed\": \"yes\"")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("      \"quantity\": 3")), qPrintable(text));
    }

    // Issue 26: the dialog's edit carries the version it was opened on. Another operator's edit
    // in between makes Save a conflict, shown in the dialog (which stays open with what was
    // typed); nothing of this edit is stored.
    void staleEditIsAConflictShownInTheDialog()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("stale")));
        auto id = insertDeadLetter(*db, QStringLiteral("inventory"), QStringLiteral("e-stale"),
                                   R"({"trace_id":"t-1"})", R"({"sku":"SKU-l","quantity":3})",
                                   QStringLiteral("unknown SKU SKU-l"));
        QVERIFY(id.ok());

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.deadLetters() != nullptr, 10000);
        window.pages()->setCurrentWidget(window.deadLetters());
        QTRY_COMPARE_WITH_TIMEOUT(window.deadLetters()->model()->rowCount(), 1, 10000);
        selectRow(child<QTableView>(&window, "deadLettersTable"), 0);
        QTest::mouseClick(child<QPushButton>(&window, "editButton"), Qt::LeftButton);
        QDialog* dialog = openDialog(window, "dlqEditDialog");
        QVERIFY(dialog);

        // Meanwhile another operator edits the same dead letter (from the version both read).
        DeadLetterEdit other;
        other.actor = QStringLiteral("alice");
        other.reason = QStringLiteral("alice's fix");
        other.payload = QByteArray(R"({"sku":"SKU-A","quantity":3})");
        other.baseEditCount = 0;
        QVERIFY(DeadLetterEditor(*db).edit(*id, other).ok());

        auto* payload = child<QPlainTextEdit>(dialog, "dlqEditPayload");
        replaceText(payload, QStringLiteral("{\"sku\":\"SKU-1\",\"quantity\":3}"));
        QTest::keyClicks(child<QLineEdit>(dialog, "dlqEditReason"), QStringLiteral("SKU typo"));
        auto* error = child<QLabel>(dialog, "dlqEditError");
        QVERIFY2(error->text().isEmpty(), qPrintable(error->text()));
        QTest::mouseClick(child<QPushButton>(dialog, "dlqEditSave"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(error->text().contains(QStringLiteral("edited meanwhile")), 10000);
        QVERIFY2(error->text().contains(QStringLiteral("it is at edit 1; this edit was made from edit 0")),
                 qPrintable(error->text()));
        QVERIFY(dialog->isVisible());
        QCOMPARE(payload->toPlainText(), QStringLiteral("{\"sku\":\"SKU-1\",\"quantity\":3}"));
        QVERIFY(child<QPushButton>(dialog, "dlqEditSave")->isEnabled());
        const auto now = DeadLetterStore(*db).find(*id);
        QCOMPARE(now->payload, *other.payload);
        QCOMPARE(now->editCount, 1);
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"), QStringLiteral("action = 'dlq.edit'")), qint64(1));
    }

    void deadLetterGroupIsDiscardedFromTheConsole()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("groups")));
        QVector<qint64> ids;
        for (const QString& error : {QStringLiteral("unknown SKU 1"), QStringLiteral("unknown SKU 22"),
                                     QStringLiteral("order 5 is closed")}) {
            ids << insertDeadLetter(*db, QStringLiteral("inventory"), error, "{}", "{}", error).value();
        }
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.deadLetters() != nullptr, 10000);
        window.pages()->setCurrentWidget(window.deadLetters());
        QTRY_COMPARE_WITH_TIMEOUT(window.deadLetters()->model()->rowCount(), 3, 10000);
        QTest::mouseClick(child<QPushButton>(&window, "groupsButton"), Qt::LeftButton);
        QDialog* groups = openDialog(window, "dlqGroupsDialog");
        QVERIFY(groups);
        auto* table = child<QTableView>(groups, "dlqGroupsTable");
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 2, 10000);
        auto* model = static_cast<RecordTableModel*>(table->model());
        QCOMPARE(model->record(0).value(QStringLiteral("fingerprint")).toString(),
                 QStringLiteral("unknown SKU <n>"));
        QCOMPARE(model->record(0).value(QStringLiteral("count")).toInteger(), 2);
        selectRow(table, 0);
        QTest::mouseClick(child<QPushButton>(groups, "dlqGroupDiscard"), Qt::LeftButton);
        QDialog* action = nullptr;
        (void)QTest::qWaitFor(
            [&]() {
                action = groups->findChild<QDialog*>(QStringLiteral("actionDialog"));
                return action && action->isVisible() && !action->property("busy").toBool();
            },
            10000);
        QVERIFY(action && action->isVisible());
        QTest::keyClicks(child<QLineEdit>(action, "actionReason"), QStringLiteral("test SKUs"));
        QTest::keyClicks(child<QLineEdit>(action, "actionConfirm"), QStringLiteral("discard 2"));
        QTest::mouseClick(child<QPushButton>(action, "actionRun"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{dead_letters}"), QStringLiteral("status = 'DISCARDED'")),
            qint64(2), 10000);
        QCOMPARE(DeadLetterStore(*db).find(ids.at(2))->status, QStringLiteral("NEW"));
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 1, 10000);
    }

    // Issue 36 M3 / issue 40 item 3: 25 dead letters with the same typo, repaired by one group edit
    // (Edit group…: the change, Preview with every letter's diff, a reason, the count typed) and
    // replayed with Replay group…, all by clicks and keys on the real widgets.
    void deadLetterGroupIsRepairedAndReplayedFromTheConsole()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("grpedit")));
        for (int i = 0; i < 25; ++i) {
            QVERIFY(
                insertDeadLetter(*db, QStringLiteral("inventory"), QStringLiteral("e-%1").arg(i), "{}",
                                 QStringLiteral("{\"order_id\":\"o%1\",\"sku\":\"SKU-l\",\"quantity\":%2}")
                                     .arg(i)
                                     .arg(i + 1)
                                     .toUtf8(),
                                 QStringLiteral("unknown SKU SKU-l"))
                    .ok());
        }
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.deadLetters() != nullptr, 10000);
        window.pages()->setCurrentWidget(window.deadLetters());
        QTRY_COMPARE_WITH_TIMEOUT(window.deadLetters()->model()->rowCount(), 25, 10000);
        QTest::mouseClick(child<QPushButton>(&window, "groupsButton"), Qt::LeftButton);
        QDialog* groups = openDialog(window, "dlqGroupsDialog");
        QVERIFY(groups);
        auto* table = child<QTableView>(groups, "dlqGroupsTable");
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 1, 10000);
        selectRow(table, 0);
        QTest::mouseClick(child<QPushButton>(groups, "dlqGroupEdit"), Qt::LeftButton);
        QDialog* edit = openDialog(window, "groupEditDialog");
        QVERIFY(edit);
        QTest::keyClicks(child<QLineEdit>(edit, "groupEditPath"), QStringLiteral("sku"));
        QTest::keyClicks(child<QLineEdit>(edit, "groupEditTo"), QStringLiteral("\"SKU-1\""));
        auto* run = child<QPushButton>(edit, "groupEditRun");
        QVERIFY(!run->isEnabled());
        QTest::mouseClick(child<QPushButton>(edit, "groupEditPreview"), Qt::LeftButton);
        auto* summary = child<QLabel>(edit, "groupEditSummary");
        QTRY_VERIFY_WITH_TIMEOUT(summary->text().startsWith(QStringLiteral("25 of 25")), 10000);
        const QString diffs = child<QPlainTextEdit>(edit, "groupEditDiffs")->toPlainText();
        QCOMPARE(diffs.count(QStringLiteral("sku: \"SKU-l\" \u2192 \"SKU-1\"")), 25);
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}"), QStringLiteral("edit_count > 0")),
                 qint64(0));
        QTest::keyClicks(child<QLineEdit>(edit, "groupEditReason"),
                         QStringLiteral("SKU typo: SKU-l is SKU-1"));
        QVERIFY(!run->isEnabled()); // core's phrase is not typed yet
        auto* confirm = child<QLineEdit>(edit, "groupEditConfirm");
        QCOMPARE(confirm->placeholderText(), QStringLiteral("edit 25"));
        // The count alone, as before, is not the phrase.
        QVERIFY(confirmAndRun(confirm, run, QStringLiteral("edit 25"), QStringLiteral("25")));
        auto* result = child<QLabel>(edit, "groupEditResult");
        QTRY_VERIFY_WITH_TIMEOUT(result->text().startsWith(QStringLiteral("Edited 25 dead letter(s)")),
                                 10000);
        QCOMPARE(countRows(*db, QStringLiteral("{dead_letters}"),
                           QStringLiteral(
                               "status = 'NEW' AND edit_count = 1 AND payload LIKE '%\"sku\":\"SKU-1\"%'")),
                 qint64(25));
        QCOMPARE(
            countRows(*db, QStringLiteral("{audit}"),
                      QStringLiteral("action = 'dlq.edit_group' AND reason = 'SKU typo: SKU-l is SKU-1'")),
            qint64(1));
        edit->close();

        // Replay group…: the repaired group through the bulk engine's dialog.
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 1, 10000);
        selectRow(table, 0);
        QTest::mouseClick(child<QPushButton>(groups, "dlqGroupReplay"), Qt::LeftButton);
        QDialog* action = nullptr;
        (void)QTest::qWaitFor(
            [&]() {
                action = groups->findChild<QDialog*>(QStringLiteral("actionDialog"));
                return action && action->isVisible() && !action->property("busy").toBool();
            },
            10000);
        QVERIFY(action && action->isVisible());
        QTest::keyClicks(child<QLineEdit>(action, "actionReason"), QStringLiteral("after the group repair"));
        QTest::keyClicks(child<QLineEdit>(action, "actionConfirm"), QStringLiteral("replay 25"));
        QTest::mouseClick(child<QPushButton>(action, "actionRun"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{dead_letters}"),
                      QStringLiteral("status = 'REPLAYING' AND payload LIKE '%\"sku\":\"SKU-1\"%'")),
            qint64(25), 10000);
    }

    // Issue 40 item 3: the list filters by error text (a bound value: quotes and LIKE's wildcards
    // are text), and the Groups dialog opens a group's letters on the page, where "Every dead
    // letter of the filter" acts on exactly that group (not on another consumer's letters with the
    // same error, nor on a substring match).
    void groupLettersAndErrorFilterFromTheConsole()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("grpletters")));
        const QList<QPair<QString, QString>> letters{
            {QStringLiteral("inventory"), QStringLiteral("unknown SKU 1")},
            {QStringLiteral("inventory"), QStringLiteral("order 5 is closed")},
            {QStringLiteral("inventory"), QStringLiteral("unknown SKU 22")},
            {QStringLiteral("billing"), QStringLiteral("unknown SKU 7")},
            {QStringLiteral("inventory"), QStringLiteral("unknown SKU 333")},
            {QStringLiteral("inventory"), QStringLiteral("100% of 'stock' gone")}};
        QVector<qint64> ids;
        for (const auto& [consumer, error] : letters) {
            ids << insertDeadLetter(*db, consumer, error, "{}", "{}", error).value();
        }
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.deadLetters() != nullptr, 10000);
        window.pages()->setCurrentWidget(window.deadLetters());
        RecordTableModel* list = window.deadLetters()->model();
        QTRY_COMPARE_WITH_TIMEOUT(list->rowCount(), 6, 10000);
        const auto shownIds = [list]() {
            QVector<qint64> shown;
            for (int i = 0; i < list->rowCount(); ++i)
                shown << list->record(i).value(QStringLiteral("id")).toInteger();
            return shown;
        };

        // The error box, any case, applied with Return.
        auto* error = child<QLineEdit>(&window, "dlqError");
        QTest::keyClicks(error, QStringLiteral("ORDER 5"));
        QTest::keyClick(error, Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(shownIds(), QVector<qint64>{ids.at(1)}, 10000);
        // A quote and LIKE's wildcard are matched as the characters they are.
        error->clear();
        QTest::keyClicks(error, QStringLiteral("100% of 'st"));
        QTest::mouseClick(child<QPushButton>(&window, "dlqApply"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(shownIds(), QVector<qint64>{ids.at(5)}, 10000);
        error->clear();
        QTest::keyClicks(error, QStringLiteral("%' OR 1=1 --"));
        QTest::mouseClick(child<QPushButton>(&window, "dlqApply"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(list->rowCount(), 0, 10000);
        QTest::qWait(200);
        QCOMPARE(list->rowCount(), 0);

        // Groups…, the inventory "unknown SKU <n>" group, Show letters.
        QTest::mouseClick(child<QPushButton>(&window, "groupsButton"), Qt::LeftButton);
        QDialog* groups = openDialog(window, "dlqGroupsDialog");
        QVERIFY(groups);
        auto* table = child<QTableView>(groups, "dlqGroupsTable");
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 4, 10000);
        auto* model = static_cast<RecordTableModel*>(table->model());
        QCOMPARE(model->record(0).value(QStringLiteral("consumer")).toString(), QStringLiteral("inventory"));
        QCOMPARE(model->record(0).value(QStringLiteral("fingerprint")).toString(),
                 QStringLiteral("unknown SKU <n>"));
        selectRow(table, 0);
        QTest::mouseClick(child<QPushButton>(groups, "dlqGroupLetters"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!groups->isVisible(), 5000);
        // Newest first, as the list shows every filter's letters.
        QTRY_COMPARE_WITH_TIMEOUT(shownIds(), (QVector<qint64>{ids.at(4), ids.at(2), ids.at(0)}), 10000);
        auto* shown = child<QLabel>(&window, "dlqGroupShown");
        QVERIFY(shown->isVisible());
        QVERIFY2(shown->text().contains(QStringLiteral("unknown SKU <n>")), qPrintable(shown->text()));
        QCOMPARE(error->text(), QString());
        QCOMPARE(child<QLineEdit>(&window, "dlqConsumer")->text(), QStringLiteral("inventory"));

        // The whole group, from the page: exactly its three letters are discarded.
        child<QComboBox>(&window, "dlqScope")->setCurrentIndex(1);
        QTest::mouseClick(child<QPushButton>(&window, "discardButton"), Qt::LeftButton);
        QDialog* action = openDialog(window, "actionDialog");
        QVERIFY(action);
        QTest::keyClicks(child<QLineEdit>(action, "actionReason"), QStringLiteral("retired SKUs"));
        QTest::keyClicks(child<QLineEdit>(action, "actionConfirm"), QStringLiteral("discard 3"));
        QTest::mouseClick(child<QPushButton>(action, "actionRun"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{dead_letters}"), QStringLiteral("status = 'DISCARDED'")),
            qint64(3), 10000);
        for (int k : {0, 2, 4})
            QCOMPARE(DeadLetterStore(*db).find(ids.at(k))->status, QStringLiteral("DISCARDED"));
        QCOMPARE(DeadLetterStore(*db).find(ids.at(3))->status, QStringLiteral("NEW")); // billing's
        // The group is empty now; "Show the filter" lists the boxes' letters (NEW of inventory).
        QTRY_COMPARE_WITH_TIMEOUT(list->rowCount(), 0, 10000);
        QTest::mouseClick(child<QPushButton>(&window, "dlqGroupClear"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(shownIds(), (QVector<qint64>{ids.at(5), ids.at(1)}), 10000);
        QVERIFY(!shown->isVisible());
    }
};

QTEST_MAIN(TestRepairConsole)
#include "tst_repairconsole.moc"
