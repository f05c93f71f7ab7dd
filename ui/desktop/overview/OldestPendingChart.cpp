#include "ui/desktop/overview/OldestPendingChart.h"

#include "ui/desktop/widgets/ChartAxes.h"

#include <QDateTimeAxis>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

namespace outbox::desktop {

namespace {

qint64 unitMs(OldestPendingChart::Unit unit)
{
    switch (unit) {
    case OldestPendingChart::Unit::Seconds:
        return 1000;
    case OldestPendingChart::Unit::Minutes:
        return 60000;
    case OldestPendingChart::Unit::Hours:
        return 3600000;
    }
    return 1000;
}

QLineSeries* levelLine(const QString& name, const QColor& colour)
{
    auto* s = new QLineSeries;
    s->setName(name);
    QPen pen(colour);
    pen.setWidth(1);
    pen.setStyle(Qt::DashLine);
    s->setPen(pen);
    return s;
}

} // namespace

OldestPendingChart::OldestPendingChart(int historyPoints, qint64 warningMs, qint64 criticalMs)
    : m_historyPoints(std::max(2, historyPoints)), m_warningMs(warningMs), m_criticalMs(criticalMs)
{
    setObjectName(QStringLiteral("oldestPendingChart"));
    m_x = new QDateTimeAxis;
    m_x->setFormat(QStringLiteral("HH:mm:ss"));
    m_y = new QValueAxis;
    addAxis(m_x, Qt::AlignBottom);
    addAxis(m_y, Qt::AlignLeft);
    m_age = new QLineSeries;
    m_age->setName(ageSeriesName());
    m_age->setObjectName(QStringLiteral("oldestPendingAge"));
    QPen pen(QColor(0x15, 0x65, 0xc0));
    pen.setWidth(2);
    m_age->setPen(pen);
    m_warning = levelLine(tr("warning"), QColor(0xf9, 0xa8, 0x25));
    m_critical = levelLine(tr("critical"), QColor(0xc6, 0x28, 0x28));
    for (QLineSeries* s : {m_age, m_warning, m_critical}) {
        addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    redraw();
}

QString OldestPendingChart::ageSeriesName()
{
    return tr("oldest pending");
}

void OldestPendingChart::addSnapshot(const MetricsSnapshot& snapshot)
{
    m_samples.append(
        {snapshot.takenAt.toMSecsSinceEpoch(), std::max<qint64>(0, snapshot.oldestPendingAgeMs)});
    if (m_samples.size() > m_historyPoints)
        m_samples.remove(0, m_samples.size() - m_historyPoints);
    redraw();
}

void OldestPendingChart::clearHistory()
{
    m_samples.clear();
    redraw();
}

void OldestPendingChart::redraw()
{
    qint64 maxMs = 0;
    for (const auto& s : std::as_const(m_samples))
        maxMs = std::max(maxMs, s.second);
    m_unit = maxMs < 3 * 60000 ? Unit::Seconds : maxMs < 3 * 3600000 ? Unit::Minutes : Unit::Hours;
    const double per = double(unitMs(m_unit));
    // The unit in the title: an axis title is cut off on a small chart.
    setTitle(tr("Oldest pending event's age (%1)")
                 .arg(m_unit == Unit::Seconds   ? tr("seconds")
                      : m_unit == Unit::Minutes ? tr("minutes")
                                                : tr("hours")));
    QList<QPointF> points;
    points.reserve(m_samples.size());
    for (const auto& s : std::as_const(m_samples))
        points << QPointF(double(s.first), double(s.second) / per);
    m_age->replace(points);
    niceCountAxis(m_y, double(maxMs) / per);

    // The tile's levels, where the axis reaches them.
    const double top = m_y->max();
    for (auto [line, level] : {std::pair{m_warning, m_warningMs}, std::pair{m_critical, m_criticalMs}}) {
        const double y = double(level) / per;
        if (m_samples.isEmpty() || y > top) {
            line->clear();
            continue;
        }
        line->replace(
            QList<QPointF>{{double(m_samples.first().first), y}, {double(m_samples.last().first), y}});
    }
    if (!m_samples.isEmpty())
        fitTimeAxis(m_x, m_samples.first().first, m_samples.last().first);
}

} // namespace outbox::desktop
