#include "ui/web/LatestSnapshot.h"

namespace outbox::web {

void LatestSnapshot::update(const MetricsSnapshot& snapshot)
{
    m_snapshot = snapshot;
    m_received.start();
    m_lastError.clear();
    ++m_count;
}

void LatestSnapshot::fail(const QString& message)
{
    m_lastError = message;
}

} // namespace outbox::web
