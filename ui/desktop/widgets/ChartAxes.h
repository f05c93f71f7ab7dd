#pragma once

#include <QtGlobal>

class QDateTimeAxis;
class QValueAxis;

namespace outbox::desktop {

// A count axis from 0 with whole, round steps (1, 2, 5 × 10^k) and at most five intervals, so
// the labels read 0 100 200 300 400, never 96 192 288 or 0 0 0 0.
void niceCountAxis(QValueAxis* axis, double max);
// A time axis over whole seconds whose ticks fall on whole seconds: every label is different.
void fitTimeAxis(QDateTimeAxis* axis, qint64 firstMs, qint64 lastMs);

} // namespace outbox::desktop
