// The Recovery page driven like an operator drives it: real widgets, QTest clicks and keys, a
// real database. Finding → evidence (sample in the inspector) → runbook tick → prepared action →
// preview → reason (prefilled with the finding id) → typed confirmation → chunked run (with
// Cancel) → verification that the check no longer finds it, and audit rows naming the finding.
#include "core/config/Config.h"
#include "core/ops/NotifyTrigger.h"
#include "core/support/Failpoints.h"
#include "tests/support/ConsoleClicks.h"
#include "tests/support/DeadLetters.h"
#include "tests/support/NotifyingWriters.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/WidgetFinder.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/recovery/FindingsModel.h"
#include "ui/desktop/recovery/RecoveryFlow.h"
#include "ui/desktop/recovery/RecoveryPage.h"
#include "ui/desktop/relays/ManagedRelay.h"
#include "ui/desktop/relays/RelaysPage.h"
#include "ui/desktop/widgets/EventInspector.h"

#include <QAbstractItemModelTester>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
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

namespace {

void failEvents(Database& db, const QVector<qint64>& ids, const QString& error)
{
    forceStatus(db, ids, QStringLiteral("FAILED"), error);
    if (!db.exec(QStringLiteral(
                     "UPDATE {events} SET last_error_class = 'deterministic' WHERE status = 'FAILED'"))
             .ok())
        qFatal("update failed");
}

// Opens the Recovery tab with a click and chooses the finding with `id` in the list.

// Clicks "Run the doctor now" once it may be clicked (not while a run is under way).
bool runDoctor(MainWindow& window)
{
    auto* button = child<QPushButton>(&window, "runDoctor");
    if (!QTest::qWaitFor([&]() { return button->isEnabled(); }, 30000))
        return false;
    QTest::mouseClick(button, Qt::LeftButton);
    return true;
}

// Selects the prepared action whose label starts with `label` and clicks Preview.
bool previewAction(RecoveryFlow* flow, const QString& label)
{
    auto* actions = child<QListWidget>(flow, "findingActions");
    for (int i = 0; i < actions->count(); ++i) {
        if (actions->item(i)->text().startsWith(label)) {
            QTest::mouseClick(actions->viewport(), Qt::LeftButton, {},
                              actions->visualItemRect(actions->item(i)).center());
            auto* preview = child<QPushButton>(flow, "previewAction");
            if (!preview->isEnabled())
                return false;
            QTest::mouseClick(preview, Qt::LeftButton);
            return QTest::qWaitFor([&]() { return flow->step() == RecoveryFlow::Preview; }, 20000);
        }
    }
    return false;
}

} // namespace

class TestRecoveryPage : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("OutboxConsoleTest"));
        QStandardPaths::setTestModeEnabled(true);
    }
    void cleanup() { QVERIFY(Failpoints::configure(QString()).ok()); }

    void findingsModelPassesTheTester()
    {
        FindingsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        Finding f;
        f.id = QStringLiteral("failed-events");
        f.key = QStringLiteral("failed-events/x");
        f.severity = Severity::Critical;
        f.title = QStringLiteral("3 FAILED event(s): boom");
        f.evidence.count = 3;
        model.setFindings({f, f});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.data(model.index(0, FindingsModel::SeverityColumn)).toString(),
                 QStringLiteral("CRITICAL"));
        QCOMPARE(model.rowOfKey(QStringLiteral("failed-events/x")), 0);
        model.setFindings({});
        QCOMPARE(model.rowCount(), 0);
    }

    void recoverFailedEventsEndToEnd_data() { TestDatabases::addKinds(); }
    void recoverFailedEventsEndToEnd()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("recovery")));
        const auto ids = insertEvents(*db, 6);
        failEvents(*db, ids, QStringLiteral("Broker: Topic authorization failed"));

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        // The tab counts the findings by severity.
        const int tab = window.pages()->indexOf(window.recovery());
        QTRY_COMPARE_WITH_TIMEOUT(window.pages()->tabText(tab),
                                  QStringLiteral("Recovery (1 critical, 0 warning)"), 20000);

        QVERIFY(chooseFinding(window, QStringLiteral("failed-events")));
        RecoveryFlow* flow = window.recovery()->flow();
        QCOMPARE(flow->step(), int(RecoveryFlow::WhatHappened));
        QVERIFY(child<QLabel>(flow, "findingTitle")->text().contains(QLatin1String("6 FAILED event(s)")));
        QVERIFY(child<QLabel>(flow, "findingEvidence")->text().startsWith(QLatin1String("6 events")));
        auto* causes = child<QListWidget>(flow, "findingCauses");
        QVERIFY(causes->item(0)->text().contains(QLatin1String("not allowed to write")));

        // A sample opens in the inspector.
        auto* samples = child<QListWidget>(flow, "findingSamples");
        QCOMPARE(samples->count(), 6);
        QTest::mouseClick(samples->viewport(), Qt::LeftButton, {},
                          samples->visualItemRect(samples->item(1)).center());
        QTest::mouseClick(child<QPushButton>(flow, "openSample"), Qt::LeftButton);
        QDialog* inspectorDialog = nullptr;
        QVERIFY(QTest::qWaitFor(
            [&]() {
                return (inspectorDialog = window.findChild<QDialog*>(QStringLiteral("sampleInspector"))) !=
                       nullptr;
            },
            5000));
        auto* inspector = inspectorDialog->findChild<EventInspector*>();
        QTRY_COMPARE_WITH_TIMEOUT(inspector->eventId(), ids[1], 10000);
        QTest::mouseClick(inspectorDialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Close),
                          Qt::LeftButton);

        // Tick off the first runbook step.
        auto* runbook = child<QListWidget>(flow, "findingRunbook");
        QTest::mouseClick(runbook->viewport(), Qt::LeftButton, {},
                          runbook->visualItemRect(runbook->item(0)).center());
        QTest::keyClick(runbook, Qt::Key_Space);
        QCOMPARE(runbook->item(0)->checkState(), Qt::Checked);

        // The prepared requeue: its command line, then the preview (a dry run).
        QVERIFY(previewAction(flow, QStringLiteral("Requeue the 6 FAILED")));
        // Exactly the group's events, with the finding as its reason (issue 25: runs as printed).
        const QString command = child<QLineEdit>(flow, "recoveryCommand")->text();
        QVERIFY2(command.startsWith(QLatin1String("outboxctl requeue ")) &&
                     command.contains(QLatin1String(" '--reason=failed-events: Requeue the 6 FAILED")) &&
                     command.endsWith(QLatin1String(" -- 1 2 3 4 5 6")),
                 qPrintable(command));
        QVERIFY2(
            child<QLabel>(flow, "previewSummary")->text().contains(QLatin1String("6 row(s) will change")),
            qPrintable(child<QLabel>(flow, "previewSummary")->text()));
        QCOMPARE(child<QTableWidget>(flow, "previewSample")->rowCount(), 6);
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")), qint64(6));

        // Reason prefilled with the finding id; the run needs more reason and the typed confirmation.
        auto* reason = child<QLineEdit>(flow, "recoveryReason");
        auto* confirm = child<QLineEdit>(flow, "recoveryConfirm");
        auto* run = child<QPushButton>(flow, "recoveryRun");
        QCOMPARE(reason->text(), QStringLiteral("failed-events: "));
        QVERIFY(!run->isEnabled());
        QTest::keyClicks(reason, QStringLiteral("ACL fixed (INC-7)"));
        QVERIFY(!run->isEnabled());
        QVERIFY(confirm->isVisible());
        QVERIFY(confirmAndRun(confirm, run, QStringLiteral("requeue 6"), QStringLiteral("requeue 5")));

        // Verification: the check runs again and the finding is gone.
        auto* verification = child<QLabel>(flow, "verificationResult");
        QTRY_VERIFY_WITH_TIMEOUT(verification->property("findingGone").isValid(), 20000);
        QVERIFY2(verification->property("findingGone").toBool(), qPrintable(verification->text()));
        QVERIFY(verification->text().contains(QLatin1String("Before: 6 events")));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")), qint64(6));
        const qint64 audits =
            countRows(*db, QStringLiteral("{audit}"),
                      QStringLiteral("action = 'events.requeue' AND reason = "
                                     "'failed-events: ACL fixed (INC-7)' AND affected_count = 6"));
        QCOMPARE(audits, qint64(1));
        const QString auditText = child<QLabel>(flow, "verificationAudit")->text();
        QVERIFY2(auditText.contains(QLatin1String("failed-events: ACL fixed (INC-7)")),
                 qPrintable(auditText));
        // The page runs the doctor again: the failure group left the list.
        QTRY_VERIFY_WITH_TIMEOUT(window.recovery()->model()->rowOfKey(flow->finding().key) < 0, 20000);
        QTest::mouseClick(child<QPushButton>(flow, "backToFindings"), Qt::LeftButton);
        QCOMPARE(flow->step(), int(RecoveryFlow::WhatHappened));
    }

    // 2,500 FAILED events run in chunks of 1,000; Cancel after the first stops the rest.
    // Issue 25 item 1: the no-relay finding offers "Start a managed relay" with the configured
    // bootstrap and the ordering the events need (an aggregate is blocked: --ordering=aggregate);
    // a click starts the console's managed relay and the backlog is sent, the blocked aggregate kept.
    void noRelayFindingStartsAManagedRelay()
    {
        auto broker =
            startOutboxctl({QStringLiteral("kafka"), QStringLiteral("--topic"), QStringLiteral("Order:3")});
        QVERIFY(broker->canReadLine() || broker->waitForReadyRead(10000));
        const QByteArray line = broker->readLine().trimmed();
        QVERIFY2(line.startsWith("bootstrap 127.0.0.1:"), line.constData());
        const QString bootstrap = QString::fromUtf8(line.mid(10));

        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("startrelay")));
        insertEvents(*db, 20, QStringLiteral("OrderCreated"), QStringLiteral("free-"));
        const QVector<qint64> blocking =
            insertEvents(*db, 1, QStringLiteral("OrderCreated"), QStringLiteral("held-"));
        insertEvents(*db, 1, QStringLiteral("OrderCreated"), QStringLiteral("held-"));
        failEvents(*db, blocking, QStringLiteral("boom"));

        config::ConfigInputs inputs;
        inputs.environment = {{QStringLiteral("OUTBOX_KAFKA_BOOTSTRAP"), bootstrap}};
        auto configuration = config::Config::load(inputs);
        QVERIFY2(configuration.ok(), qPrintable(configuration.message()));
        MainWindow window;
        window.setConfiguration(*configuration);
        window.show();
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QVERIFY(chooseFinding(window, QStringLiteral("no-relay")));
        RecoveryFlow* flow = window.recovery()->flow();
        auto* actions = child<QListWidget>(flow, "findingActions");
        QCOMPARE(actions->count(), 1);
        QTest::mouseClick(actions->viewport(), Qt::LeftButton, {},
                          actions->visualItemRect(actions->item(0)).center());
        const QString command = child<QLineEdit>(flow, "recoveryCommand")->text();
        QVERIFY2(command.contains(QStringLiteral("--broker=kafka://") + bootstrap), qPrintable(command));
        QVERIFY2(command.contains(QStringLiteral("--ordering=aggregate")), qPrintable(command));
        auto* start = child<QPushButton>(flow, "startManagedRelay");
        QVERIFY(start->isVisible());
        QVERIFY(start->isEnabled());
        QTest::mouseClick(start, Qt::LeftButton);
        QCOMPARE(window.pages()->currentWidget(), window.relays());
        QTRY_VERIFY_WITH_TIMEOUT(window.relays()->managedRelay()->isRunning(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'SENT'")), qint64(20), 30000);
        QTest::qWait(1000);
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'")), qint64(1));
        QTest::mouseClick(child<QPushButton>(&window, "stopRelay"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!window.relays()->managedRelay()->isRunning(), 20000);
        terminateAndWait(*broker);
    }

    void chunkedRunWithCancel()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("cancel")));
        const auto ids = insertEvents(*db, 2500);
        failEvents(*db, ids, QStringLiteral("Broker: Message size too large"));
        QVERIFY(Failpoints::configure(QStringLiteral("ops.bulk.between_chunks=sleep(1500)")).ok());

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QVERIFY(chooseFinding(window, QStringLiteral("failed-events")));
        RecoveryFlow* flow = window.recovery()->flow();
        QVERIFY(previewAction(flow, QStringLiteral("Requeue the 2500 FAILED")));
        QTest::keyClicks(child<QLineEdit>(flow, "recoveryReason"), QStringLiteral("limit raised"));
        QTest::keyClicks(child<QLineEdit>(flow, "recoveryConfirm"), QStringLiteral("requeue 2500"));
        QTest::mouseClick(child<QPushButton>(flow, "recoveryRun"), Qt::LeftButton);
        auto* progress = child<QProgressBar>(flow, "recoveryProgress");
        QTRY_VERIFY_WITH_TIMEOUT(progress->value() >= 1000, 20000);
        QCOMPARE(flow->step(), int(RecoveryFlow::Running));
        QTest::mouseClick(child<QPushButton>(flow, "recoveryCancel"), Qt::LeftButton);
        auto* verification = child<QLabel>(flow, "verificationResult");
        QTRY_VERIFY_WITH_TIMEOUT(verification->property("findingGone").isValid(), 30000);
        QVERIFY(!verification->property("findingGone").toBool()); // the rest is still FAILED
        QVERIFY2(verification->text().contains(QLatin1String("Before: 2500 events")),
                 qPrintable(verification->text()));
        const qint64 pending =
            countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'PENDING'"));
        QVERIFY2(pending >= 1000 && pending < 2500, qPrintable(QString::number(pending)));
        QCOMPARE(countRows(*db, QStringLiteral("{events}"), QStringLiteral("status = 'FAILED'")),
                 2500 - pending);
        QCOMPARE(countRows(*db, QStringLiteral("{audit}"),
                           QStringLiteral("reason = 'failed-events: limit raised'")),
                 pending / 1000);
        QVERIFY(child<QLabel>(flow, "verificationAudit")->text().contains(QLatin1String("cancelled")));
    }

    // Issue 40 item 7: the Recovery flow's preview reads like the Events and Blocked dialogs: the same
    // captions in the user's language (not column names), aggregates as type/id, what a requeue means
    // for the later events of each aggregate (ordering), and a stale relay's heartbeat as an age.
    void previewReadsLikeTheActionDialogs()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("previewwords")));
        const QVector<qint64> blocking =
            insertEvents(*db, 1, QStringLiteral("OrderChanged"), QStringLiteral("O-42-"));
        // Two later events of the same aggregate wait behind it (ordering mode).
        exec(*db,
             QStringLiteral("INSERT INTO {events} (event_id, aggregate_type, aggregate_id, event_type, "
                            "topic, payload) VALUES ('later-1', 'Order', 'O-42-0', 'OrderChanged', "
                            "'Order', '{}'), ('later-2', 'Order', 'O-42-0', 'OrderChanged', 'Order', '{}')"));
        failEvents(*db, blocking, QStringLiteral("Broker: Topic authorization failed"));

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QVERIFY(chooseFinding(window, QStringLiteral("failed-events")));
        RecoveryFlow* flow = window.recovery()->flow();
        QVERIFY(previewAction(flow, QStringLiteral("Requeue the 1 FAILED")));
        auto* sample = child<QTableWidget>(flow, "previewSample");
        QStringList captions;
        for (int c = 0; c < sample->columnCount(); ++c)
            captions << sample->horizontalHeaderItem(c)->text();
        QCOMPARE(captions, (QStringList{QStringLiteral("Id"), QStringLiteral("Type"),
                                        QStringLiteral("Aggregate"), QStringLiteral("Error")}));
        QCOMPARE(sample->rowCount(), 1);
        QCOMPARE(sample->item(0, 0)->text(), QString::number(blocking.first()));
        QCOMPARE(sample->item(0, 2)->text(), QStringLiteral("Order/O-42-0"));
        QCOMPARE(sample->item(0, 3)->text(), QStringLiteral("Broker: Topic authorization failed"));
        auto* ordering = child<QLabel>(flow, "recoveryOrdering");
        QVERIFY(ordering->isVisible());
        QVERIFY2(ordering->text().contains(
                     QStringLiteral("2 later event(s) of Order/O-42-0 will be sent after it")),
                 qPrintable(ordering->text()));

        // Back on step 1, a stale relay: the forget's preview names workers, states and ages.
        QTest::mouseClick(child<QPushButton>(flow, "backToFinding"), Qt::LeftButton);
        registerRelay(*db, QStringLiteral("relay-gone"), 10 * 60 * 1000);
        QVERIFY(runDoctor(window));
        QVERIFY(chooseFinding(window, QStringLiteral("relay-stale")));
        QVERIFY(previewAction(flow, QStringLiteral("Forget")));
        captions.clear();
        for (int c = 0; c < sample->columnCount(); ++c)
            captions << sample->horizontalHeaderItem(c)->text();
        QCOMPARE(captions,
                 (QStringList{QStringLiteral("Worker"), QStringLiteral("Host"), QStringLiteral("State"),
                              QStringLiteral("Desired"), QStringLiteral("Heartbeat age")}));
        QCOMPARE(sample->rowCount(), 1);
        QCOMPARE(sample->item(0, 0)->text(), QStringLiteral("relay-gone"));
        QCOMPARE(sample->item(0, 1)->text(), QStringLiteral("relay-host"));
        QCOMPARE(sample->item(0, 4)->text(), QStringLiteral("10 min"));
        QVERIFY(!ordering->isVisible()); // relays have no aggregates
    }

    // Issue 40 item 7: relay-stale counts the leases the stale relay's events still hold, not what its
    // last heartbeat reported (the reaper may have taken them back since).
    void relayStaleCountsTheLeasesStillHeld()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("staleleases")));
        const auto ids = insertEvents(*db, 5);
        registerRelay(*db, QStringLiteral("relay-killed"), 10 * 60 * 1000);
        // Its last heartbeat said 5 leases; 3 of its events are still SENDING, the reaper took 2 back.
        exec(*db, QStringLiteral("UPDATE {relays} SET leases_held = 5 WHERE worker_id = 'relay-killed'"));
        exec(*db,
             QStringLiteral(
                 "UPDATE {events} SET status = 'SENDING', worker_id = 'relay-killed', lease_until = %1 "
                 "WHERE id <= :last")
                 .arg(db->dialect().nowPlusMillis(QStringLiteral(":ms"))),
             {{QStringLiteral(":ms"), 600000}, {QStringLiteral(":last"), ids.at(2)}});

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QVERIFY(chooseFinding(window, QStringLiteral("relay-stale")));
        auto* runbook = child<QListWidget>(window.recovery()->flow(), "findingRunbook");
        QStringList steps;
        for (int i = 0; i < runbook->count(); ++i)
            steps << runbook->item(i)->text();
        QVERIFY2(steps.join(QLatin1Char('\n')).contains(QLatin1String("Its 3 SENDING lease(s) expire")),
                 qPrintable(steps.join(QLatin1Char('\n'))));

        // Once the reaper took them all back, the step about leases is gone.
        forceStatus(*db, ids, QStringLiteral("PENDING"));
        QVERIFY(runDoctor(window));
        QTRY_VERIFY_WITH_TIMEOUT(
            [&]() {
                for (int i = 0; i < runbook->count(); ++i)
                    if (runbook->item(i)->text().contains(QLatin1String("SENDING lease(s)")))
                        return false;
                return runbook->count() > 0;
            }(),
            20000);
    }

    // Issue 40 item 6: the notify-lock-wait finding is fixed from the console as the CLI fixes it: its
    // prepared switch is previewed (the trigger, on), run with a reason (audited, through core's
    // NotifyTrigger) and verified (the check finds nothing any more).
    void notifyLockWaitIsSwitchedOffFromTheConsole()
    {
        if (!TestDatabases::available(QStringLiteral("postgresql")))
            QSKIP("no PostgreSQL test server configured");
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"),
                                       TestDatabases::uniqueName(QStringLiteral("notifyoff")));
        auto on = NotifyTrigger(*db).setEnabled(true, QStringLiteral("lowest idle latency"),
                                                QStringLiteral("tester"));
        QVERIFY2(on.ok() && on->changed, qPrintable(on.message()));

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        // Writers commit at once with the trigger on: the doctor sees their commits wait.
        auto writers = startNotifyingWriters(*db, 8);
        FindingsModel* model = window.recovery()->model();
        const auto listed = [&]() {
            for (int i = 0; i < model->rowCount(); ++i)
                if (model->at(i)->id == QLatin1String("notify-lock-wait"))
                    return true;
            return false;
        };
        for (int attempt = 0; attempt < 10 && !listed(); ++attempt) {
            QVERIFY(runDoctor(window));
            (void)QTest::qWaitFor(listed, 5000);
        }
        stopWriters(*db, writers);
        QVERIFY2(listed(), "no commit was seen waiting for the notification lock");

        QVERIFY(chooseFinding(window, QStringLiteral("notify-lock-wait")));
        RecoveryFlow* flow = window.recovery()->flow();
        QVERIFY(previewAction(flow, QStringLiteral("Switch the wake-up trigger off")));
        QVERIFY2(
            child<QLabel>(flow, "previewSummary")->text().contains(QLatin1String("1 row(s) will change")),
            qPrintable(child<QLabel>(flow, "previewSummary")->text()));
        auto* sample = child<QTableWidget>(flow, "previewSample");
        QCOMPARE(sample->rowCount(), 1);
        QCOMPARE(sample->horizontalHeaderItem(1)->text(), QStringLiteral("Wake-up trigger"));
        QCOMPARE(sample->item(0, 0)->text(), db->dialect().table(QStringLiteral("outbox_events")));
        QCOMPARE(sample->item(0, 2)->text(), QStringLiteral("on"));
        auto* run = child<QPushButton>(flow, "recoveryRun");
        QVERIFY(!run->isEnabled()); // the prefilled reason alone is not enough
        QTest::keyClicks(child<QLineEdit>(flow, "recoveryReason"), QStringLiteral("writers wait (INC-9)"));
        QVERIFY(run->isEnabled());
        QTest::mouseClick(run, Qt::LeftButton);

        auto* verification = child<QLabel>(flow, "verificationResult");
        QTRY_VERIFY_WITH_TIMEOUT(verification->property("findingGone").isValid(), 30000);
        QVERIFY2(verification->property("findingGone").toBool(), qPrintable(verification->text()));
        auto state = NotifyTrigger(*db).state();
        QVERIFY(state.ok());
        QVERIFY(!state->enabled);
        QCOMPARE(
            countRows(*db, QStringLiteral("{audit}"),
                      QStringLiteral("action = 'notify.off' AND reason = 'notify-lock-wait: writers wait "
                                     "(INC-9)' AND affected_count = 1")),
            qint64(1));
        QVERIFY2(child<QLabel>(flow, "verificationAudit")->text().contains(QLatin1String("1 row(s) changed")),
                 qPrintable(child<QLabel>(flow, "verificationAudit")->text()));
    }

    // Issue 40 item 3: when the consumer refused the messages themselves (the payload may be the
    // cause), the dead-letters runbook says repair, then replay, and the preselected prepared action
    // is the repair (Edit group…), not a replay that would make the same dead letters again; the
    // repair and the replay then run from the flow by clicks. When the retries ran out, the replay
    // is preselected as before.
    void deadLettersRunbookRepairsBeforeReplaying()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"),
                                       TestDatabases::uniqueName(QStringLiteral("dlqrunbook")));
        for (int i = 0; i < 25; ++i) {
            QVERIFY(
                insertDeadLetter(*db, QStringLiteral("inventory"), QStringLiteral("e-%1").arg(i), "{}",
                                 QStringLiteral("{\"order_id\":\"o%1\",\"sku\":\"SKU-l\"}").arg(i).toUtf8(),
                                 QStringLiteral("unknown SKU SKU-l"))
                    .ok());
        }
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QVERIFY(chooseFinding(window, QStringLiteral("dead-letters")));
        RecoveryFlow* flow = window.recovery()->flow();
        auto* runbook = child<QListWidget>(flow, "findingRunbook");
        QStringList steps;
        for (int i = 0; i < runbook->count(); ++i)
            steps << runbook->item(i)->text();
        const auto stepOf = [&steps](const QString& start) {
            for (int i = 0; i < steps.size(); ++i)
                if (steps.at(i).section(QStringLiteral(". "), 1).startsWith(start))
                    return i;
            return -1;
        };
        const int repairStep = stepOf(QStringLiteral("Before any replay, find out whether the payload"));
        const int replayStep = stepOf(QStringLiteral("Then, once the payloads are repaired"));
        QVERIFY2(repairStep >= 0 && replayStep > repairStep, qPrintable(steps.join(QLatin1Char('\n'))));
        QCOMPARE(stepOf(QStringLiteral("Replay the group")), -1);
        auto* causes = child<QListWidget>(flow, "findingCauses");
        QVERIFY(causes->count() == 3 &&
                causes->item(1)->text().contains(QLatin1String("refused the messages")));
        // The preselected action is the repair: no preview of a replay, the group's editor instead.
        auto* actions = child<QListWidget>(flow, "findingActions");
        QCOMPARE(actions->currentRow(), 0);
        QVERIFY2(actions->item(0)->text().startsWith(QLatin1String("Repair the payloads of the 25")),
                 qPrintable(actions->item(0)->text()));
        auto* preview = child<QPushButton>(flow, "previewAction");
        auto* editGroup = child<QPushButton>(flow, "recoveryEditGroup");
        QVERIFY(!preview->isVisible());
        QVERIFY(editGroup->isVisible() && editGroup->isEnabled());
        QVERIFY(child<QLabel>(flow, "recoveryConsequence")
                    ->text()
                    .startsWith(QLatin1String("Nothing changes yet")));

        QTest::mouseClick(editGroup, Qt::LeftButton);
        auto* edit = waitForTopLevel<QDialog>(QStringLiteral("groupEditDialog"));
        QVERIFY(edit);
        QTest::keyClicks(child<QLineEdit>(edit, "groupEditPath"), QStringLiteral("sku"));
        QTest::keyClicks(child<QLineEdit>(edit, "groupEditTo"), QStringLiteral("\"SKU-1\""));
        QTest::mouseClick(child<QPushButton>(edit, "groupEditPreview"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(
            child<QLabel>(edit, "groupEditSummary")->text().startsWith(QLatin1String("25 of 25")), 10000);
        QTest::keyClicks(child<QLineEdit>(edit, "groupEditReason"), QStringLiteral("SKU typo"));
        QTest::keyClicks(child<QLineEdit>(edit, "groupEditConfirm"), QStringLiteral("edit 25"));
        QTest::mouseClick(child<QPushButton>(edit, "groupEditRun"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(countRows(*db, QStringLiteral("{dead_letters}"),
                                            QStringLiteral("edit_count = 1 AND payload LIKE '%\"SKU-1\"%'")),
                                  qint64(25), 10000);
        edit->close();

        // Then the replay: the second prepared action, through its preview.
        QVERIFY(chooseFinding(window, QStringLiteral("dead-letters")));
        QVERIFY(previewAction(flow, QStringLiteral("Replay the 25")));
        QTest::keyClicks(child<QLineEdit>(flow, "recoveryReason"), QStringLiteral("after the repair"));
        QTest::keyClicks(child<QLineEdit>(flow, "recoveryConfirm"), QStringLiteral("replay 25"));
        QTest::mouseClick(child<QPushButton>(flow, "recoveryRun"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(
            countRows(*db, QStringLiteral("{dead_letters}"),
                      QStringLiteral("status = 'REPLAYING' AND payload LIKE '%\"SKU-1\"%'")),
            qint64(25), 20000);

        // Retries that ran out: the payload is not suspected; the replay is preselected.
        auto other = TestDatabases::fresh(QStringLiteral("sqlite"),
                                          TestDatabases::uniqueName(QStringLiteral("dlqretries")));
        for (int i = 0; i < 3; ++i) {
            QVERIFY(insertDeadLetter(*other, QStringLiteral("billing"), QStringLiteral("b-%1").arg(i), "{}",
                                     "{}",
                                     QStringLiteral("retries exhausted after 5 attempts: ledger timeout"))
                        .ok());
        }
        MainWindow second;
        second.show();
        QVERIFY(QTest::qWaitForWindowExposed(&second));
        QVERIFY(second.connectToText(TestDatabases::urlText(other->url())));
        QVERIFY(chooseFinding(second, QStringLiteral("dead-letters")));
        RecoveryFlow* secondFlow = second.recovery()->flow();
        auto* secondActions = child<QListWidget>(secondFlow, "findingActions");
        QCOMPARE(secondActions->currentRow(), 0);
        QVERIFY2(secondActions->item(0)->text().startsWith(QLatin1String("Replay the 3")),
                 qPrintable(secondActions->item(0)->text()));
        QVERIFY(child<QPushButton>(secondFlow, "previewAction")->isVisible());
        QVERIFY(!child<QPushButton>(secondFlow, "recoveryEditGroup")->isVisible());
        auto* secondRunbook = child<QListWidget>(secondFlow, "findingRunbook");
        bool replayStepShown = false;
        for (int i = 0; i < secondRunbook->count(); ++i)
            replayStepShown |= secondRunbook->item(i)->text().contains(QLatin1String(". Replay the group"));
        QVERIFY(replayStepShown);
    }
};

QTEST_MAIN(TestRecoveryPage)
#include "tst_recoverypage.moc"
