#include "core/db/InboxStore.h"
#include "core/support/Failpoints.h"
#include "tests/support/BulkEvents.h"
#include "tests/support/ConsoleClicks.h"
#include "tests/support/OutboxctlProcess.h"
#include "tests/support/TestDatabases.h"
#include "tests/support/WidgetFinder.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/consumers/ConsumersPage.h"
#include "ui/desktop/events/BlockedAggregatesPage.h"
#include "ui/desktop/events/EventTableModel.h"
#include "ui/desktop/events/EventsPage.h"
#include "ui/desktop/overview/OverviewPage.h"
#include "ui/desktop/overview/StatTile.h"
#include "ui/desktop/recovery/RecoveryFlow.h"
#include "ui/desktop/recovery/RecoveryPage.h"
#include "ui/desktop/relays/ManagedRelay.h"
#include "ui/desktop/relays/RelaysPage.h"
#include "ui/desktop/widgets/RecordTableModel.h"

#include <QAbstractSeries>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QDialog>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace outbox;
using namespace outbox::desktop;
using namespace outbox::test;

// Issue 25: pages that never say something false. The real MainWindow, offscreen, driven by the
// clicks and keys an on-call operator uses, over real SQLite databases and real `outboxctl`
// children (relay, embedded broker).
class TestConsoleTruth : public QObject
{
    Q_OBJECT

private:
    // Opens Connection > Connect…, types the URL and presses Connect.
    static QDialog* connectThroughDialog(MainWindow& window, const QString& url)
    {
        menuAction(window, MainWindow::tr("&Connect…"))->trigger();
        auto* dialog = waitForTopLevel<QDialog>(QStringLiteral("connectDialog"));
        if (!dialog)
            return nullptr;
        auto* edit = child<QLineEdit>(dialog, "profileUrl");
        edit->clear();
        QTest::keyClicks(edit, url);
        QTest::mouseClick(child<QPushButton>(dialog, "connectButton"), Qt::LeftButton);
        return dialog;
    }

    static qint64 registeredRelays(Database& db)
    {
        return countRows(db, QStringLiteral("{relays}"), QStringLiteral("1 = 1"));
    }

private slots:
    void cleanup() { QVERIFY(Failpoints::configure(QString()).ok()); }

    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("OutboxConsoleTruthTest"));
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    // Item 6: the managed relay belongs to its connection. Switching asks (stop / keep it running
    // in the background, labelled with its database); the new connection's page shows none of the
    // old relay's state or log and its Start works; coming back finds the relay again.
    void managedRelayBelongsToItsConnection()
    {
        if (qEnvironmentVariable("OUTBOXCTL").isEmpty())
            QSKIP("OUTBOXCTL not set");
        auto a = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("relay-a"));
        auto b = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("relay-b"));
        auto broker =
            startOutboxctl({QStringLiteral("kafka"), QStringLiteral("--topic"), QStringLiteral("Order:1")});
        QVERIFY(broker->canReadLine() || broker->waitForReadyRead(10000));
        const QByteArray line = broker->readLine().trimmed();
        QVERIFY2(line.startsWith("bootstrap 127.0.0.1:"), line.constData());
        const QString bootstrap = QStringLiteral("--kafka-bootstrap ") + QString::fromUtf8(line.mid(10));

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(a->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 10000);
        window.pages()->setCurrentWidget(window.relays());
        auto* state = child<QLabel>(&window, "managedRelayState");
        auto* log = child<QPlainTextEdit>(&window, "relayLog");
        auto* served = child<QLabel>(&window, "managedRelayDatabase");
        QVERIFY2(served->text().contains(a->url().redacted()), qPrintable(served->text()));
        QTest::keyClicks(child<QLineEdit>(&window, "relayArguments"), bootstrap);
        QTest::mouseClick(child<QPushButton>(&window, "startRelay"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(registeredRelays(*a), qint64(1), 15000);
        QPointer<ManagedRelay> relayOfA = window.relays()->managedRelay();
        QVERIFY(relayOfA->isRunning());

        // Switching to B asks what becomes of A's relay, naming A's database.
        QPointer<QDialog> dialog = connectThroughDialog(window, TestDatabases::urlText(b->url()));
        QVERIFY(dialog);
        auto* question = waitForTopLevel<QMessageBox>(QStringLiteral("managedRelayQuestion"));
        QVERIFY2(question, "switching connection did not ask about the running managed relay");
        QVERIFY2(question->text().contains(a->url().redacted()), qPrintable(question->text()));
        // Cancel: still on A, its relay untouched.
        QTest::mouseClick(child<QPushButton>(question, "cancelSwitch"), Qt::LeftButton);
        QTest::qWait(200);
        QVERIFY(window.windowTitle().contains(a->url().redacted()));
        QVERIFY(relayOfA && relayOfA->isRunning());
        QCOMPARE(window.relays()->managedRelay(), relayOfA.data());

        // Again, and keep it running in the background.
        dialog = connectThroughDialog(window, TestDatabases::urlText(b->url()));
        question = waitForTopLevel<QMessageBox>(QStringLiteral("managedRelayQuestion"));
        QVERIFY(question);
        QTest::mouseClick(child<QPushButton>(question, "keepManagedRelay"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.windowTitle().contains(b->url().redacted()), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 10000);
        // B's page: nothing of A's relay as if it were B's.
        QVERIFY(window.relays()->managedRelay() != relayOfA.data());
        QCOMPARE(state->text(), RelaysPage::tr("not running"));
        QVERIFY2(!log->toPlainText().contains(a->url().redacted()), qPrintable(log->toPlainText()));
        QVERIFY2(served->text().contains(b->url().redacted()), qPrintable(served->text()));
        // …while A's relay runs on, listed with the database it serves.
        QVERIFY(relayOfA && relayOfA->isRunning());
        auto* background = child<QTableWidget>(&window, "backgroundRelays");
        QVERIFY(background->isVisible());
        QCOMPARE(background->rowCount(), 1);
        QVERIFY2(background->item(0, 0)->text().contains(a->url().redacted()),
                 qPrintable(background->item(0, 0)->text()));
        QCOMPARE(registeredRelays(*a), qint64(1));
        QCOMPARE(registeredRelays(*b), qint64(0));
        QTest::qWait(2500); // heartbeats and samples go on: A's relay never shows up on B's page
        QCOMPARE(state->text(), RelaysPage::tr("not running"));
        QCOMPARE(window.relays()->model()->rowCount(), 0);

        // Start on B starts B's own relay, with B's own arguments (issue 40 item 4: B's page does
        // not offer A's).
        auto* arguments = child<QLineEdit>(&window, "relayArguments");
        QCOMPARE(arguments->text(), QString());
        QTest::keyClicks(arguments, bootstrap);
        QTest::mouseClick(child<QPushButton>(&window, "startRelay"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(registeredRelays(*b), qint64(1), 15000);
        QPointer<ManagedRelay> relayOfB = window.relays()->managedRelay();
        QVERIFY(relayOfB && relayOfB->isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(log->toPlainText().contains(b->url().redacted()), 5000);
        QVERIFY(!log->toPlainText().contains(a->url().redacted()));

        // Back to A, stopping B's relay: A's page has its relay again, B's stops and deregisters.
        dialog = connectThroughDialog(window, TestDatabases::urlText(a->url()));
        question = waitForTopLevel<QMessageBox>(QStringLiteral("managedRelayQuestion"));
        QVERIFY(question);
        QVERIFY2(question->text().contains(b->url().redacted()), qPrintable(question->text()));
        QTest::mouseClick(child<QPushButton>(question, "stopManagedRelay"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.windowTitle().contains(a->url().redacted()), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(registeredRelays(*b), qint64(0), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!relayOfB, 5000); // stopped, gone from the background list
        QCOMPARE(window.relays()->managedRelay(), relayOfA.data());
        QCOMPARE(state->text(), ManagedRelay::tr("running"));
        QTRY_COMPARE_WITH_TIMEOUT(background->rowCount(), 0, 5000);
        QVERIFY(!background->isVisible());

        QTest::mouseClick(child<QPushButton>(&window, "stopRelay"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(registeredRelays(*a), qint64(0), 20000);
        broker->terminate();
        QVERIFY(broker->waitForFinished(10000));
    }

    // Item 7: nothing stale is shown as if it were live. A killed relay (heartbeat minutes old)
    // is presumed dead, not RUNNING, and its leases are the ones its events still hold (as the
    // Overview counts them); while the database does not answer, tiles and relay tables are marked
    // not current and the charts leave a gap; once it answers again, the outage's errors leave the
    // status bar.
    void staleStateIsNotShownAsLive()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("stale"));
        const auto ids = insertEvents(*db, 12);
        QVERIFY(
            db->exec(QStringLiteral("INSERT INTO {relays} (worker_id, host, pid, state, leases_held, "
                                    "heartbeat_at) VALUES ('relay-killed', 'host-a', 7, 'RUNNING', 0, %1)")
                         .arg(db->dialect().nowPlusMillis(QStringLiteral(":ms"))),
                     {{QStringLiteral(":ms"), -465000}})
                .ok());
        QVERIFY(db->exec(QStringLiteral("UPDATE {events} SET status = 'SENDING', worker_id = 'relay-killed', "
                                        "lease_until = %1 WHERE id <= :last")
                             .arg(db->dialect().nowPlusMillis(QStringLiteral(":ms"))),
                         {{QStringLiteral(":ms"), 600000}, {QStringLiteral(":last"), ids.at(4)}})
                    .ok());

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(connectThroughDialog(window, TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 1, 10000);
        auto* overviewRelays = child<QTableWidget>(&window, "overviewRelays");
        QCOMPARE(overviewRelays->rowCount(), 1);
        QVERIFY2(overviewRelays->item(0, 1)->text() != QStringLiteral("RUNNING") &&
                     overviewRelays->item(0, 1)->text().contains(QStringLiteral("presumed dead")),
                 qPrintable(overviewRelays->item(0, 1)->text()));
        auto* leaseHolders = child<QTableWidget>(&window, "leaseHolders");
        QCOMPARE(leaseHolders->rowCount(), 1);
        QCOMPARE(leaseHolders->item(0, 1)->text(), QStringLiteral("5"));
        window.pages()->setCurrentWidget(window.relays());
        auto* relaysTable = child<QTableView>(&window, "relaysTable");
        QTRY_COMPARE_WITH_TIMEOUT(relaysTable->model()->rowCount(), 1, 10000);
        auto cell = [relaysTable](const QString& title) {
            for (int c = 0; c < relaysTable->model()->columnCount(); ++c)
                if (relaysTable->model()->headerData(c, Qt::Horizontal).toString() == title)
                    return relaysTable->model()->index(0, c).data().toString();
            return QStringLiteral("no column %1").arg(title);
        };
        QVERIFY2(cell(RelaysPage::tr("State")).contains(QStringLiteral("presumed dead")),
                 qPrintable(cell(RelaysPage::tr("State"))));
        QCOMPARE(cell(RelaysPage::tr("Leases")), leaseHolders->item(0, 1)->text());

        // The database stops answering.
        window.pages()->setCurrentWidget(window.overview());
        auto* relaysTile = child<StatTile>(&window, "tile_relays");
        QVERIFY(relaysTile->isCurrent());
        QVERIFY(Failpoints::configure(QStringLiteral("metrics.sample=error")).ok());
        QTRY_VERIFY_WITH_TIMEOUT(!relaysTile->isCurrent(), 10000);
        for (const char* name : {"tile_oldest", "tile_PENDING", "tile_FAILED", "tile_dlq"})
            QVERIFY2(!child<StatTile>(&window, name)->isCurrent(), name);
        QCOMPARE(overviewRelays->item(0, 3)->text(), OverviewPage::tr("not current"));
        QVERIFY2(child<QLabel>(&window, "lastUpdated")->text().contains(QStringLiteral("Not current")),
                 qPrintable(child<QLabel>(&window, "lastUpdated")->text()));
        auto* notCurrent = child<QLabel>(&window, "relaysNotCurrent");
        QVERIFY(!notCurrent->isHidden());
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("does not answer")),
                 qPrintable(window.statusBar()->currentMessage()));
        const int seenBefore = window.snapshotsSeen();
        QTest::qWait(4500); // two samples or more missed

        // It answers again: current again, the gap stays a gap, the outage's error is gone.
        QVERIFY(Failpoints::configure(QString()).ok());
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > seenBefore + 1, 10000);
        QVERIFY(relaysTile->isCurrent());
        QVERIFY(notCurrent->isHidden());
        QVERIFY2(!window.statusBar()->currentMessage().contains(QStringLiteral("does not answer")),
                 qPrintable(window.statusBar()->currentMessage()));
        QVERIFY2(!window.statusBar()->currentMessage().contains(QStringLiteral("failpoint")),
                 qPrintable(window.statusBar()->currentMessage()));
        for (const char* name : {"backlogChartView", "rateChartView"}) {
            QChart* chart = child<QChartView>(&window, name)->chart();
            int lines = 0;
            for (QAbstractSeries* series : chart->series()) {
                auto* line = qobject_cast<QLineSeries*>(series);
                if (!line)
                    continue;
                ++lines;
                const QList<QPointF> points = line->points();
                for (int i = 1; i < points.size(); ++i)
                    QVERIFY2(points.at(i).x() - points.at(i - 1).x() < 4000,
                             qPrintable(QStringLiteral("%1: a line drawn across %2 ms without samples")
                                            .arg(QLatin1String(name))
                                            .arg(points.at(i).x() - points.at(i - 1).x())));
            }
            QVERIFY2(lines > 2, name); // the stretches before and after the gap
        }
    }

    // Item 8: no half sentences, and the facts a runbook asks for are on screen: the payload's size
    // in the event list and the inspector, the topic on the inspector's first view, aggregate names
    // that are not cut to look alike, a connect error said once in a dialog that keeps its shape.
    void wordingAndMissingFacts()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("wording"));
        const QString prefix = QStringLiteral("customer-account-region-eu-west-shard-0000000");
        const auto first = insertEvents(*db, 2, QStringLiteral("OrderPlaced"), prefix);
        insertEvents(*db, 2, QStringLiteral("OrderPlaced"), prefix); // blocked behind the first two
        forceStatus(*db, first, QStringLiteral("FAILED"), QStringLiteral("broker said no"));
        const auto other = insertEvents(*db, 2, QStringLiteral("Big"));
        const qint64 big = other.at(0);
        const qint64 released = other.at(1);
        const QByteArray payload = "{\"blob\":\"" + QByteArray(150 * 1024, 'x') + "\"}";
        QVERIFY(
            db->exec(QStringLiteral("UPDATE {events} SET payload = :p, topic = 'orders.v1' WHERE id = :id"),
                     {{QStringLiteral(":p"), QString::fromUtf8(payload)}, {QStringLiteral(":id"), big}})
                .ok());
        // Claimed twice, lease given back: no lease end to show.
        QVERIFY(db->exec(QStringLiteral(
                             "UPDATE {events} SET attempts = 2, worker_id = 'relay-x', lease_until = NULL "
                             "WHERE id = :id"),
                         {{QStringLiteral(":id"), released}})
                    .ok());

        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        // The connect dialog: an unreachable database is said once, and the fields keep their width.
        QTemporaryDir dir;
        QPointer<QDialog> dialog = connectThroughDialog(
            window, QStringLiteral("sqlite://") + dir.filePath(QStringLiteral("no/such/x.db")));
        QVERIFY(dialog);
        auto* url = child<QLineEdit>(dialog, "profileUrl");
        const int urlWidth = url->width();
        auto* error = child<QLabel>(dialog, "connectError");
        QTRY_VERIFY_WITH_TIMEOUT(error->isVisible(), 10000);
        QCOMPARE(error->text().count(QStringLiteral("cannot connect"), Qt::CaseInsensitive), 1);
        QVERIFY2(!window.statusBar()->currentMessage().contains(QStringLiteral("cannot connect"),
                                                                Qt::CaseSensitive),
                 qPrintable(window.statusBar()->currentMessage())); // "Cannot connect to …: …", once
        QTest::qWait(50);
        QVERIFY2(url->width() >= urlWidth,
                 qPrintable(QStringLiteral("%1 < %2").arg(url->width()).arg(urlWidth)));
        QVERIFY(url->width() >= url->fontMetrics().horizontalAdvance(url->placeholderText()));
        dialog->reject();

        QVERIFY(connectThroughDialog(window, TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 10000);
        window.pages()->setCurrentWidget(window.events());
        EventsPage* events = window.events();
        QTRY_VERIFY_WITH_TIMEOUT(
            events->model() && events->model()->rowCount() == 6 && events->model()->eventAt(5), 10000);
        auto rowOf = [events](qint64 id) {
            for (int i = 0; i < events->model()->rowCount(); ++i)
                if (events->model()->eventAt(i) && events->model()->eventAt(i)->id == id)
                    return i;
            return -1;
        };
        auto* table = child<QTableView>(&window, "eventsTable");
        QCOMPARE(events->model()->headerData(EventTableModel::SizeColumn, Qt::Horizontal).toString(),
                 EventTableModel::tr("Payload size"));
        const QString bigSize =
            events->model()->index(rowOf(big), EventTableModel::SizeColumn).data().toString();
        QVERIFY2(bigSize.contains(QStringLiteral("150")), qPrintable(bigSize));

        // The inspector's first view: topic and size without opening the Columns tab.
        auto select = [table](int row) {
            table->scrollTo(table->model()->index(row, 0));
            QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                              table->visualRect(table->model()->index(row, 0)).center());
        };
        select(rowOf(big));
        auto* summary = child<QLabel>(&window, "inspectorSummary");
        QTRY_VERIFY_WITH_TIMEOUT(summary->text().contains(QStringLiteral("orders.v1")), 10000);
        QVERIFY(summary->isVisible());
        QVERIFY2(summary->text().contains(bigSize), qPrintable(summary->text()));

        // The trail of an event whose lease was given back: no "until ;".
        select(rowOf(released));
        auto* trail = child<QTableWidget>(&window, "eventTrail");
        QTRY_VERIFY_WITH_TIMEOUT(summary->text().contains(QStringLiteral("Big")) || trail->rowCount() > 1,
                                 10000);
        QTRY_VERIFY_WITH_TIMEOUT(trail->rowCount() >= 2 && trail->item(1, 2), 10000);
        QString claims;
        for (int r = 0; r < trail->rowCount(); ++r)
            if (trail->item(r, 1)->data(Qt::UserRole).toString() == QStringLiteral("attempts"))
                claims = trail->item(r, 2)->text();
        QVERIFY2(claims.contains(QStringLiteral("relay-x")) && !claims.contains(QStringLiteral("until ;")) &&
                     !claims.contains(QStringLiteral("until;")),
                 qPrintable(claims));

        // Blocked aggregates: names that differ only at their end are told apart.
        window.pages()->setCurrentWidget(window.blocked());
        QTest::mouseClick(child<QPushButton>(&window, "blockedRefresh"), Qt::LeftButton);
        auto* blocked = child<QTableView>(&window, "blockedTable");
        QTRY_COMPARE_WITH_TIMEOUT(blocked->model()->rowCount(), 2, 10000);
        for (int r = 0; r < 2; ++r) {
            const QString name = blocked->model()->index(r, 0).data().toString();
            QVERIFY2(name.endsWith(prefix + QString::number(r)) ||
                         name.endsWith(prefix + QString::number(1 - r)),
                     qPrintable(name));
            QVERIFY2(blocked->columnWidth(0) >= blocked->fontMetrics().horizontalAdvance(name),
                     qPrintable(QStringLiteral("%1 px for %2").arg(blocked->columnWidth(0)).arg(name)));
        }
    }

    // Item 11: a 1280×800 laptop. The window opens at the screen's available size (not a fixed
    // 1400×900), comes back where the operator left it, and at 1280×800 the right-hand tiles, the
    // Wallboard button and the status bar are inside the window.
    void fitsA1280x800Screen()
    {
        QSettings().clear();
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("laptop"));
        insertEvents(*db, 3);
        const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
        QSize wish;
        {
            MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            // The screen's available size, unless the window cannot be that small.
            const QSize least = window.minimumSizeHint();
            QVERIFY2(window.width() <= std::max(available.width(), least.width()) &&
                         window.height() <= std::max(available.height(), least.height()),
                     qPrintable(QStringLiteral("%1x%2 on a %3x%4 screen")
                                    .arg(window.width())
                                    .arg(window.height())
                                    .arg(available.width())
                                    .arg(available.height())));
            QVERIFY(window.width() >= std::min(available.width(), 1280) * 3 / 4);

            QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
            QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 10000);
            window.resize(1280, 800);
            QTRY_COMPARE_WITH_TIMEOUT(window.size(), QSize(1280, 800), 5000);
            QTest::qWait(100);
            const QRect inside = window.rect();
            auto within = [&window, inside](QWidget* w) {
                const QRect r(w->mapTo(&window, QPoint(0, 0)), w->size());
                return w->isVisible() && inside.contains(r);
            };
            for (const char* name :
                 {"tile_oldest", "tile_dlq", "tile_relays", "wallboardButton", "lastUpdated"})
                QVERIFY2(within(child<QWidget>(&window, name)), name);
            QVERIFY2(within(window.statusBar()), "status bar");
            QVERIFY2(window.minimumSizeHint().height() <= 800 && window.minimumSizeHint().width() <= 1280,
                     qPrintable(QStringLiteral("%1x%2")
                                    .arg(window.minimumSizeHint().width())
                                    .arg(window.minimumSizeHint().height())));
            // A size that fits this screen (the offscreen platform's is 800 px high).
            wish = QSize(std::max(1000, window.minimumSizeHint().width()),
                         std::max(640, window.minimumSizeHint().height()));
            window.move(40, 30);
            window.resize(wish);
            QTRY_COMPARE_WITH_TIMEOUT(window.size(), wish, 5000);
            window.close();
        }
        // The geometry is remembered (and nothing else of the connection is stored with it).
        MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QCOMPARE(again.size(), wish);
        QSettings settings;
        for (const QString& key : settings.allKeys())
            QVERIFY2(
                !settings.value(key).toString().contains(QStringLiteral("password"), Qt::CaseInsensitive),
                qPrintable(key));
    }

    // Item 12: the Consumers page on a big inbox (its reconciliation made slow by a failpoint):
    // the fast figures at once, the count of unconsumed events after, cancellable; never "Not
    // connected" while it reads; the window answers all along.
    void consumersShowFastFiguresFirst()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("bigInbox"));
        InboxStore inbox(*db);
        for (int i = 0; i < 5; ++i)
            QVERIFY(
                inbox
                    .recordProcessed(QStringLiteral("e-%1").arg(i), QStringLiteral("inventory"), QString(), 1)
                    .value());
        QVERIFY(Failpoints::configure(QStringLiteral("consumer.overview.reconcile=sleep(4000)")).ok());

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() > 0, 10000);
        ConsumersPage* page = window.consumers();
        QSignalSpy figures(page, &ConsumersPage::figuresLoaded);
        QSignalSpy complete(page, &ConsumersPage::overviewLoaded);
        QElapsedTimer clock;
        clock.start();
        window.pages()->setCurrentWidget(page);
        auto* table = child<QTableView>(&window, "consumersTable");
        QLabel* hint = table->findChild<QLabel*>(QStringLiteral("emptyHint"));
        QVERIFY(hint);
        // While it reads, the table never says "Not connected".
        QVERIFY2(!hint->isVisible() || !hint->text().contains(QStringLiteral("Not connected")),
                 qPrintable(hint->text()));
        QTRY_VERIFY_WITH_TIMEOUT(figures.count() > 0, 3000);
        QVERIFY2(clock.elapsed() < 3000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(page->consumersModel()->rowCount(), 1);
        QCOMPARE(page->consumersModel()->record(0).value(QStringLiteral("processed")).toInteger(), qint64(5));
        QCOMPARE(complete.count(), 0); // the slow count is still running…
        auto* cancel = child<QPushButton>(&window, "consumersCancelReconcile");
        QVERIFY(cancel->isVisible());
        QVERIFY2(child<QLabel>(&window, "consumersInfo")->text().contains(QStringLiteral("counting")),
                 qPrintable(child<QLabel>(&window, "consumersInfo")->text()));
        // …and the window answers meanwhile: a timer of this thread fires on time.
        QElapsedTimer tick;
        tick.start();
        bool fired = false;
        QTimer::singleShot(50, &window, [&fired]() { fired = true; });
        QTRY_VERIFY_WITH_TIMEOUT(fired, 1000);
        QVERIFY2(tick.elapsed() < 500, qPrintable(QString::number(tick.elapsed())));

        // Cancel: the fast figures stay, the page says the count was cancelled, nothing replaces it.
        QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(!cancel->isVisible());
        QVERIFY2(child<QLabel>(&window, "consumersInfo")->text().contains(QStringLiteral("cancelled")),
                 qPrintable(child<QLabel>(&window, "consumersInfo")->text()));
        QTest::qWait(4500);
        QCOMPARE(complete.count(), 0);
        QCOMPARE(page->consumersModel()->rowCount(), 1);

        // Refresh without cancelling: the count arrives after the figures.
        QTest::mouseClick(child<QPushButton>(&window, "consumersRefresh"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(figures.count() > 1, 3000);
        QTRY_VERIFY_WITH_TIMEOUT(complete.count() == 1, 15000);
        QVERIFY(!cancel->isVisible());
        QVERIFY2(!page->consumersModel()->record(0).value(QStringLiteral("unconsumed")).isNull(),
                 "the unconsumed count is shown once reconciled");
    }

    // Item 7: the Recovery pane never offers an action for a count that is no longer true: a new
    // report refreshes the finding on screen ("Requeue the 8…" becomes "…7…" once one is gone).
    void recoveryCountsAreCurrent()
    {
        auto db = TestDatabases::fresh(QStringLiteral("sqlite"), QStringLiteral("recoveryCounts"));
        const auto ids = insertEvents(*db, 8);
        forceStatus(*db, ids, QStringLiteral("FAILED"), QStringLiteral("Broker: Topic authorization failed"));
        QVERIFY(db->exec(QStringLiteral("UPDATE {events} SET last_error_class = 'deterministic'")).ok());

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        window.pages()->setCurrentWidget(window.recovery());
        auto* findings = child<QTableView>(&window, "recoveryFindings");
        QTRY_VERIFY_WITH_TIMEOUT(findings->model()->rowCount() > 0, 20000);
        int row = -1;
        for (int r = 0; r < findings->model()->rowCount(); ++r)
            if (findings->model()
                    ->index(r, 0)
                    .data(Qt::UserRole)
                    .toString()
                    .startsWith(QStringLiteral("failed-events")))
                row = r;
        QVERIFY(row >= 0);
        QTest::mouseClick(findings->viewport(), Qt::LeftButton, {},
                          findings->visualRect(findings->model()->index(row, 1)).center());
        RecoveryFlow* flow = window.recovery()->flow();
        auto* actions = child<QListWidget>(flow, "findingActions");
        QTRY_VERIFY_WITH_TIMEOUT(
            actions->count() > 0 && actions->item(0)->text().contains(QStringLiteral("8")), 10000);
        auto* title = child<QLabel>(flow, "findingTitle");
        QVERIFY2(title->text().contains(QStringLiteral("8 FAILED")), qPrintable(title->text()));

        // One of them is dealt with elsewhere; the doctor runs again (its button, or its timer).
        forceStatus(*db, ids.mid(0, 1), QStringLiteral("SENT"));
        const int reports = window.recovery()->reportsSeen();
        QTest::mouseClick(child<QPushButton>(&window, "runDoctor"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(window.recovery()->reportsSeen() > reports, 20000);
        QCOMPARE(flow->step(), int(RecoveryFlow::WhatHappened));
        QVERIFY2(title->text().contains(QStringLiteral("7 FAILED")), qPrintable(title->text()));
        for (int i = 0; i < actions->count(); ++i)
            QVERIFY2(!actions->item(i)->text().contains(QStringLiteral(" 8 ")),
                     qPrintable(actions->item(i)->text()));
    }
};

QTEST_MAIN(TestConsoleTruth)
#include "tst_consoletruth.moc"
