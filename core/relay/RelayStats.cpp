#include "core/relay/RelayStats.h"

#include <QMutexLocker>

#include <algorithm>
#include <cmath>

namespace outbox {
namespace {
constexpr int MaxRecent = 200000;
}

void RelayStats::recordLatency(qint64 ms)
{
    ms = std::max<qint64>(0, ms);
    const double seconds = double(ms) / 1000.0;
    for (size_t i = 0; i < LatencyBuckets.size(); ++i) {
        if (seconds <= LatencyBuckets[i]) {
            m_buckets[i].fetch_add(1);
            break;
        }
    }
    m_latencySumMs.fetch_add(ms);
    m_latencyCount.fetch_add(1);
    QMutexLocker lock(&m_mutex);
    if (m_recent.size() < MaxRecent)
        m_recent << ms;
}

std::array<qint64, RelayStats::LatencyBuckets.size()> RelayStats::bucketCounts() const
{
    std::array<qint64, LatencyBuckets.size()> out{};
    qint64 running = 0;
    for (size_t i = 0; i < LatencyBuckets.size(); ++i) {
        running += m_buckets[i].load();
        out[i] = running;
    }
    return out;
}

double RelayStats::latencySumSeconds() const
{
    return double(m_latencySumMs.load()) / 1000.0;
}

qint64 RelayStats::latencyCount() const
{
    return m_latencyCount.load();
}

QVector<qint64> RelayStats::recentLatencies() const
{
    QMutexLocker lock(&m_mutex);
    return m_recent;
}

void RelayStats::clearRecentLatencies()
{
    QMutexLocker lock(&m_mutex);
    m_recent.clear();
}

qint64 percentile(QVector<qint64> samples, double p)
{
    if (samples.isEmpty())
        return -1;
    std::sort(samples.begin(), samples.end());
    const double rank = std::clamp(p, 0.0, 100.0) / 100.0 * double(samples.size() - 1);
    return samples.at(int(std::lround(rank)));
}

} // namespace outbox
