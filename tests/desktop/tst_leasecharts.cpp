// The Overview's lease holders chart (SENDING per relay over time, expired leases marked) and
// oldest-pending age chart, in the real MainWindow offscreen, fed by the real sampler from real
// databases where relays hold leases through the relay's own claim.
#include "core/db/EventStore.h"
#include "tests/support/TestDatabases.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/overview/LeaseHoldersChart.h"
#include "ui/desktop/overview/OldestPendingChart.h"
#include "ui/desktop/overview/OverviewPage.h"

#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTableWidget>
#include <QTest>
#include <QValueAxis>

using namespace outbox;
using namespace outbox::desktop;
using namespace outbox::test;

namespace {

void registerRelay(Database& db, const QString& worker)
{
    QVERIFY(db.exec(QStringLiteral("INSERT INTO {relays} (worker_id, host, pid) VALUES (:w, 'h1', 7)"),
                    {{QStringLiteral(":w"), worker}})
                .ok());
}

void ageCreated(Database& db, qint64 ms)
{
    QVERIFY(db.exec(QStringLiteral("UPDATE {events} SET created_at = %1")
                        .arg(db.dialect().nowPlusMillis(QStringLiteral(":ms"))),
                    {{QStringLiteral(":ms"), -ms}})
                .ok());
}

QChart* chartOf(QWidget* window, const char* viewName)
{
    auto* view = window->findChild<QChartView*>(QLatin1String(viewName));
    return view ? view->chart() : nullptr;
}

template <typename T> T* seriesNamed(QChart* chart, const QString& name)
{
    for (QAbstractSeries* s : chart->series())
        if (s->name() == name)
            return qobject_cast<T*>(s);
    return nullptr;
}

// The last y of the named line, or -1 when there is no such line (or it is empty).
double lastY(QChart* chart, const QString& name)
{
    auto* s = seriesNamed<QLineSeries>(chart, name);
    return s && s->count() > 0 ? s->at(s->count() - 1).y() : -1;
}

double lastX(QChart* chart, const QString& name)
{
    auto* s = seriesNamed<QLineSeries>(chart, name);
    return s && s->count() > 0 ? s->at(s->count() - 1).x() : -1;
}

bool hasY(QXYSeries* s, double y)
{
    for (const QPointF& p : s->points())
        if (p.y() == y)
            return true;
    return false;
}

} // namespace

class TestLeaseCharts : public QObject
{
    Q_OBJECT

private slots:
    void chartsFollowTheLeases_data() { TestDatabases::addKinds(); }
    void chartsFollowTheLeases()
    {
        QFETCH(QString, kind);
        auto db = TestDatabases::fresh(kind, TestDatabases::uniqueName(QStringLiteral("leasechart")));
        const auto ids = insertEvents(*db, 20);
        for (const char* worker : {"relay-a", "relay-b", "relay-idle"})
            registerRelay(*db, QLatin1String(worker));
        // relay-a holds 7 leases for ten minutes; relay-b took 4 with a lease that runs out and
        // stopped (nobody reaps them yet).
        EventStore store(*db);
        auto a = store.claim(QStringLiteral("relay-a"), 7, 600000);
        QVERIFY(a.ok());
        QCOMPARE(a->events.size(), 7);
        auto b = store.claim(QStringLiteral("relay-b"), 4, 200);
        QVERIFY(b.ok());
        QCOMPARE(b->events.size(), 4);
        ageCreated(*db, 100000); // the oldest PENDING event has waited 100 s
        QTest::qWait(1500);      // relay-b's leases are past their end

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.connectToText(TestDatabases::urlText(db->url())));
        auto* interval = window.findChild<QComboBox*>(QStringLiteral("refreshInterval"));
        QVERIFY(interval);
        interval->setCurrentIndex(interval->findData(1000)); // sample every second
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() >= 2, 15000);

        // One line per relay with what it holds; the idle relay at 0.
        QChart* leases = chartOf(&window, "leaseHoldersChartView");
        QVERIFY(leases);
        QTRY_COMPARE_WITH_TIMEOUT(lastY(leases, QStringLiteral("relay-a")), 7.0, 10000);
        QCOMPARE(lastY(leases, QStringLiteral("relay-b")), 4.0);
        QCOMPARE(lastY(leases, QStringLiteral("relay-idle")), 0.0);
        // The expired leases are marked on relay-b's line, at its latest sample; none on relay-a's.
        auto* expired = seriesNamed<QScatterSeries>(leases, LeaseHoldersChart::expiredSeriesName());
        QVERIFY(expired);
        QTRY_VERIFY_WITH_TIMEOUT(expired->count() >= 1 && expired->at(expired->count() - 1).x() ==
                                                              lastX(leases, QStringLiteral("relay-b")),
                                 10000);
        for (const QPointF& p : expired->points())
            QCOMPARE(p.y(), 4.0);
        // The table beside the chart says the same.
        auto* table = window.findChild<QTableWidget*>(QStringLiteral("leaseHolders"));
        QTRY_COMPARE_WITH_TIMEOUT(table->rowCount(), 2, 10000);

        // The oldest pending event's age: 100 s and the time the test took since, in seconds.
        QChart* oldest = chartOf(&window, "oldestPendingChartView");
        QVERIFY(oldest);
        const QString age = OldestPendingChart::ageSeriesName();
        QTRY_VERIFY_WITH_TIMEOUT(lastY(oldest, age) >= 100 && lastY(oldest, age) < 170, 10000);
        QCOMPARE(static_cast<OldestPendingChart*>(oldest)->unit(), OldestPendingChart::Unit::Seconds);

        window.resize(1400, 1000);
        QTest::qWait(200);
        const QString shot = QDir::current().filePath(QStringLiteral("leasecharts-%1.png").arg(kind));
        QVERIFY(window.grab().save(shot));
        qInfo("screenshot: %s", qPrintable(shot));

        // relay-a takes 3 more; the reaper gives relay-b's expired leases back.
        QVERIFY(store.claim(QStringLiteral("relay-a"), 3, 600000).ok());
        auto reaped = store.reapExpiredLeases(0);
        QVERIFY(reaped.ok());
        QCOMPARE(reaped->returned, 4);
        QTRY_VERIFY_WITH_TIMEOUT(lastY(leases, QStringLiteral("relay-a")) == 10.0 &&
                                     lastY(leases, QStringLiteral("relay-b")) == 0.0,
                                 10000);
        // History stays: relay-a's line went 7 -> 10, relay-b's 4 -> 0.
        QVERIFY(hasY(seriesNamed<QLineSeries>(leases, QStringLiteral("relay-a")), 7.0));
        QVERIFY(hasY(seriesNamed<QLineSeries>(leases, QStringLiteral("relay-b")), 4.0));
        // No new marks once nothing is expired: the last mark is older than relay-b's last sample.
        const int marks = expired->count();
        const int seen = window.snapshotsSeen();
        QTRY_VERIFY_WITH_TIMEOUT(window.snapshotsSeen() >= seen + 2, 10000);
        QCOMPARE(expired->count(), marks);
        QVERIFY(expired->at(marks - 1).x() < lastX(leases, QStringLiteral("relay-b")));

        // Two hours old: the chart rescales to minutes (about 120) …
        ageCreated(*db, 2 * 3600 * 1000);
        QTRY_VERIFY_WITH_TIMEOUT(lastY(oldest, age) >= 119.9 && lastY(oldest, age) < 122, 10000);
        QCOMPARE(static_cast<OldestPendingChart*>(oldest)->unit(), OldestPendingChart::Unit::Minutes);
        auto* ageAxis = qobject_cast<QValueAxis*>(oldest->axes(Qt::Vertical).value(0));
        QVERIFY(ageAxis && ageAxis->max() >= 120);
        // … and falls to 0 when nothing is pending any more.
        forceStatus(*db, ids, QStringLiteral("SENT"));
        QTRY_COMPARE_WITH_TIMEOUT(lastY(oldest, age), 0.0, 10000);
        // The lines of relays that hold nothing stay while they are registered.
        QTRY_COMPARE_WITH_TIMEOUT(lastY(leases, QStringLiteral("relay-a")), 0.0, 10000);
    }
};

QTEST_MAIN(TestLeaseCharts)
#include "tst_leasecharts.moc"
