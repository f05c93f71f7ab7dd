#pragma once

#include "core/metrics/MetricsSnapshot.h"

#include <QChart>
#include <QVector>

class QDateTimeAxis;
class QLineSeries;
class QValueAxis;

namespace outbox::desktop {

// The oldest PENDING event's age over time (the sampler's oldest_pending_age): 0 while nothing
// waits. The unit follows the largest age in the window (seconds, minutes or hours) and the
// warning and critical levels of the Overview's tile are drawn as dashed lines when in range.
class OldestPendingChart : public QChart
{
    Q_OBJECT

public:
    enum class Unit { Seconds, Minutes, Hours };

    OldestPendingChart(int historyPoints, qint64 warningMs, qint64 criticalMs);

    void addSnapshot(const MetricsSnapshot& snapshot);
    void clearHistory();
    Unit unit() const { return m_unit; }
    static QString ageSeriesName();

private:
    void redraw();

    int m_historyPoints;
    qint64 m_warningMs;
    qint64 m_criticalMs;
    Unit m_unit = Unit::Seconds;
    QVector<QPair<qint64, qint64>> m_samples; // (time ms since the epoch, age ms; 0 = none waiting)
    QDateTimeAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    QLineSeries* m_age = nullptr;
    QLineSeries* m_warning = nullptr;
    QLineSeries* m_critical = nullptr;
};

} // namespace outbox::desktop
