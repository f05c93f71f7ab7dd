#pragma once

#include "core/metrics/MetricsSnapshot.h"
#include "ui/desktop/ConsoleContext.h"
#include "ui/desktop/overview/StatTile.h"
#include "ui/desktop/overview/ThroughputTracker.h"

#include <QMap>
#include <QWidget>

class QBarCategoryAxis;
class QBarSeries;
class QBarSet;
class QChart;
class QChartView;
class QCheckBox;
class QComboBox;
class QDateTimeAxis;
class QLabel;
class QLineSeries;
class QPushButton;
class QTableWidget;
class QValueAxis;

namespace outbox::desktop {

class GappedLine;
class LeaseHoldersChart;
class OldestPendingChart;

// Live health of the outbox from the MetricsSampler's snapshots: tiles, backlog by status over
// time, sent/failed per interval, attempts of unsent events, the oldest pending event's age over
// time, lease holders over time (expired leases marked) beside their table, and relays. The same
// widget in wallboard mode shows only large tiles and charts, readable across a room.
class OverviewPage : public QWidget
{
    Q_OBJECT

public:
    static constexpr int HistoryPoints = 180;
    static constexpr qint64 StaleHeartbeatMs = ConsoleContext::StaleHeartbeatMs;
    // The oldest PENDING event's age turns amber, then red.
    static constexpr qint64 OldestPendingWarningMs = 60000;
    static constexpr qint64 OldestPendingCriticalMs = 300000;

    explicit OverviewPage(bool wallboard = false, QWidget* parent = nullptr);

    void showSnapshot(const MetricsSnapshot& snapshot);
    void clearHistory();
    // The database stopped answering: what is shown is the last sample's, greyed and marked as not
    // current; the charts leave a gap until the next sample.
    void markNotCurrent(const QString& why);
    bool isCurrent() const { return !m_notCurrent; }
    // Back to "not connected": no numbers, no charts, no rows.
    void clearAll();
    int pointCount() const;
    // The wallboard's tiles, charts and tables sized for a screen of this size (a 1080p wall screen
    // gets the largest; a 1280×800 laptop smaller ones that still fit).
    void fitScreen(const QSize& screen);
    double scale() const { return m_scale; }
    // States the sampling interval on the charts.
    void setSamplingInterval(int ms);

    static QString formatInterval(int ms);
    static StatTile::Severity relaysSeverity(const MetricsSnapshot& snapshot);
    static StatTile::Severity ageSeverity(qint64 oldestPendingMs);

signals:
    void intervalChanged(int milliseconds);
    void pausedChanged(bool paused);
    void wallboardRequested();
    // A tile was clicked: "oldest", "PENDING", "FAILED", "DEAD", "dlq" or "relays".
    void drillDown(const QString& tile);

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    QChartView* makeChartView(QChart* chart);
    void applyScale(double scale);

    // The least height of a chart on the desktop (with its title, legend and axis values), and
    // the wallboard's scale on a 1080p screen.
    static constexpr int ChartHeight = 110;
    static constexpr double WallboardScale = 3.0;

    bool m_wallboard;
    double m_scale = 1.0;
    QList<QChartView*> m_views;
    ThroughputTracker m_throughput;
    QMap<QString, StatTile*> m_tiles;
    QMap<QString, GappedLine*> m_backlog;
    QChart* m_backlogChart = nullptr;
    QDateTimeAxis* m_backlogX = nullptr;
    QValueAxis* m_backlogY = nullptr;
    GappedLine* m_sent = nullptr;
    GappedLine* m_failed = nullptr;
    QDateTimeAxis* m_rateX = nullptr;
    QValueAxis* m_rateY = nullptr;
    QValueAxis* m_failedY = nullptr;
    QChart* m_rateChart = nullptr;
    int m_intervalMs = 2000;
    QBarSeries* m_attempts = nullptr;
    QBarCategoryAxis* m_attemptsX = nullptr;
    QValueAxis* m_attemptsY = nullptr;
    OldestPendingChart* m_oldestChart = nullptr;
    LeaseHoldersChart* m_leaseChart = nullptr;
    QTableWidget* m_leases = nullptr;
    QTableWidget* m_relays = nullptr;
    QLabel* m_updated = nullptr;
    QComboBox* m_interval = nullptr;
    bool m_notCurrent = false;
    QDateTime m_lastSample;
    QCheckBox* m_pause = nullptr;
};

} // namespace outbox::desktop
