#pragma once

#include "core/consumer/InboxConsumer.h"

#include <QMutex>
#include <QThread>
#include <atomic>
#include <functional>
#include <memory>

namespace outbox {

// Runs one InboxConsumer on its own thread (own connection, own Kafka client) until stop().
// `outboxctl consume` and the demo run one.
class ConsumerRunner
{
public:
    // One log line of the consumer; called from the consumer's thread.
    using Logger = std::function<void(const QString& line)>;

    ConsumerRunner(DatabaseTarget target, ConsumerOptions options, InboxConsumer::Handler handler,
                   InboxConsumerStats& stats, Logger log = {});
    ~ConsumerRunner();

    // Before start(): see InboxConsumer::BatchHandler.
    void setBatchHandler(InboxConsumer::BatchHandler handler) { m_batchHandler = std::move(handler); }
    void start();
    void stop();
    bool finished() const { return m_finished.load(); }
    QString error() const;

private:
    DatabaseTarget m_target;
    ConsumerOptions m_options;
    InboxConsumer::Handler m_handler;
    InboxConsumer::BatchHandler m_batchHandler;
    InboxConsumerStats& m_stats;
    Logger m_log;
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_finished{false};
    std::unique_ptr<QThread> m_thread;
    mutable QMutex m_mutex;
    QString m_error;
};

// "received … processed … duplicates … dead letters … retries …" for progress lines.
QString consumerProgressLine(const InboxConsumerStats& stats);

} // namespace outbox
