#include "ui/desktop/widgets/ChartAxes.h"

#include <QChart>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QFontMetricsF>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace outbox::desktop {

namespace {

constexpr int MostIntervals = 5;
// Where an axis keeps what niceCountAxis was asked for and how many intervals its plot holds.
constexpr char DataMax[] = "outboxCountMax";
constexpr char Intervals[] = "outboxCountIntervals";

} // namespace

void niceCountAxis(QValueAxis* axis, double max)
{
    axis->setProperty(DataMax, max);
    const QVariant allowed = axis->property(Intervals);
    const int most = allowed.isValid() ? std::clamp(allowed.toInt(), 1, MostIntervals) : MostIntervals;
    max = std::max(1.0, max);
    double step = 1;
    for (double magnitude = 1;; magnitude *= 10) {
        bool found = false;
        for (double m : {1.0, 2.0, 5.0}) {
            if (magnitude * m * most >= max) {
                step = magnitude * m;
                found = true;
                break;
            }
        }
        if (found)
            break;
    }
    const int intervals = std::max(1, int(std::ceil(max / step)));
    axis->setLabelFormat(QStringLiteral("%d"));
    axis->setRange(0, step * intervals);
    axis->setTickCount(intervals + 1);
    axis->setMinorTickCount(0);
}

void keepCountLabels(QChart* chart)
{
    QObject::connect(chart, &QChart::plotAreaChanged, chart, [chart](const QRectF& plot) {
        for (QAbstractAxis* a : chart->axes(Qt::Vertical)) {
            auto* axis = qobject_cast<QValueAxis*>(a);
            if (!axis || !axis->property(DataMax).isValid())
                continue;
            // A label needs a line of text and its padding above and below.
            const double line = QFontMetricsF(axis->labelsFont()).height() + 6;
            const int fit = std::clamp(int(plot.height() / line) - 1, 1, MostIntervals);
            if (axis->property(Intervals).toInt() == fit)
                continue;
            axis->setProperty(Intervals, fit);
            niceCountAxis(axis, axis->property(DataMax).toDouble());
        }
    });
}

void fitTimeAxis(QDateTimeAxis* axis, qint64 firstMs, qint64 lastMs)
{
    const qint64 from = firstMs / 1000 * 1000;
    qint64 seconds = std::max<qint64>(1, (lastMs - from + 999) / 1000);
    int intervals = int(std::min<qint64>(seconds, 4));
    seconds = (seconds + intervals - 1) / intervals * intervals;
    axis->setTickCount(intervals + 1);
    axis->setRange(QDateTime::fromMSecsSinceEpoch(from),
                   QDateTime::fromMSecsSinceEpoch(from + seconds * 1000));
}

} // namespace outbox::desktop
