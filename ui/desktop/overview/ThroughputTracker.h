#pragma once

#include "core/metrics/MetricsSnapshot.h"

#include <QHash>

namespace outbox::desktop {

// Sent and failed per sampling interval from the relays' running counters. Counters are tracked
// per relay so a restarted relay (counters back at zero) or one that left does not show as a
// negative or a huge spike: a counter that went down counts from zero.
class ThroughputTracker
{
public:
    struct Delta
    {
        qint64 sent = 0;
        qint64 failed = 0;
        bool first = true; // no earlier sample to compare with
    };

    Delta add(const MetricsSnapshot& snapshot);
    void reset()
    {
        m_previous.clear();
        m_seen = false;
    }

private:
    struct Counters
    {
        qint64 sent = 0;
        qint64 failed = 0;
    };
    QHash<QString, Counters> m_previous;
    bool m_seen = false;
};

} // namespace outbox::desktop
