#include "ui/desktop/overview/LeaseHoldersChart.h"

#include "ui/desktop/widgets/ChartAxes.h"

#include <QCursor>
#include <QDateTimeAxis>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSet>
#include <QToolTip>
#include <QValueAxis>

namespace outbox::desktop {

LeaseHoldersChart::LeaseHoldersChart(int historyPoints) : m_historyPoints(std::max(2, historyPoints))
{
    setObjectName(QStringLiteral("leaseHoldersChart"));
    setTitle(tr("Lease holders: events in SENDING per relay"));
    m_x = new QDateTimeAxis;
    m_x->setFormat(QStringLiteral("HH:mm:ss"));
    m_y = new QValueAxis;
    m_y->setTitleText(tr("SENDING"));
    niceCountAxis(m_y, 0);
    addAxis(m_x, Qt::AlignBottom);
    addAxis(m_y, Qt::AlignLeft);
    m_expired = new QScatterSeries;
    m_expired->setName(expiredSeriesName());
    m_expired->setObjectName(QStringLiteral("expiredLeases"));
    m_expired->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    m_expired->setMarkerSize(12);
    m_expired->setColor(QColor(0xc6, 0x28, 0x28));
    m_expired->setBorderColor(QColor(0x7f, 0x00, 0x00));
    addSeries(m_expired);
    m_expired->attachAxis(m_x);
    m_expired->attachAxis(m_y);
    connect(m_expired, &QScatterSeries::hovered, this, &LeaseHoldersChart::showMarkerTip);
}

QString LeaseHoldersChart::expiredSeriesName()
{
    return tr("expired leases");
}

QString LeaseHoldersChart::otherRelaysName()
{
    return tr("other relays");
}

QLineSeries* LeaseHoldersChart::seriesFor(const QString& worker)
{
    if (QLineSeries* s = m_series.value(worker))
        return s;
    const bool own = m_series.size() < MaxRelaySeries || worker == otherRelaysName();
    if (!own)
        return seriesFor(otherRelaysName());
    auto* s = new QLineSeries;
    // A chart's legend renders its series' names as HTML: a worker id is the database's, escaped.
    s->setName(worker.isEmpty() ? tr("(no worker)") : worker.toHtmlEscaped());
    s->setObjectName(worker);
    addSeries(s);
    s->attachAxis(m_x);
    s->attachAxis(m_y);
    m_series.insert(worker, s);
    // The markers stay drawn over the lines.
    removeSeries(m_expired);
    addSeries(m_expired);
    m_expired->attachAxis(m_x);
    m_expired->attachAxis(m_y);
    return s;
}

void LeaseHoldersChart::addSnapshot(const MetricsSnapshot& snapshot)
{
    const qint64 x = snapshot.takenAt.toMSecsSinceEpoch();
    // What each line shows at this sample: holders' SENDING, 0 for registered relays holding none.
    QMap<QString, qint64> sending;
    for (const RelayRecord& r : snapshot.relays)
        sending.insert(r.workerId, 0);
    for (const LeaseHolder& h : snapshot.leaseHolders)
        sending[h.workerId] += h.sending;
    QMap<QLineSeries*, qint64> values;
    for (QLineSeries* s : std::as_const(m_series))
        values.insert(s, 0); // a line whose relay holds nothing now drops to 0
    for (auto it = sending.cbegin(); it != sending.cend(); ++it)
        values[seriesFor(it.key())] += it.value();
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        it.key()->append(double(x), double(it.value()));

    for (const LeaseHolder& h : snapshot.leaseHolders) {
        if (h.expired <= 0)
            continue;
        // On the line the relay is drawn on (its own or "other relays").
        QLineSeries* line = seriesFor(h.workerId);
        m_expired->append(double(x), double(values.value(line)));
        m_expiredTips << tr("%1: %n lease(s) expired of %2 held", nullptr, int(h.expired))
                             .arg(line->name())
                             .arg(h.sending);
    }

    m_times.push_back(x);
    while (m_times.size() > size_t(m_historyPoints))
        m_times.pop_front();
    trimBefore(m_times.front());

    // Relays that left and held nothing in the whole window: their lines go.
    for (auto it = m_series.begin(); it != m_series.end();) {
        bool idle = !sending.contains(it.key());
        for (const QPointF& p : it.value()->points())
            idle = idle && p.y() == 0;
        if (idle) {
            removeSeries(it.value());
            delete it.value();
            it = m_series.erase(it);
        } else {
            ++it;
        }
    }

    double max = 0;
    for (QLineSeries* s : std::as_const(m_series))
        for (const QPointF& p : s->points())
            max = std::max(max, p.y());
    niceCountAxis(m_y, max);
    fitTimeAxis(m_x, m_times.front(), x);
}

void LeaseHoldersChart::trimBefore(qint64 cutoffMs)
{
    for (QLineSeries* s : std::as_const(m_series)) {
        int old = 0;
        while (old < s->count() && s->at(old).x() < double(cutoffMs))
            ++old;
        if (old > 0)
            s->removePoints(0, old);
    }
    int old = 0;
    while (old < m_expired->count() && m_expired->at(old).x() < double(cutoffMs))
        ++old;
    if (old > 0) {
        m_expired->removePoints(0, old);
        m_expiredTips.remove(0, old);
    }
}

void LeaseHoldersChart::clearHistory()
{
    for (QLineSeries* s : std::as_const(m_series)) {
        removeSeries(s);
        delete s;
    }
    m_series.clear();
    m_expired->clear();
    m_expiredTips.clear();
    m_times.clear();
    niceCountAxis(m_y, 0);
}

void LeaseHoldersChart::showMarkerTip(const QPointF& point, bool state)
{
    if (!state) {
        QToolTip::hideText();
        return;
    }
    // The marker nearest to the hovered point (markers of one sample share its time).
    int best = -1;
    double bestDistance = 0;
    for (int i = 0; i < m_expired->count(); ++i) {
        const QPointF p = m_expired->at(i);
        const double d = std::abs(p.x() - point.x()) + std::abs(p.y() - point.y());
        if (best < 0 || d < bestDistance) {
            best = i;
            bestDistance = d;
        }
    }
    if (best >= 0 && best < m_expiredTips.size())
        QToolTip::showText(QCursor::pos(), m_expiredTips.at(best));
}

} // namespace outbox::desktop
