#pragma once

#include "core/db/DatabaseTarget.h"
#include "core/relay/RelayOptions.h"
#include "core/relay/RelayPulse.h"
#include "core/relay/RelayStats.h"

#include <QString>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

class QThread;

namespace outbox {

class Database;
struct ReapResult;
template <typename T> class Result;

// A relay worker's heartbeat and lease reaper, on a thread and a database connection of their own:
// every heartbeat interval the registry row (state, counters, leases held), every half lease the
// reaper (expired leases, and lost held claims in claim_mode held). Neither waits for the worker's
// loop, so a loop held up by a broker still proves that the relay lives: the row says DEGRADED and
// what the loop waits for once a broker call outlasts two heartbeat intervals, and expired leases
// go back to PENDING (docs/operator-guide.md, "Relay"). It also measures the database's clock for
// the worker's latencies (RelayPulse::clockOffsetMs) and hands it the desired state.
class RelayHeartbeat
{
public:
    using Logger = std::function<void(const QString&)>;

    RelayHeartbeat(DatabaseTarget target, RelayOptions options, RelayStats& stats, RelayPulse& pulse,
                   Logger log);
    ~RelayHeartbeat();
    RelayHeartbeat(const RelayHeartbeat&) = delete;
    RelayHeartbeat& operator=(const RelayHeartbeat&) = delete;

    // Starts the thread; the first heartbeat and reap run at once.
    void start();
    // Ends the thread (after its current statement); the registry row stays for the worker to remove.
    void stop();
    // A broker call that lasts longer than this is reported (DEGRADED, with what it waits for).
    qint64 stuckAfterMs() const;
    // The database's clock minus this host's, halfway through one round trip on db; nothing when
    // the database does not answer. The worker measures it once before its first claim, the
    // heartbeat again every beat.
    static std::optional<qint64> clockOffsetMs(Database& db);

private:
    void run();
    bool beat(Database& db); // false when the row could not be written
    void reap(Database& db);
    void reaped(const Result<ReapResult>& result, bool held);
    void measureClock(Database& db);

    DatabaseTarget m_target;
    RelayOptions m_options;
    RelayStats& m_stats;
    RelayPulse& m_pulse;
    Logger m_log;
    std::unique_ptr<QThread> m_thread;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stop = false;
    qint64 m_claimedAtHeartbeat = 0;
    QString m_reportedError; // the stuck call's sentence last written, logged once
};

} // namespace outbox
