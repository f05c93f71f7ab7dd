#pragma once

#include <QColor>
#include <QList>
#include <QObject>
#include <QPen>
#include <QPointF>
#include <QString>

class QAbstractAxis;
class QChart;
class QLineSeries;

namespace outbox::desktop {

// One line of a chart that can have holes: samples the console did not get (the database did not
// answer) leave a gap instead of a straight line drawn across them. Each stretch without a gap is
// a QLineSeries of its own in the same colour; only the first one has a legend entry.
class GappedLine : public QObject
{
public:
    GappedLine(QChart* chart, QAbstractAxis* x, QAbstractAxis* y, const QString& name, const QPen& pen);

    void append(double x, double y);
    // The next point starts a new stretch (nothing is drawn between the last point and it).
    void breakLine() { m_broken = true; }
    // Keeps the newest `points`, dropping stretches that become empty.
    void trim(int points);
    void clear();
    void setName(const QString& name);

    int count() const;
    double firstX() const;
    QList<QPointF> points() const;
    QLineSeries* legendSeries() const { return m_segments.first(); }
    int segments() const { return int(m_segments.size()); }

private:
    QLineSeries* newSegment();

    QChart* m_chart;
    QAbstractAxis* m_x;
    QAbstractAxis* m_y;
    QString m_name;
    QPen m_pen;
    QList<QLineSeries*> m_segments;
    bool m_broken = false;
};

} // namespace outbox::desktop
