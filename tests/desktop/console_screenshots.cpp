// Takes the README screenshots from the real MainWindow (not run by ctest):
//   QT_QPA_PLATFORM=offscreen console_screenshots sqlite:///path/demo.db docs/screenshots
// While it waits for the charts to fill, it plays a relay on the database (PENDING -> SENT, new
// events, relay counters) so the Overview shows live movement.
#include "core/db/Database.h"
#include "ui/desktop/MainWindow.h"
#include "ui/desktop/events/EventTableModel.h"
#include "ui/desktop/events/EventsPage.h"
#include "ui/desktop/overview/OverviewPage.h"
#include "ui/desktop/widgets/EventInspector.h"

#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimer>

using namespace outbox;
using namespace outbox::desktop;

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: console_screenshots DB_URL OUT_DIR\n");
        return 2;
    }
    const QString urlText = QString::fromLocal8Bit(argv[1]);
    const QDir out(QString::fromLocal8Bit(argv[2]));
    QDir().mkpath(out.absolutePath());
    auto url = DatabaseUrl::parse(urlText);
    auto db = Database::open(*url);
    if (!db) {
        std::fprintf(stderr, "%s\n", qPrintable(db.message()));
        return 1;
    }
    Database& relay = **db;
    // The relay the play loop stands in for (the demo's own relay deregistered when it stopped).
    (void)relay.exec(QStringLiteral("INSERT INTO {relays} (worker_id, host, pid, state) "
                                    "VALUES ('relay-a', 'demo-host', 4242, 'RUNNING')"));
    int tick = 0;
    const QString run =
        QString::number(QDateTime::currentMSecsSinceEpoch()); // event ids stay unique across runs
    QTimer play;
    QObject::connect(&play, &QTimer::timeout, &app, [&]() {
        ++tick;
        const int burst = 40 + (tick % 7) * 15;
        (void)relay.exec(
            QStringLiteral(
                "UPDATE {events} SET status = 'SENT', sent_at = %1 WHERE id IN (SELECT id FROM {events} "
                "WHERE status = 'PENDING' ORDER BY id LIMIT %2)")
                .arg(relay.dialect().now())
                .arg(burst));
        (void)relay.exec(
            QStringLiteral(
                "INSERT INTO {events} (event_id, event_type, aggregate_type, aggregate_id, payload, headers) "
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %1) "
                "SELECT 'live-%2-%3-' || i, 'OrderCreated', 'order', 'order-' || i, json_object('order', i), "
                "'{}' FROM n")
                .arg(55 + (tick % 5) * 18)
                .arg(run)
                .arg(tick));
        (void)relay.exec(
            QStringLiteral(
                "UPDATE {relays} SET sent_total = sent_total + %1, failed_total = failed_total + %2, "
                "heartbeat_at = %3 WHERE worker_id = 'relay-a'")
                .arg(burst)
                .arg(tick % 3)
                .arg(relay.dialect().now()));
    });
    play.start(500);

    MainWindow window;
    window.resize(1500, 950);
    window.show();
    window.connectToText(
        urlText, ConnectionProfile{QStringLiteral("demo (SQLite)"), urlText, QStringLiteral("green")});
    window.findChild<QComboBox*>(QStringLiteral("refreshInterval"))->setCurrentIndex(0); // 1 s
    QTest::qWait(30000);
    window.grab().save(out.filePath(QStringLiteral("overview.png")));

    window.pages()->setCurrentWidget(window.events());
    auto* status = window.findChild<QComboBox*>(QStringLiteral("filterStatus"));
    status->setCurrentIndex(status->findData(QStringLiteral("FAILED")));
    window.events()->applyFilter();
    QTest::qWait(1500);
    auto* table = window.findChild<QTableView*>(QStringLiteral("eventsTable"));
    window.events()->refreshGroups();
    for (int row = 0; row < 60; ++row) {
        auto e = window.events()->model()->eventAt(row);
        if (e && e->status == QLatin1String("FAILED") && row >= 2) {
            table->selectRow(row);
            break;
        }
    }
    QTest::qWait(2000);
    window.grab().save(out.filePath(QStringLiteral("events-inspector.png")));

    window.showWallboard();
    QTest::qWait(500);
    for (QWidget* w : QApplication::topLevelWidgets())
        if (w->objectName() == QLatin1String("wallboardOverview")) {
            w->resize(1920, 1080);
            QTest::qWait(3000);
            w->grab().save(out.filePath(QStringLiteral("wallboard.png")));
        }
    play.stop();
    return 0;
}
