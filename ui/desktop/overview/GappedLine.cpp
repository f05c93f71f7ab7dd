#include "ui/desktop/overview/GappedLine.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>

namespace outbox::desktop {

GappedLine::GappedLine(QChart* chart, QAbstractAxis* x, QAbstractAxis* y, const QString& name,
                       const QPen& pen)
    : QObject(chart), m_chart(chart), m_x(x), m_y(y), m_name(name), m_pen(pen)
{
    newSegment();
}

QLineSeries* GappedLine::newSegment()
{
    auto* series = new QLineSeries;
    series->setName(m_name);
    series->setPen(m_pen);
    m_chart->addSeries(series);
    series->attachAxis(m_x);
    series->attachAxis(m_y);
    if (!m_segments.isEmpty())
        for (QLegendMarker* marker : m_chart->legend()->markers(series))
            marker->setVisible(false); // one legend entry per line
    m_segments << series;
    return series;
}

void GappedLine::append(double x, double y)
{
    QLineSeries* last = m_segments.constLast();
    if (m_broken && last->count() > 0)
        last = newSegment();
    m_broken = false;
    last->append(x, y);
}

void GappedLine::trim(int points)
{
    int excess = count() - points;
    while (excess > 0) {
        QLineSeries* oldest = m_segments.first();
        const int drop = std::min(excess, int(oldest->count()));
        oldest->removePoints(0, drop);
        excess -= drop;
        if (oldest->count() == 0 && m_segments.size() > 1) {
            m_segments.removeFirst();
            m_chart->removeSeries(oldest);
            delete oldest;
            // The legend entry moves to the oldest stretch left.
            for (QLegendMarker* marker : m_chart->legend()->markers(m_segments.first()))
                marker->setVisible(true);
        }
    }
}

void GappedLine::clear()
{
    while (m_segments.size() > 1) {
        QLineSeries* s = m_segments.takeLast();
        m_chart->removeSeries(s);
        delete s;
    }
    m_segments.first()->clear();
    m_broken = false;
}

void GappedLine::setName(const QString& name)
{
    m_name = name;
    for (QLineSeries* s : std::as_const(m_segments))
        s->setName(name);
}

int GappedLine::count() const
{
    int n = 0;
    for (QLineSeries* s : m_segments)
        n += int(s->count());
    return n;
}

double GappedLine::firstX() const
{
    for (QLineSeries* s : m_segments)
        if (s->count() > 0)
            return s->at(0).x();
    return 0;
}

QList<QPointF> GappedLine::points() const
{
    QList<QPointF> all;
    for (QLineSeries* s : m_segments)
        all += s->points();
    return all;
}

} // namespace outbox::desktop
