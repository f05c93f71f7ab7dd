#pragma once

#include "core/relay/Relay.h"

#include <QThread>
#include <atomic>
#include <memory>

namespace outbox::test {

// Runs one in-process Relay on its own thread (own connection and producer) until stop().
class RelayThread
{
public:
    // The outbox tables of `url` without a table prefix.
    RelayThread(const DatabaseUrl& url, RelayOptions options);
    ~RelayThread();
    void start();
    void stop();
    RelayStats& stats() { return m_stats; }
    QString startError() const { return m_error; }

private:
    DatabaseTarget m_target;
    RelayOptions m_options;
    RelayStats m_stats;
    std::atomic<bool> m_stop{false};
    std::unique_ptr<QThread> m_thread;
    QString m_error;
};

// Options for tests: short timeouts and leases so failure windows close in seconds.
RelayOptions testRelayOptions(const QString& bootstrap, const QString& workerId);

} // namespace outbox::test
