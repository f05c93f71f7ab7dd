#pragma once

#include "core/db/DatabaseUrl.h"
#include "core/relay/RelayOptions.h"
#include "core/relay/RelayStats.h"
#include "core/support/Result.h"

#include <QTextStream>
#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace outbox::cli {

// Runs N relay workers, each on its own thread with its own connection and producer, until
// `stop` is set; prints a progress line every `reportMs` (0: never). Used by relay and demo.
class RelayRunner
{
public:
    RelayRunner(DatabaseUrl url, RelayOptions options, int workers);
    // Blocks. `onTick` runs on the calling thread about every 200 ms while the workers run, and
    // once more when a stop is seen, before the workers drain.
    Status run(const std::atomic<bool>& stop, bool verbose, const std::function<void()>& onTick = {});
    // Every worker is connected and in its loop.
    bool allRunning() const;
    // The workers' counters added up.
    std::unique_ptr<RelayStats> totals() const;

private:
    DatabaseUrl m_url;
    RelayOptions m_options;
    int m_workers;
    std::vector<std::unique_ptr<RelayStats>> m_stats; // one per worker
};

} // namespace outbox::cli
