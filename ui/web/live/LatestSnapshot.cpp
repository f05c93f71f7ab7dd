#include "ui/web/live/LatestSnapshot.h"

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

std::optional<WebReply> LatestSnapshot::unavailable() const
{
    if (has())
        return std::nullopt;
    return WebReply::error(503, healthy() ? tr("no sample has been taken yet; try again in a moment")
                                          : tr("the sampler cannot read the database: %1").arg(lastError()));
}

} // namespace outbox::web
