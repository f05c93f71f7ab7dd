#include "ui/desktop/widgets/ChartAxes.h"

#include <QDateTime>
#include <QDateTimeAxis>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace outbox::desktop {

void niceCountAxis(QValueAxis* axis, double max)
{
    max = std::max(1.0, max);
    double step = 1;
    for (double magnitude = 1;; magnitude *= 10) {
        bool found = false;
        for (double m : {1.0, 2.0, 5.0}) {
            if (magnitude * m * 5 >= max) {
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
