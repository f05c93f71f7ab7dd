// The wallboard in a real headless Chromium: a page opened after the server has been sampling
// for a while starts with the server's history (points from before it connected), and shows the
// attempts histogram of the unsent events.
#include "core/metrics/MetricsSampler.h"
#include "tests/support/TestDatabases.h"
#include "tests/web/ChromiumPage.h"
#include "ui/web/WebServer.h"
#include "ui/web/http/AccessControl.h"
#include "ui/web/live/DashboardHub.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QTest>

using namespace outbox;
using namespace outbox::test;
using namespace outbox::web;

namespace {

const QByteArray ViewerSecret = "history-viewer-secret";

void setAttempts(Database& db, const QVector<qint64>& ids, int attempts)
{
    for (qint64 id : ids)
        QVERIFY(db.exec(QStringLiteral("UPDATE {events} SET attempts = :a WHERE id = :id"),
                        {{QStringLiteral(":a"), attempts}, {QStringLiteral(":id"), id}})
                    .ok());
}

} // namespace

class TestDashboardHistory : public QObject
{
    Q_OBJECT

private slots:
    void freshDashboardShowsHistoryAndAttempts()
    {
        auto db = TestDatabases::fresh(QStringLiteral("postgresql"),
                                       TestDatabases::uniqueName(QStringLiteral("history")));
        insertEvents(*db, 5);
        WebConfig config;
        config.port = 0;
        config.sampleIntervalMs = 300;
        config.tokens = {
            ApiToken{QStringLiteral("wallboard"), Role::Viewer, AccessControl::hashToken(ViewerSecret)}};
        WebServer server(config, DatabaseTarget(db->url(), QString()));
        QVERIFY(server.start().ok());

        // The server samples 5 PENDING for a while and keeps it in its history…
        QTRY_VERIFY_WITH_TIMEOUT(server.hub().history().size() >= 2, 20000);
        // …then the numbers move: 20 PENDING, of which 3 were tried twice and 2 five times.
        const auto ids = insertEvents(*db, 15, QStringLiteral("OrderShipped"), QStringLiteral("ship-"));
        setAttempts(*db, ids.mid(0, 3), 2);
        setAttempts(*db, ids.mid(3, 2), 5);
        QTRY_VERIFY_WITH_TIMEOUT(server.latest().has() &&
                                     server.latest().snapshot().events.value(QStringLiteral("PENDING")) ==
                                         20 &&
                                     server.latest().snapshot().attemptsOfUnsent.value(5) == 2,
                                 20000);
        const qint64 opened = QDateTime::currentMSecsSinceEpoch();

        ChromiumPage page;
        QString error;
        QVERIFY2(page.open(server.baseUrl().toString() + QStringLiteral("#token=") +
                               QString::fromUtf8(ViewerSecret),
                           &error),
                 qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(
            page.evaluate(QStringLiteral("document.getElementById('connection').textContent")),
            QStringLiteral("live"), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(
            page.evaluate(QStringLiteral("String(document.body.dataset.historyPoints || 0)")).toInt() >= 2,
            20000);

        // History: the backlog chart starts before the page was opened, with the 5 PENDING that
        // no live snapshot since then has shown.
        const QString backlog = QStringLiteral("Chart.getChart('chart-backlog')");
        QVERIFY(page.evaluate(QStringLiteral("String(%1.$times[0])").arg(backlog)).toLongLong() <
                opened - 500);
        QCOMPARE(page.evaluate(QStringLiteral("String(%1.data.datasets[0].data.includes(5))").arg(backlog)),
                 QStringLiteral("true"));
        QVERIFY(page.evaluate(QStringLiteral("String(%1.data.labels.length)").arg(backlog)).toInt() >= 3);
        // Strictly in time order: no point drawn twice when the live snapshots follow the history.
        QCOMPARE(
            page.evaluate(
                QStringLiteral("String(%1.$times.every((t, i, a) => i === 0 || a[i - 1] < t))").arg(backlog)),
            QStringLiteral("true"));
        QTRY_COMPARE_WITH_TIMEOUT(
            page.evaluate(
                QStringLiteral("String(%1.data.datasets[0].data[%1.data.datasets[0].data.length - 1])")
                    .arg(backlog)),
            QStringLiteral("20"), 20000);

        // The attempts histogram of the latest snapshot: 15 never tried, 3 twice, 2 five times.
        const QString attempts = QStringLiteral("Chart.getChart('chart-attempts')");
        QTRY_COMPARE_WITH_TIMEOUT(
            page.evaluate(QStringLiteral("JSON.stringify(%1.data.labels)").arg(attempts)),
            QStringLiteral("[\"0\",\"2\",\"5\"]"), 20000);
        QCOMPARE(page.evaluate(QStringLiteral("JSON.stringify(%1.data.datasets[0].data)").arg(attempts)),
                 QStringLiteral("[15,3,2]"));

        const QByteArray png = page.screenshotPng();
        QVERIFY(png.startsWith("\x89PNG"));
        QFile out(QDir::current().filePath(QStringLiteral("dashboard-history.png")));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(png);
        qInfo("screenshot: %s (%lld bytes)", qPrintable(out.fileName()), qint64(png.size()));
    }
};

QTEST_GUILESS_MAIN(TestDashboardHistory)
#include "tst_dashboardhistory.moc"
