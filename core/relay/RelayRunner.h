#pragma once

#include "core/db/DatabaseTarget.h"
#include "core/relay/RelayOptions.h"
#include "core/relay/RelayStats.h"
#include "core/support/Result.h"

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace outbox {

// A pool of N relay workers, each on its own thread with its own connection and producer, run until
// `stop` is set, with their counters added up. `outboxctl relay` and the demo run one.
class RelayRunner
{
public:
    // One log line of a worker: its id ("worker" when none was given) and the line.
    using Logger = std::function<void(const QString& workerId, const QString& line)>;

    RelayRunner(DatabaseTarget target, RelayOptions options, int workers);
    // Blocks. `onTick` runs on the calling thread about every 200 ms while the workers run, and
    // once more when a stop is seen, before the workers drain; `log` (may be empty) is called from
    // the workers' threads.
    Status run(const std::atomic<bool>& stop, const Logger& log, const std::function<void()>& onTick = {});
    // Every worker is connected and in its loop (readiness for a service manager).
    bool allRunning() const;
    // The workers' counters added up.
    std::unique_ptr<RelayStats> totals() const;

private:
    DatabaseTarget m_target;
    RelayOptions m_options;
    int m_workers;
    std::vector<std::unique_ptr<RelayStats>> m_stats; // one per worker
};

// "sent … (…/s) failed … | commit->ack p50 … ms p99 … ms" for progress lines ("n/a" instead of a
// latency before any delivery); the rate is over the `elapsedMs` since `sentBefore` was read.
QString relayProgressLine(const RelayStats& stats, qint64 sentBefore, qint64 elapsedMs);

} // namespace outbox
