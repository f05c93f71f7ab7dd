#pragma once

#include "core/metrics/MetricsSnapshot.h"

#include <QChart>
#include <QMap>
#include <QVector>
#include <deque>

class QDateTimeAxis;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace outbox::desktop {

// Lease holders over time from the sampler's snapshots: one line per relay (worker id) with the
// events it holds in SENDING, and a red marker on a relay's line wherever some of its leases had
// expired (a relay that stopped sending without giving its claims back; the reaper returns them).
// Registered relays that hold nothing draw at 0. At most MaxRelaySeries relays get a line of
// their own (the first seen); the rest are summed into "other relays". Lines of relays that left
// and held nothing during the whole window are removed, so relay restarts do not pile up lines.
class LeaseHoldersChart : public QChart
{
    Q_OBJECT

public:
    static constexpr int MaxRelaySeries = 12;

    explicit LeaseHoldersChart(int historyPoints);

    void addSnapshot(const MetricsSnapshot& snapshot);
    void clearHistory();
    // The name of the expired-lease markers' series (for the legend and for finding it).
    static QString expiredSeriesName();
    static QString otherRelaysName();

private:
    QLineSeries* seriesFor(const QString& worker);
    void trimBefore(qint64 cutoffMs);
    void showMarkerTip(const QPointF& point, bool state);

    int m_historyPoints;
    QDateTimeAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    QMap<QString, QLineSeries*> m_series; // by worker id (or otherRelaysName())
    QScatterSeries* m_expired = nullptr;
    QVector<QString> m_expiredTips; // one per marker, in the same order
    std::deque<qint64> m_times;     // sample times kept (ms since the epoch)
};

} // namespace outbox::desktop
