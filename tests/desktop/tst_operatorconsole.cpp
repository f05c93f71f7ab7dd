#include "core/broker/kafka/EmbeddedBroker.h"
#include "core/db/DeadLetterStore.h"
#include "core/db/Migrator.h"
#include "core/ops/OperatorActions.h"
#include "tests/support/ConsoleClicks.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/RelayThread.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/TestPaths.h"
#include "tests/support/WidgetFinder.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/audit/AuditPage.h"
#include "ui/desktop/deadletters/DeadLettersPage.h"
#include "ui/desktop/events/EventTableModel.h"
#include "ui/desktop/events/EventsPage.h"
#include "ui/desktop/overview/OverviewPage.h"
#include "ui/desktop/overview/StatTile.h"
#include "ui/desktop/relays/ManagedRelay.h"
#include "ui/desktop/relays/RelaysPage.h"
#include "ui/desktop/widgets/EventInspector.h"
#include "ui/desktop/widgets/RecordTableModel.h"

#include <QAbstractSeries>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeAxis>
#include <QDialog>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QValueAxis>

using namespace outbox;
using namespace outbox::desktop;
using namespace outbox::test;

// The console as an on-call operator uses it: switching connections, pages that follow the data,
// an Overview that points at the problem, text that is not cut off, relay control with a preview,
// the managed relay's supervision and the small things. Real widgets, driven by clicks and keys,
// over real databases (and a real relay and broker where the state matters).
class TestOperatorConsole : public QObject
{
    Q_OBJECT

private:
    static void selectRow(QTableView* table, int row, Qt::KeyboardModifiers modifiers = {})
    {
        table->scrollTo(table->model()->index(row, 0));
        const QRect r = table->visualRect(table->model()->index(row, 0));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, modifiers, r.center());
    }

    static QAction* menuAction(MainWindow& window, const QString& text)
    {
        for (QAction* menu : window.menuBar()->actions())
            if (menu->menu())
                for (QAction* a : menu->menu()->actions())
                    if (a->text() == text)
                        return a;
        qWarning("no menu action %s", qPrintable(text));
        return nullptr;
    }

    static QDialog* waitForDialog(const QString& name)
    {
        QDialog* dialog = nullptr;
        (void)QTest::qWaitFor(
            [&]() {
                dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
                if (!dialog || dialog->objectName() != name) {
                    dialog = nullptr;
                    for (QWidget* w : QApplication::topLevelWidgets())
                        if (w->objectName() == name && w->isVisible())
                            dialog = qobject_cast<QDialog*>(w);
                }
                return dialog != nullptr;
            },
            10000);
        return dialog;
    }

    // Opens Connection > Connect…, types the URL and presses Connect.
    static QDialog* connectThroughDialog(MainWindow& window, const QString& url)
    {
        menuAction(window, MainWindow::tr("&Connect…"))->trigger();
        QDialog* dialog = waitForDialog(QStringLiteral("connectDialog"));
        if (!dialog)
            return nullptr;
        auto* edit = child<QLineEdit>(dialog, "profileUrl");
        edit->clear();
        QTest::keyClicks(edit, url);
        QTest::mouseClick(child<QPushButton>(dialog, "connectButton"), Qt::LeftButton);
        return dialog;
    }

    static QString tileValue(MainWindow& window, const char* name)
    {
        return child<StatTile>(&window, name)->value();
    }

    static Result<ActionResult> requeue(Database& db, const QVector<qint64>& ids, const QString& reason)
    {
        ActionRequest request;
        request.ids = ids;
        request.reason = reason;
        request.actor = QStringLiteral("tester");
        return OperatorActions(db).requeue(request);
    }

    static void insertRelay(Database& db, const QString& worker, const QString& lastError = {})
    {
        QVERIFY(db.exec(QStringLiteral("INSERT INTO {relays} (worker_id, host, pid, last_error) "
                                       "VALUES (:w, 'host-a', 7, :e)"),
                        {{QStringLiteral(":w"), worker}, {QStringLiteral(":e"), lastError}})
                    .ok());
    }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("OutboxOperatorTest"));
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    // Item 2: a connection is checked before anything switches; every view is cleared on switch
    // and disconnect; the dialog says what is wrong and remembers recent URLs.
    void switchingConnections()
    {
        auto a = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("switch-a"));
        const auto ids = insertEvents(*a, 12);
        forceStatus(*a, ids.mid(0, 4), QStringLiteral("FAILED"), QStringLiteral("broker said no"));
        insertRelay(*a, QStringLiteral("relay-of-a"));
        auto b = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("switch-b"));
        QTemporaryDir dir;
        const QString unreachable =
            QStringLiteral("sqlite://") + dir.filePath(QStringLiteral("no/such/dir/x.db"));

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        // An empty URL is an error in the dialog itself.
        QPointer<QDialog> dialog = connectThroughDialog(window, QString());
        QVERIFY(dialog);
        auto* error = child<QLabel>(dialog, "connectError");
        QVERIFY(error->isVisible());
        QVERIFY(error->text().contains(QStringLiteral("URL")));
        QVERIFY(dialog->isVisible());

        // A working URL with the production colour: connected after the check.
        auto* colour = child<QComboBox>(dialog, "profileColour");
        colour->setFocus();
        QTest::keyClick(colour, Qt::Key_End); // the last entry: red (production)
        QCOMPARE(colour->currentData().toString(), QStringLiteral("red"));
        auto* urlEdit = child<QLineEdit>(dialog, "profileUrl");
        QTest::keyClicks(urlEdit, TestDatabases::urlText(a->url()));
        QTest::mouseClick(child<QPushButton>(dialog, "connectButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog || !dialog->isVisible(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(tileValue(window, "tile_FAILED"), QStringLiteral("4"), 10000);
        auto* tag = child<QLabel>(&window, "profileTag");
        QVERIFY(tag->text().contains(QStringLiteral("PRODUCTION")));
        const QString titleA = window.windowTitle();
        QVERIFY2(titleA.contains(a->url().redacted()), qPrintable(titleA));
        window.pages()->setCurrentWidget(window.relays());
        QTRY_COMPARE_WITH_TIMEOUT(child<QTableView>(&window, "relaysTable")->model()->rowCount(), 1, 10000);

        // An unreachable URL: the dialog says so and stays; nothing of A is replaced, and no
        // "connection lost" appears for a connection that never worked.
        dialog = connectThroughDialog(window, unreachable);
        QVERIFY(dialog);
        error = child<QLabel>(dialog, "connectError");
        QTRY_VERIFY_WITH_TIMEOUT(
            error->isVisible() && error->text().contains(QStringLiteral("Cannot connect")), 10000);
        QVERIFY(dialog->isVisible());
        QCOMPARE(window.windowTitle(), titleA);
        QVERIFY(tag->text().contains(QStringLiteral("PRODUCTION")));
        QTest::qWait(2500); // a sample or two of A still arrives
        QCOMPARE(tileValue(window, "tile_FAILED"), QStringLiteral("4"));
        QVERIFY(!child<QLabel>(&window, "connectionBanner")->isVisible());

        // The dialog remembers A's URL (without a password) among the recent ones.
        auto* recent = child<QComboBox>(dialog, "recentUrls");
        QVERIFY(recent->findText(TestDatabases::urlText(a->url())) > 0);
        dialog->reject();

        // Switch to B: none of A's numbers, relays or production tag remain.
        dialog = connectThroughDialog(window, TestDatabases::urlText(b->url()));
        QTRY_VERIFY_WITH_TIMEOUT(!dialog || !dialog->isVisible(), 10000);
        QVERIFY(window.windowTitle().contains(b->url().redacted()));
        QVERIFY(!tag->text().contains(QStringLiteral("PRODUCTION")));
        QCOMPARE(child<QTableView>(&window, "relaysTable")->model()->rowCount(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(tileValue(window, "tile_FAILED"), QStringLiteral("0"), 10000);

        // Back to A, then disconnect: everything goes back to "not connected".
        dialog = connectThroughDialog(window, TestDatabases::urlText(a->url()));
        QTRY_COMPARE_WITH_TIMEOUT(tileValue(window, "tile_FAILED"), QStringLiteral("4"), 10000);
        window.pages()->setCurrentWidget(window.events());
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->groupsModel()->rowCount() > 0, 10000);
        menuAction(window, MainWindow::tr("&Disconnect"))->trigger();
        QCOMPARE(tileValue(window, "tile_FAILED"), QStringLiteral("–"));
        QCOMPARE(tileValue(window, "tile_relays"), QStringLiteral("–"));
        QCOMPARE(window.overview()->pointCount(), 0);
        QCOMPARE(window.events()->groupsModel()->rowCount(), 0);
        QCOMPARE(child<QTableView>(&window, "relaysTable")->model()->rowCount(), 0);
        QCOMPARE(child<QTableWidget>(&window, "overviewRelays")->rowCount(), 0);
        QCOMPARE(tag->text(), MainWindow::tr("Not connected"));
        QVERIFY(!window.windowTitle().contains(a->url().redacted()));
        QVERIFY(!child<QLabel>(&window, "connectionBanner")->isVisible());
    }

    // Item 3: pages follow the data; failure groups and dead letters agree with the tiles; Audit
    // shows the operator's action without Apply.
    void pagesFollowTheData()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("follow"));
        auto ids = insertEvents(*db, 40);
        forceStatus(*db, ids.mid(0, 9), QStringLiteral("FAILED"),
                    QStringLiteral("schema check failed for order 1"));
        forceStatus(*db, ids.mid(9, 4), QStringLiteral("FAILED"),
                    QStringLiteral("payload too large: 2000000"));
        // Retrying events keep their last error but are not FAILED.
        forceStatus(*db, ids.mid(13, 5), QStringLiteral("PENDING"), QStringLiteral("timed out after 30 s"));
        insertRelay(*db, QStringLiteral("relay-follow"));

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(connectThroughDialog(window, TestDatabases::urlText(db->url())));
        QTRY_COMPARE_WITH_TIMEOUT(tileValue(window, "tile_FAILED"), QStringLiteral("13"), 10000);
        window.pages()->setCurrentWidget(window.events());
        EventsPage* events = window.events();
        auto groupsTotal = [events]() {
            qint64 n = 0;
            for (const QJsonObject& g : events->groupsModel()->records())
                n += g.value(QStringLiteral("count")).toInteger();
            return n;
        };
        // The groups add up to the FAILED tile (9 + 4), not to every event with an error.
        QTRY_COMPARE_WITH_TIMEOUT(groupsTotal(), qint64(13), 10000);
        QCOMPARE(events->groupsModel()->rowCount(), 2);

        // More failures arrive: the groups follow without a click.
        const auto more = insertEvents(*db, 69);
        forceStatus(*db, more, QStringLiteral("FAILED"), QStringLiteral("schema check failed for order 2"));
        QTRY_COMPARE_WITH_TIMEOUT(tileValue(window, "tile_FAILED"), QStringLiteral("82"), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(groupsTotal(), qint64(82), 10000);

        // Requeued (PENDING again, last error kept): they leave the FAILED groups.
        auto requeued = requeue(*db, more.mid(0, 50), QStringLiteral("fixed"));
        QVERIFY2(requeued.ok(), qPrintable(requeued.message()));
        QTRY_COMPARE_WITH_TIMEOUT(groupsTotal(), qint64(32), 10000);

        // New events while the operator reads the newest-first list: announced, shown on click.
        // The 69 that arrived since the list was loaded are announced first.
        QTRY_VERIFY_WITH_TIMEOUT(events->model() && events->model()->rowCount() > 0, 10000);
        auto* newRows = child<QPushButton>(&window, "newEvents");
        QTRY_VERIFY_WITH_TIMEOUT(newRows->isVisible() && newRows->text().startsWith(QStringLiteral("69 new")),
                                 10000);
        QTest::mouseClick(newRows, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(events->model()->rowCount(), 109, 10000);
        const int before = events->model()->rowCount();
        insertEvents(*db, 3, QStringLiteral("LateArrival"));
        QTRY_VERIFY_WITH_TIMEOUT(newRows->isVisible() && newRows->text().startsWith(QStringLiteral("3 new")),
                                 10000);
        QCOMPARE(events->model()->rowCount(), before); // the list did not move under the reader
        QTest::mouseClick(newRows, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(events->model()->eventAt(0) &&
                                     events->model()->eventAt(0)->eventType == QStringLiteral("LateArrival"),
                                 10000);
        QVERIFY(!newRows->isVisible());
        QVERIFY(child<QLabel>(&window, "eventsInfo")->text().contains(QStringLiteral("as of")));

        // Dead letters: the list says when the count behind it changed, and then agrees with it.
        window.pages()->setCurrentWidget(window.deadLetters());
        QTRY_VERIFY_WITH_TIMEOUT(child<QLabel>(&window, "dlqInfo")->text().contains(QStringLiteral("as of")),
                                 10000);
        for (int i = 0; i < 5; ++i) {
            DeadLetter letter;
            letter.consumerName = QStringLiteral("inventory");
            letter.topic = QStringLiteral("order");
            letter.eventId = QStringLiteral("ev-%1").arg(i);
            letter.payload = QByteArrayLiteral("{}");
            letter.headers = QByteArrayLiteral("{}");
            letter.error = QStringLiteral("cannot reserve stock");
            QVERIFY(DeadLetterStore(*db).insert(letter).ok());
        }
        QTRY_COMPARE_WITH_TIMEOUT(tileValue(window, "tile_dlq"), QStringLiteral("5"), 10000);
        auto* dlqNew = child<QPushButton>(&window, "dlqNew");
        QTRY_VERIFY_WITH_TIMEOUT(dlqNew->isVisible() && dlqNew->text().startsWith(QStringLiteral("5 new")),
                                 10000);
        QTest::mouseClick(dlqNew, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(window.deadLetters()->model()->rowCount(), 5, 10000);

        // Audit: open it first, then act elsewhere; the entry appears without pressing Apply.
        window.pages()->setCurrentWidget(window.audit());
        QTRY_COMPARE_WITH_TIMEOUT(window.audit()->model()->rowCount(), 1, 10000); // the requeue above
        window.pages()->setCurrentWidget(window.relays());
        auto* relays = child<QTableView>(&window, "relaysTable");
        QTRY_COMPARE_WITH_TIMEOUT(relays->model()->rowCount(), 1, 10000);
        selectRow(relays, 0);
        QTest::mouseClick(child<QPushButton>(&window, "pauseRelay"), Qt::LeftButton);
        QPointer<QDialog> control = waitForDialog(QStringLiteral("relayControlDialog"));
        QVERIFY(control);
        QTest::keyClicks(child<QLineEdit>(control, "relayControlReason"), QStringLiteral("audit follows"));
        QTest::keyClicks(child<QLineEdit>(control, "relayControlConfirm"), QStringLiteral("pause 1"));
        QTest::mouseClick(child<QPushButton>(control, "relayControlRun"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(window.audit()->model()->rowCount(), 2, 10000);
        QCOMPARE(window.audit()->model()->record(0).value(QStringLiteral("reason")).toString(),
                 QStringLiteral("audit follows"));
    }

    // Item 5: severity by meaning, tiles that drill down, readable charts, relay states that
    // match what a running relay does.
    void overviewPointsAtTheProblem()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("overview"));
        const auto ids = insertEvents(*db, 30);
        forceStatus(*db, ids.mid(0, 3), QStringLiteral("FAILED"), QStringLiteral("bad"));
        QVERIFY(db->exec(QStringLiteral("UPDATE {events} SET created_at = :t WHERE status = 'PENDING'"),
                         {{QStringLiteral(":t"), QDateTime::currentDateTimeUtc().addSecs(-900)}})
                    .ok());

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(connectThroughDialog(window, TestDatabases::urlText(db->url())));
        QTRY_COMPARE_WITH_TIMEOUT(tileValue(window, "tile_relays"), QStringLiteral("0/0"), 10000);
        using Severity = StatTile::Severity;
        // No relay while events wait: the worst; an old backlog: red; failures: amber.
        QCOMPARE(child<StatTile>(&window, "tile_relays")->severity(), Severity::Critical);
        QCOMPARE(child<StatTile>(&window, "tile_oldest")->severity(), Severity::Critical);
        QCOMPARE(child<StatTile>(&window, "tile_FAILED")->severity(), Severity::Warning);
        QCOMPARE(child<StatTile>(&window, "tile_PENDING")->severity(), Severity::Normal);

        // The charts say their interval, give failures their own scale and use round ticks.
        QTRY_VERIFY_WITH_TIMEOUT(window.overview()->pointCount() >= 3, 15000);
        auto* rateView = child<QChartView>(&window, "rateChartView");
        QVERIFY(rateView->chart()->title().contains(QStringLiteral("every 2 s")));
        QList<QLineSeries*> lines;
        for (QAbstractSeries* s : rateView->chart()->series())
            lines << qobject_cast<QLineSeries*>(s);
        QCOMPARE(lines.size(), 2);
        auto verticalAxis = [](QLineSeries* s) -> QValueAxis* {
            for (QAbstractAxis* a : s->attachedAxes())
                if (a->orientation() == Qt::Vertical)
                    return qobject_cast<QValueAxis*>(a);
            return nullptr;
        };
        QVERIFY(verticalAxis(lines.at(0)) && verticalAxis(lines.at(1)));
        QVERIFY(verticalAxis(lines.at(0)) != verticalAxis(lines.at(1)));
        for (const char* name : {"backlogChartView", "rateChartView"}) {
            auto* view = child<QChartView>(&window, name);
            for (QAbstractAxis* axis : view->chart()->axes()) {
                if (auto* v = qobject_cast<QValueAxis*>(axis)) {
                    const double step = (v->max() - v->min()) / (v->tickCount() - 1);
                    QVERIFY2(step >= 1 && step == std::floor(step), qPrintable(QString::number(step)));
                    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
                    QVERIFY2(mantissa == 1 || mantissa == 2 || mantissa == 5,
                             qPrintable(QString::number(step)));
                } else if (auto* t = qobject_cast<QDateTimeAxis*>(axis)) {
                    const qint64 span = t->min().msecsTo(t->max());
                    QVERIFY(span % (1000 * (t->tickCount() - 1)) == 0); // ticks on whole, distinct seconds
                }
            }
        }

        // A tile is a way in: FAILED shows the FAILED events on the Events page.
        window.pages()->setCurrentWidget(window.overview());
        QTest::mouseClick(child<StatTile>(&window, "tile_FAILED"), Qt::LeftButton);
        QCOMPARE(window.pages()->currentWidget(), window.events());
        QCOMPARE(child<QComboBox>(&window, "filterStatus")->currentData().toString(),
                 QStringLiteral("FAILED"));
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model()->atEnd() && !window.events()->model()->isFetching(),
                                 10000);
        QCOMPARE(window.events()->model()->rowCount(), 3);
        QCOMPARE(window.events()->model()->filter().statuses, QStringList{QStringLiteral("FAILED")});
    }

    // Item 5: the state of a relay that is sending is not IDLE (a real relay, a real broker).
    void relayStateMatchesWhatItDoes()
    {
        auto broker = EmbeddedBroker::start(1);
        QVERIFY2(broker.ok(), qPrintable(broker.message()));
        QVERIFY((*broker)->createTopic(QStringLiteral("order"), 3, 1));
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("relaystate"));
        RelayOptions options = testRelayOptions((*broker)->bootstrap(), QStringLiteral("relay-busy"));
        options.batchSize = 50;
        RelayThread relay(db->url(), options);
        relay.start();
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(connectThroughDialog(window, TestDatabases::urlText(db->url())));
        auto* relaysTable = child<QTableWidget>(&window, "overviewRelays");
        QTRY_COMPARE_WITH_TIMEOUT(relaysTable->rowCount(), 1, 15000);
        // Steady load of about 100 events a second: every heartbeat of the sending relay says RUNNING.
        int seen = 0;
        QStringList states;
        qint64 lastSent = -1;
        QElapsedTimer load;
        load.start();
        while (load.elapsed() < 6000) {
            insertEvents(*db, 10);
            QTest::qWait(100);
            const qint64 sent = countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'"));
            if (load.elapsed() > 2000 && relaysTable->rowCount() == 1 && relaysTable->item(0, 1)) {
                if (sent != lastSent) {
                    states << relaysTable->item(0, 1)->text();
                    ++seen;
                }
                lastSent = sent;
            }
        }
        relay.stop();
        QVERIFY(seen > 5);
        QVERIFY2(!states.contains(QStringLiteral("IDLE")), qPrintable(states.join(QLatin1Char(' '))));
    }

    // Item 6: the useful text is readable: columns sized by meaning, full text in a detail pane.
    void textIsNotCutOff()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("text"));
        const auto ids = insertEvents(*db, 3);
        forceStatus(*db, ids, QStringLiteral("FAILED"), QStringLiteral("broker refused"));
        const QString longError = QStringLiteral("deterministic failure: ") + QString(300, QLatin1Char('x')) +
                                  QStringLiteral(" END-OF-ERROR");
        DeadLetter letter;
        letter.consumerName = QStringLiteral("inventory");
        letter.topic = QStringLiteral("order");
        letter.eventId = QStringLiteral("ev-long");
        letter.payload = QByteArrayLiteral("{}");
        letter.headers = QByteArrayLiteral("{}");
        letter.error = longError;
        QVERIFY(DeadLetterStore(*db).insert(letter).ok());
        QVERIFY(db->exec(QStringLiteral("UPDATE {dead_letters} SET last_failed_at = :t"),
                         {{QStringLiteral(":t"), QDateTime::currentDateTimeUtc()}})
                    .ok());
        const QString longReason =
            QStringLiteral("customer 4711 asked to resend after the schema fix; ticket OPS-1234");
        QVERIFY(requeue(*db, ids, longReason).ok());
        insertRelay(*db, QStringLiteral("relay-text"), longError);

        MainWindow window;
        window.resize(1280, 800); // a laptop's screen (issue 25 item 11)
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(connectThroughDialog(window, TestDatabases::urlText(db->url())));

        // Dead letters: the Error column is on screen, Last failed shows its seconds, the detail
        // pane has the whole error.
        window.pages()->setCurrentWidget(window.deadLetters());
        auto* dlq = child<QTableView>(&window, "deadLettersTable");
        QTRY_COMPARE_WITH_TIMEOUT(dlq->model()->rowCount(), 1, 10000);
        const int errorColumn = dlq->model()->columnCount() - 1;
        QVERIFY(dlq->columnViewportPosition(errorColumn) + 100 < dlq->viewport()->width());
        const QString lastFailed = dlq->model()->index(0, errorColumn - 1).data().toString();
        QVERIFY2(QRegularExpression(QStringLiteral("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d$"))
                     .match(lastFailed)
                     .hasMatch(),
                 qPrintable(lastFailed));
        QVERIFY(dlq->columnWidth(errorColumn - 1) >= dlq->fontMetrics().horizontalAdvance(lastFailed));
        selectRow(dlq, 0);
        QTRY_VERIFY_WITH_TIMEOUT(
            child<QPlainTextEdit>(&window, "deadLetterDetail")->toPlainText().contains(longError), 5000);

        // Audit: the reason comes before the target ids and is wide; the pane shows all of it.
        window.pages()->setCurrentWidget(window.audit());
        auto* audit = child<QTableView>(&window, "auditTable");
        QTRY_COMPARE_WITH_TIMEOUT(audit->model()->rowCount(), 1, 10000);
        int reasonColumn = -1, idsColumn = -1, actionColumn = -1;
        for (int c = 0; c < audit->model()->columnCount(); ++c) {
            const QString title = audit->model()->headerData(c, Qt::Horizontal).toString();
            if (title == AuditPage::tr("Reason"))
                reasonColumn = c;
            else if (title == AuditPage::tr("Target ids"))
                idsColumn = c;
            else if (title == AuditPage::tr("Action"))
                actionColumn = c;
        }
        QVERIFY(reasonColumn >= 0 && idsColumn > reasonColumn);
        QVERIFY(audit->columnWidth(reasonColumn) >= 300);
        QVERIFY(
            audit->columnWidth(actionColumn) >=
            audit->fontMetrics().horizontalAdvance(audit->model()->index(0, actionColumn).data().toString()));
        selectRow(audit, 0);
        QTRY_VERIFY_WITH_TIMEOUT(
            child<QPlainTextEdit>(&window, "auditDetail")->toPlainText().contains(longReason), 5000);

        // Relays: the last error's tooltip is all of it.
        window.pages()->setCurrentWidget(window.relays());
        auto* relays = child<QTableView>(&window, "relaysTable");
        QTRY_COMPARE_WITH_TIMEOUT(relays->model()->rowCount(), 1, 10000);
        const QModelIndex lastError = relays->model()->index(0, relays->model()->columnCount() - 1);
        // (as escaped plain text: a tooltip would render an error that looks like HTML)
        QVERIFY(lastError.data(Qt::ToolTipRole).toString().contains(QStringLiteral("END-OF-ERROR</p>")));

        // Inspector: every column name whole, the audit history's time with seconds.
        window.pages()->setCurrentWidget(window.events());
        auto* eventsTable = child<QTableView>(&window, "eventsTable");
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model() && window.events()->model()->rowCount() == 3,
                                 10000);
        selectRow(eventsTable, 0);
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->inspector()->historyCount() == 1, 10000);
        auto* columns = child<QTableWidget>(&window, "eventColumns");
        int widest = 0;
        for (int r = 0; r < columns->rowCount(); ++r)
            widest = std::max(widest, columns->fontMetrics().horizontalAdvance(columns->item(r, 0)->text()));
        QVERIFY(columns->columnWidth(0) >= widest);
        auto* history = child<QTableWidget>(&window, "eventHistory");
        QVERIFY(QRegularExpression(QStringLiteral("\\d\\d:\\d\\d:\\d\\d$"))
                    .match(history->item(0, 0)->text())
                    .hasMatch());
        QVERIFY(history->columnWidth(0) >=
                history->fontMetrics().horizontalAdvance(history->item(0, 0)->text()));
    }

    // Item 7: pause / resume through a preview of the relays, a reason asked each time, the
    // typed confirmation on production and errors inside the dialog.
    void relayControlHasSafeguards()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("relayctl"));
        insertRelay(*db, QStringLiteral("relay-1"));
        insertRelay(*db, QStringLiteral("relay-2"));
        insertRelay(*db, QStringLiteral("relay-3"));
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(
            TestDatabases::urlText(db->url()),
            ConnectionProfile{QStringLiteral("prod"), QString(), QStringLiteral("red")}));
        window.pages()->setCurrentWidget(window.relays());
        auto* table = child<QTableView>(&window, "relaysTable");
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 3, 10000);
        selectRow(table, 0);
        selectRow(table, 1, Qt::ControlModifier);
        auto* pageReason = child<QLineEdit>(&window, "relayReason");
        QTest::keyClicks(pageReason, QStringLiteral("maintenance"));
        QTest::mouseClick(child<QPushButton>(&window, "pauseRelay"), Qt::LeftButton);

        QPointer<QDialog> dialog = waitForDialog(QStringLiteral("relayControlDialog"));
        QVERIFY(dialog);
        QCOMPARE(countRows(*db, QStringLiteral("{relays}"), QStringLiteral("desired_state = 'PAUSE'")),
                 qint64(0));
        QCOMPARE(pageReason->text(), QString()); // never reused silently by the next click
        auto* preview = child<QTableWidget>(dialog, "relayPreview");
        QCOMPARE(preview->rowCount(), 2);
        QStringList previewed{preview->item(0, 0)->text(), preview->item(1, 0)->text()};
        previewed.sort();
        QCOMPARE(previewed, (QStringList{QStringLiteral("relay-1"), QStringLiteral("relay-2")}));
        auto* run = child<QPushButton>(dialog, "relayControlRun");
        auto* confirm = child<QLineEdit>(dialog, "relayControlConfirm");
        QVERIFY(confirm->isVisible()); // production profile
        // Reason given, confirmation not yet: the run waits for it.
        QVERIFY(confirmAndRun(confirm, run, QStringLiteral("pause 2")));
        QTRY_VERIFY_WITH_TIMEOUT(!dialog || !dialog->isVisible(), 10000);
        QCOMPARE(countRows(*db, QStringLiteral("{relays}"), QStringLiteral("desired_state = 'PAUSE'")),
                 qint64(2));
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"),
                           QStringLiteral("action = 'relay.pause' AND reason = 'maintenance'")),
                 qint64(1));

        // Resume a relay that is gone meanwhile: the error is shown in the dialog, which stays.
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 3, 10000);
        selectRow(table, 2);
        QTest::mouseClick(child<QPushButton>(&window, "resumeRelay"), Qt::LeftButton);
        dialog = waitForDialog(QStringLiteral("relayControlDialog"));
        QVERIFY(dialog);
        run = child<QPushButton>(dialog, "relayControlRun");
        QVERIFY(!run->isEnabled()); // no reason carried over
        QTest::keyClicks(child<QLineEdit>(dialog, "relayControlReason"), QStringLiteral("back to work"));
        QTest::keyClicks(child<QLineEdit>(dialog, "relayControlConfirm"), QStringLiteral("resume 1"));
        QVERIFY(db->exec(QStringLiteral("DELETE FROM {relays} WHERE worker_id = 'relay-3'")).ok());
        QTest::mouseClick(run, Qt::LeftButton);
        auto* error = child<QLabel>(dialog, "relayControlError");
        QTRY_VERIFY_WITH_TIMEOUT(error->isVisible() && error->text().contains(QStringLiteral("relay-3")),
                                 10000);
        QVERIFY(dialog->isVisible());
        dialog->reject();
    }

    // Item 8: a configuration error ends the supervision and says why; Stop during the backoff
    // ends in "stopped"; the relay's log has no -1 figures.
    void managedRelaySupervision()
    {
        const QString outboxctl = qEnvironmentVariable("OUTBOXCTL");
        if (outboxctl.isEmpty())
            QSKIP("OUTBOXCTL not set");
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("managed-sup"));
        MainWindow window;
        window.show();
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 10000); // connected once checked
        window.pages()->setCurrentWidget(window.relays());
        auto* state = child<QLabel>(&window, "managedRelayState");
        auto* log = child<QPlainTextEdit>(&window, "relayLog");
        ManagedRelay* relay = window.relays()->managedRelay();

        // No bootstrap servers: exit code 2, not restarted.
        QTest::mouseClick(child<QPushButton>(&window, "startRelay"), Qt::LeftButton);
        QTRY_VERIFY2_WITH_TIMEOUT(state->text().startsWith(QStringLiteral("stopped")),
                                  qPrintable(state->text() + QLatin1Char('\n') + log->toPlainText()), 15000);
        QVERIFY2(state->text().contains(QStringLiteral("bootstrap")), qPrintable(state->text()));
        QVERIFY(!relay->isSupervising());
        QTest::qWait(2500);
        QCOMPARE(relay->restarts(), 0);
        QVERIFY(!relay->isRunning());

        // A child that keeps failing (exit 1) is restarted with a backoff; Stop during the backoff
        // ends in "stopped".
        QTemporaryDir dir;
        const QString failing = dir.filePath(QStringLiteral("failing-relay"));
        {
            QFile script(failing);
            QVERIFY(script.open(QIODevice::WriteOnly));
            script.write("#!/bin/sh\necho 'database unreachable'\nexit 1\n");
        }
        QFile::setPermissions(failing, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        qputenv("OUTBOXCTL", failing.toLocal8Bit());
        QTest::mouseClick(child<QPushButton>(&window, "startRelay"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(state->text(), ManagedRelay::tr("restarting"), 10000);
        QVERIFY(!relay->isRunning());
        QTest::mouseClick(child<QPushButton>(&window, "stopRelay"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(state->text(), ManagedRelay::tr("stopped"), 5000);
        QTest::qWait(2500); // past the backoff: nothing restarts, the state stays

        QCOMPARE(state->text(), ManagedRelay::tr("stopped"));
        QVERIFY(!relay->isRunning());
        qputenv("OUTBOXCTL", outboxctl.toLocal8Bit());

        // A real relay with nothing to send: its statistics never print -1.
        auto started =
            startOutboxctl({QStringLiteral("kafka"), QStringLiteral("--topic"), QStringLiteral("Order:1")});
        QProcess& broker = *started;
        QVERIFY(broker.canReadLine() || broker.waitForReadyRead(10000));
        const QByteArray line = broker.readLine().trimmed();
        QVERIFY2(line.startsWith("bootstrap 127.0.0.1:"), line.constData());
        log->clear();
        QTest::keyClicks(child<QLineEdit>(&window, "relayArguments"),
                         QStringLiteral("--kafka-bootstrap ") + QString::fromUtf8(line.mid(10)));
        QTest::mouseClick(child<QPushButton>(&window, "startRelay"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(relay->isRunning(), 10000);
        QTest::qWait(1500);
        QTest::mouseClick(child<QPushButton>(&window, "stopRelay"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(state->text(), ManagedRelay::tr("stopped"), 20000);
        QVERIFY2(log->toPlainText().contains(QStringLiteral("commit->ack p50 n/a")),
                 qPrintable(log->toPlainText()));
        QVERIFY(!log->toPlainText().contains(QStringLiteral("-1 ms")));
        broker.terminate();
        QVERIFY(broker.waitForFinished(10000));
    }

    // Item 10: the status bar moves on from "Connecting"; empty tables say why; Tab skips the
    // unticked date fields.
    void smallThings()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("small"));
        insertEvents(*db, 5);
        MainWindow window;
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(connectThroughDialog(window, TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 1, 10000);
        QVERIFY2(!window.statusBar()->currentMessage().startsWith(QStringLiteral("Connecting")),
                 qPrintable(window.statusBar()->currentMessage()));
        QVERIFY(window.statusBar()->currentMessage().startsWith(QStringLiteral("Connected")));

        // No FAILED events: the empty table says so.
        window.pages()->setCurrentWidget(window.events());
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->model() && window.events()->model()->rowCount() == 5,
                                 10000);
        auto* status = child<QComboBox>(&window, "filterStatus");
        status->setFocus();
        status->setCurrentIndex(status->findData(QStringLiteral("FAILED")));
        QTest::mouseClick(child<QPushButton>(&window, "applyFilter"), Qt::LeftButton);
        auto* eventsTable = child<QTableView>(&window, "eventsTable");
        QLabel* hint = eventsTable->findChild<QLabel*>(QStringLiteral("emptyHint"));
        QVERIFY(hint);
        QTRY_VERIFY_WITH_TIMEOUT(
            hint->isVisible() && hint->text().contains(QStringLiteral("No FAILED events — good")), 10000);
        QLabel* groupsHint =
            child<QTableView>(&window, "failureGroups")->findChild<QLabel*>(QStringLiteral("emptyHint"));
        QTRY_VERIFY_WITH_TIMEOUT(groupsHint->isVisible(), 10000);

        // Tab from "from" goes to "until", past the unticked date field.
        auto* from = child<QCheckBox>(&window, "filterFromEnabled");
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        from->setFocus();
        QTRY_VERIFY_WITH_TIMEOUT(from->hasFocus(), 5000);
        QTest::keyClick(from, Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), child<QWidget>(&window, "filterUntilEnabled"));
        QTest::keyClick(child<QCheckBox>(&window, "filterUntilEnabled"), Qt::Key_Space);
        QVERIFY(child<QWidget>(&window, "filterUntil")->isEnabled());

        // Dead letters and audit are empty too, and say so.
        window.pages()->setCurrentWidget(window.deadLetters());
        QLabel* dlqHint =
            child<QTableView>(&window, "deadLettersTable")->findChild<QLabel*>(QStringLiteral("emptyHint"));
        QTRY_VERIFY_WITH_TIMEOUT(dlqHint->isVisible() && !dlqHint->text().isEmpty(), 10000);
    }

    // Item 10: in zh_CN the chart legends, DEAD and the error class are translated labels and
    // times keep their seconds.
    void chineseLabels()
    {
        QTranslator translator;
        QVERIFY(translator.load(outbox::test::qmPath(QStringLiteral("outbox_console_zh_CN.qm"))));
        QCoreApplication::installTranslator(&translator);
        const QLocale saved;
        QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("zh"));
        const auto ids = insertEvents(*db, 4);
        forceStatus(*db, ids.mid(0, 2), QStringLiteral("FAILED"), QStringLiteral("schema check failed"));
        QVERIFY(
            db->exec(QStringLiteral(
                         "UPDATE {events} SET last_error_class = 'deterministic' WHERE status = 'FAILED'"))
                .ok());
        {
            MainWindow window;
            window.show();
            QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
            QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 10000);
            auto* backlog = child<QChartView>(&window, "backlogChartView");
            QStringList legends;
            for (QAbstractSeries* s : backlog->chart()->series())
                legends << s->name();
            QVERIFY2(!legends.contains(QStringLiteral("DEAD")) &&
                         !legends.contains(QStringLiteral("PENDING")),
                     qPrintable(legends.join(QLatin1Char(' '))));
            auto* status = child<QComboBox>(&window, "filterStatus");
            QVERIFY(status->findText(QStringLiteral("DEAD")) < 0);
            QVERIFY(status->findData(QStringLiteral("DEAD")) >= 0);
            window.pages()->setCurrentWidget(window.events());
            QTRY_VERIFY_WITH_TIMEOUT(window.events()->groupsModel()->rowCount() == 1, 10000);
            const QString errorClass =
                window.events()->groupsModel()->record(0).value(QStringLiteral("error_class")).toString();
            QVERIFY2(errorClass != QStringLiteral("deterministic") && !errorClass.isEmpty(),
                     qPrintable(errorClass));
            QTRY_VERIFY_WITH_TIMEOUT(window.events()->model() && window.events()->model()->rowCount() == 4,
                                     10000);
            const QString created =
                window.events()->model()->index(0, EventTableModel::CreatedColumn).data().toString();
            QVERIFY2(QRegularExpression(QStringLiteral("\\d\\d:\\d\\d:\\d\\d$")).match(created).hasMatch(),
                     qPrintable(created));
            QVERIFY2(QRegularExpression(QStringLiteral("\\d\\d:\\d\\d:\\d\\d"))
                         .match(child<QLabel>(&window, "lastUpdated")->text())
                         .hasMatch(),
                     qPrintable(child<QLabel>(&window, "lastUpdated")->text()));
        }
        QLocale::setDefault(saved);
        QCoreApplication::removeTranslator(&translator);
    }
};

QTEST_MAIN(TestOperatorConsole)
#include "tst_operatorconsole.moc"
