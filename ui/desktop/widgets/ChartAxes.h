#pragma once

#include <QtGlobal>

class QChart;
class QDateTimeAxis;
class QValueAxis;

namespace outbox::desktop {

// A count axis from 0 with whole, round steps (1, 2, 5 × 10^k) and at most five intervals, so
// the labels read 0 100 200 300 400, never 96 192 288 or 0 0 0 0 (nor 1 1 1 0 0 when idle).
// Fewer intervals when keepCountLabels found the plot too low for six labels.
void niceCountAxis(QValueAxis* axis, double max);
// The chart's vertical count axes follow its plot's height: as many intervals as labels fit
// (QtCharts cuts each label to "..." once the plot's height shared among them is less than a
// line of text), so a chart squeezed onto a laptop still says what it counts.
void keepCountLabels(QChart* chart);
// A time axis over whole seconds whose ticks fall on whole seconds: every label is different.
void fitTimeAxis(QDateTimeAxis* axis, qint64 firstMs, qint64 lastMs);

} // namespace outbox::desktop
