#pragma once

#include <QMutex>
#include <QVector>
#include <array>
#include <atomic>

namespace outbox {

// Counters of one relay worker, written to its heartbeat row (so /metrics can add them up across
// workers and hosts) and read by the progress lines and the benchmark. Give every Relay its own.
// Latency is commit -> broker ack (created_at to the delivery report).
class RelayStats
{
public:
    static constexpr std::array<double, 12> LatencyBuckets = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                                              0.5,   1,    2.5,   5,    10,  30};

    std::atomic<qint64> claimed{0};
    std::atomic<qint64> sent{0};
    std::atomic<qint64> failed{0}; // FAILED (deterministic, or exhausted in ordering mode)
    std::atomic<qint64> dead{0};
    std::atomic<qint64> retried{0};      // back to PENDING with backoff
    std::atomic<qint64> released{0};     // handed back unsent (drain, connection-wide errors)
    std::atomic<qint64> fenced{0};       // marks refused because the lease was taken over
    std::atomic<qint64> leaseExpired{0}; // expired leases this process's reaper returned
    std::atomic<qint64> redelivered{0};  // acked events with attempts > 1: possible duplicates
    std::atomic<qint64> markErrors{0};
    std::atomic<qint64> replayed{0}; // dead letters delivered again and marked REPLAYED
    std::atomic<qint64> retained{0}; // expired SENT rows deleted by the retention
    std::atomic<bool> inLoop{false}; // connected and in its loop (readiness for the service manager)

    void recordLatency(qint64 ms);
    // Cumulative bucket counts (Prometheus histogram), the sum in seconds and the count.
    std::array<qint64, LatencyBuckets.size()> bucketCounts() const;
    double latencySumSeconds() const;
    qint64 latencyCount() const;
    // Recent samples (bounded), for percentiles in the benchmark and the demo.
    QVector<qint64> recentLatencies() const;
    void clearRecentLatencies();
    // Where commit -> ack goes (benchmark): commit -> the claim that took the event, and that claim
    // -> the broker's ack, per acked event; recent samples (bounded) like recentLatencies().
    void recordStages(qint64 commitToClaimMs, qint64 claimToAckMs);
    QVector<qint64> recentCommitToClaim() const;
    QVector<qint64> recentClaimToAck() const;
    // Adds another worker's counters and samples to these (for a process-wide total).
    void accumulate(const RelayStats& other);

private:
    std::array<std::atomic<qint64>, LatencyBuckets.size()> m_buckets{};
    std::atomic<qint64> m_latencySumMs{0};
    std::atomic<qint64> m_latencyCount{0};
    mutable QMutex m_mutex;
    QVector<qint64> m_recent;
    QVector<qint64> m_recentCommitToClaim;
    QVector<qint64> m_recentClaimToAck;
};

// p in [0, 100]; the samples need not be sorted.
qint64 percentile(QVector<qint64> samples, double p);

} // namespace outbox
