#include "core/support/Backoff.h"

#include <QRandomGenerator>
#include <algorithm>

namespace outbox {

qint64 Backoff::ceilingFor(int attempt) const
{
    const int exponent = std::clamp(attempt - 1, 0, 40);
    const double ceiling = double(m_baseMs) * double(1LL << std::min(exponent, 40));
    return qint64(std::min(double(m_capMs), ceiling));
}

qint64 Backoff::delayFor(int attempt) const
{
    const qint64 ceiling = ceilingFor(attempt);
    return ceiling <= 0 ? 0 : qint64(QRandomGenerator::global()->bounded(quint64(ceiling) + 1));
}

} // namespace outbox
