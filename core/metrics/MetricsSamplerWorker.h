#pragma once

#include "core/db/Database.h"
#include "core/db/DatabaseTarget.h"
#include "core/metrics/MetricsQuery.h"
#include "core/metrics/MetricsSnapshot.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <memory>

namespace outbox {

// Lives on the sampler's thread; owns the connection and the timer.
class MetricsSamplerWorker : public QObject
{
    Q_OBJECT

public:
    explicit MetricsSamplerWorker(DatabaseTarget target);

public slots:
    void start(int intervalMs);
    void setInterval(int intervalMs);
    void setPaused(bool paused);
    void setUnconsumedConsumers(const QStringList& consumers, qint64 olderThanMs, qint64 windowMs);
    void setConsumerLag(const outbox::ConsumerLag::Options& options);
    void tick();
    void stop();

signals:
    void snapshotReady(const outbox::MetricsSnapshot& snapshot);
    void failed(const QString& message);

private:
    DatabaseTarget m_target;
    std::unique_ptr<Database> m_db;
    QTimer* m_timer = nullptr;
    bool m_paused = false;
    QStringList m_unconsumedConsumers;
    qint64 m_unconsumedOlderThanMs = 60000;
    qint64 m_unconsumedWindowMs = 3600000;
    ConsumerLag::Options m_lag;
    QElapsedTimer m_lagAge; // the brokers are asked at most every LagIntervalMs
    QVector<PartitionLag> m_lastLag;
    QString m_lastLagError;
    MetricsQueryMemory m_memory; // counts repeated only as often as their cost allows
};

} // namespace outbox
