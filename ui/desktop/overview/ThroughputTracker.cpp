#include "ui/desktop/overview/ThroughputTracker.h"

namespace outbox::desktop {

ThroughputTracker::Delta ThroughputTracker::add(const MetricsSnapshot& snapshot)
{
    Delta d;
    d.first = !m_seen;
    QHash<QString, Counters> current;
    for (const RelayRecord& r : snapshot.relays) {
        const QString key = r.workerId + QLatin1Char('@') + r.startedAt.toString(Qt::ISODateWithMs);
        current.insert(key, Counters{r.sentTotal, r.failedTotal});
        if (!m_seen)
            continue;
        const auto it = m_previous.constFind(key);
        const Counters before = it == m_previous.cend() ? Counters{} : *it;
        d.sent += r.sentTotal >= before.sent ? r.sentTotal - before.sent : r.sentTotal;
        d.failed += r.failedTotal >= before.failed ? r.failedTotal - before.failed : r.failedTotal;
    }
    m_previous = current;
    m_seen = true;
    return d;
}

} // namespace outbox::desktop
