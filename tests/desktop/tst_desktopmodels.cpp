#include "tests/support/TestPaths.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/overview/ThroughputTracker.h"
#include "ui/desktop/relays/ManagedRelay.h"
#include "ui/desktop/widgets/JsonTreeModel.h"
#include "ui/desktop/widgets/RecordTableModel.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QTranslator>

using namespace outbox;
using namespace outbox::desktop;

// The small models and helpers of the console (one fixture each; no database needed).
class TestDesktopModels : public QObject
{
    Q_OBJECT

private slots:
    void jsonTreeModel()
    {
        JsonTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setJson(
            QByteArrayLiteral(R"({"order":{"id":7,"items":[1,2,{"sku":"x"}]},"paid":true,"note":null})"));
        QCOMPARE(model.rowCount(), 3);
        const QModelIndex order = model.index(1, 0);
        QCOMPARE(order.data().toString(), QStringLiteral("order"));
        QCOMPARE(model.rowCount(order), 2);
        const QModelIndex items = model.index(1, 0, order);
        QCOMPARE(items.data().toString(), QStringLiteral("items"));
        QCOMPARE(model.rowCount(items), 3);
        QCOMPARE(model.index(2, 0, items).siblingAtColumn(2).data().toString(), QStringLiteral("object"));
        QCOMPARE(model.parent(model.index(0, 0, items)), items.siblingAtColumn(0));
        QCOMPARE(model.index(0, 1, order).data().toString(), QStringLiteral("7"));
        model.setJson(QByteArrayLiteral("not json"));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, 1).data().toString(), QStringLiteral("not json"));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    // The zh_CN catalogue is built into the build tree and matches the classes' contexts.
    void chineseTranslationLoads()
    {
        QTranslator translator;
        QVERIFY(translator.load(outbox::test::qmPath(QStringLiteral("outbox_console_zh_CN.qm"))));
        QCoreApplication::installTranslator(&translator);
        {
            MainWindow window;
            QCOMPARE(window.pages()->tabText(0), QStringLiteral("概览"));
            QCOMPARE(window.pages()->tabText(2), QStringLiteral("死信"));
        }
        QCoreApplication::removeTranslator(&translator);
    }

    void recordTableModel()
    {
        RecordTableModel model(
            {{QStringLiteral("id"), QStringLiteral("Id")}, {QStringLiteral("ids"), QStringLiteral("Ids")}});
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows({QJsonObject{{QStringLiteral("id"), 1}, {QStringLiteral("ids"), QJsonArray{1, 2}}}});
        model.appendRows({QJsonObject{{QStringLiteral("id"), 2}}, QJsonObject{{QStringLiteral("id"), 3}}});
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(0, 1).data().toString(), QStringLiteral("[1,2]"));
        QCOMPARE(model.index(2, 0).data().toString(), QStringLiteral("3"));
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("Ids"));
        model.setRows({});
        QCOMPARE(model.rowCount(), 0);
    }

    void throughputIsResetSafe()
    {
        ThroughputTracker tracker;
        auto snapshot = [](QVector<QPair<qint64, qint64>> counters, const QDateTime& started) {
            MetricsSnapshot s;
            int i = 0;
            for (auto c : counters) {
                RelayRecord r;
                r.workerId = QStringLiteral("r%1").arg(i++);
                r.startedAt = started;
                r.sentTotal = c.first;
                r.failedTotal = c.second;
                s.relays << r;
            }
            return s;
        };
        const QDateTime t0 = QDateTime::fromSecsSinceEpoch(1000, Qt::UTC);
        QVERIFY(tracker.add(snapshot({{100, 1}, {50, 0}}, t0)).first);
        auto d = tracker.add(snapshot({{130, 2}, {60, 0}}, t0));
        QCOMPARE(d.sent, qint64(40));
        QCOMPARE(d.failed, qint64(1));
        // r0 restarted (counters back near zero, new start time), r1 left: no negative, no spike.
        d = tracker.add(snapshot({{5, 0}}, t0.addSecs(60)));
        QCOMPARE(d.sent, qint64(5));
        QCOMPARE(d.failed, qint64(0));
        // Same relay, counter went down without a restart record: counts from zero.
        d = tracker.add(snapshot({{3, 0}}, t0.addSecs(60)));
        QCOMPARE(d.sent, qint64(3));
    }

    // A managed child that keeps dying is restarted with a growing backoff; stop ends it for good.
    void managedProcessRestartsWithBackoff()
    {
        ManagedRelay relay;
        QSignalSpy lines(&relay, &ManagedRelay::line);
        relay.start(QStandardPaths::findExecutable(QStringLiteral("sh")),
                    {QStringLiteral("-c"), QStringLiteral("echo relay-output; exit 3")});
        QTRY_VERIFY_WITH_TIMEOUT(relay.restarts() >= 2, 10000);
        bool sawOutput = false;
        bool sawRestart = false;
        for (const auto& args : lines) {
            sawOutput |= args.at(0).toString() == QStringLiteral("relay-output");
            sawRestart |= args.at(0).toString().contains(QStringLiteral("restarting in 2000 ms"));
        }
        QVERIFY(sawOutput);
        QVERIFY(sawRestart);
        relay.stop();
        const int restarts = relay.restarts();
        QTest::qWait(2500);
        QCOMPARE(relay.restarts(), restarts);
        QVERIFY(!relay.isRunning());

        // A long-running child is terminated by stop() and not restarted.
        relay.start(QStandardPaths::findExecutable(QStringLiteral("sleep")), {QStringLiteral("30")});
        QTRY_VERIFY_WITH_TIMEOUT(relay.isRunning(), 5000);
        relay.stop();
        QTRY_VERIFY_WITH_TIMEOUT(!relay.isRunning(), 5000);
        QCOMPARE(relay.restarts(), 0);
    }
};

QTEST_MAIN(TestDesktopModels)
#include "tst_desktopmodels.moc"
