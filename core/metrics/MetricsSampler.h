#pragma once

#include "core/db/DatabaseTarget.h"
#include "core/metrics/MetricsSnapshot.h"

#include <QObject>
#include <QThread>

namespace outbox {

class MetricsSamplerWorker;

// Samples the outbox on its own thread and connection at a fixed interval and hands every
// snapshot to whoever listens (console charts, web push, /metrics). One sampler serves any
// number of clients. A failed tick reports an error and reconnects on the next one.
class MetricsSampler : public QObject
{
    Q_OBJECT

public:
    explicit MetricsSampler(const DatabaseTarget& target, QObject* parent = nullptr);
    ~MetricsSampler() override;

    void start(int intervalMs);
    void setInterval(int intervalMs);
    void setPaused(bool paused);
    // outbox_unconsumed_events for these consumers (see MetricsQuery::setUnconsumedConsumers).
    void setUnconsumedConsumers(const QStringList& consumers, qint64 olderThanMs = 60000,
                                qint64 windowMs = 3600000);
    // outbox_consumer_lag: asks the brokers (at most every 10 s) for every consumer with an inbox row.
    void setConsumerLag(const ConsumerLag::Options& options);
    void sampleNow();
    void stop();

signals:
    void snapshotReady(const outbox::MetricsSnapshot& snapshot);
    void failed(const QString& message);

private:
    QThread m_thread;
    MetricsSamplerWorker* m_worker = nullptr;
};

} // namespace outbox
