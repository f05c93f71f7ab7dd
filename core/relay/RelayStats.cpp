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
    m_recentCommitToClaim.clear();
    m_recentClaimToAck.clear();
}

void RelayStats::recordStages(qint64 commitToClaimMs, qint64 claimToAckMs)
{
    QMutexLocker lock(&m_mutex);
    if (m_recentCommitToClaim.size() < MaxRecent) {
        m_recentCommitToClaim << std::max<qint64>(0, commitToClaimMs);
        m_recentClaimToAck << std::max<qint64>(0, claimToAckMs);
    }
}

QVector<qint64> RelayStats::recentCommitToClaim() const
{
    QMutexLocker lock(&m_mutex);
    return m_recentCommitToClaim;
}

QVector<qint64> RelayStats::recentClaimToAck() const
{
    QMutexLocker lock(&m_mutex);
    return m_recentClaimToAck;
}

void RelayStats::accumulate(const RelayStats& o)
{
    claimed += o.claimed.load();
    sent += o.sent.load();
    failed += o.failed.load();
    dead += o.dead.load();
    retried += o.retried.load();
    released += o.released.load();
    fenced += o.fenced.load();
    leaseExpired += o.leaseExpired.load();
    redelivered += o.redelivered.load();
    markErrors += o.markErrors.load();
    replayed += o.replayed.load();
    retained += o.retained.load();
    for (size_t i = 0; i < m_buckets.size(); ++i)
        m_buckets[i] += o.m_buckets[i].load();
    m_latencySumMs += o.m_latencySumMs.load();
    m_latencyCount += o.m_latencyCount.load();
    const QVector<qint64> samples = o.recentLatencies();
    QMutexLocker lock(&m_mutex);
    m_recent += samples.mid(0, std::max<int>(0, MaxRecent - int(m_recent.size())));
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
