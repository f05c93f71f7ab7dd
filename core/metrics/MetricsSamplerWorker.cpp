#include "core/metrics/MetricsSamplerWorker.h"

#include "core/metrics/MetricsQuery.h"
#include "core/support/Failpoints.h"

namespace outbox {

MetricsSamplerWorker::MetricsSamplerWorker(DatabaseTarget target) : m_target(std::move(target)) {}

void MetricsSamplerWorker::start(int intervalMs)
{
    if (!m_timer) {
        m_timer = new QTimer(this);
        connect(m_timer, &QTimer::timeout, this, &MetricsSamplerWorker::tick);
    }
    m_timer->start(intervalMs);
    tick();
}

void MetricsSamplerWorker::setInterval(int intervalMs)
{
    if (m_timer)
        m_timer->setInterval(intervalMs);
}

void MetricsSamplerWorker::setPaused(bool paused)
{
    m_paused = paused;
}

void MetricsSamplerWorker::setUnconsumedConsumers(const QStringList& consumers, qint64 olderThanMs,
                                                  qint64 windowMs)
{
    m_unconsumedConsumers = consumers;
    m_unconsumedOlderThanMs = olderThanMs;
    m_unconsumedWindowMs = windowMs;
}

void MetricsSamplerWorker::setConsumerLag(const ConsumerLag::Options& options)
{
    m_lag = options;
    m_lagAge.invalidate();
}

void MetricsSamplerWorker::tick()
{
    if (m_paused)
        return;
    if (!m_db) {
        auto db = m_target.open(QStringLiteral("sampler"));
        if (!db) {
            emit failed(db.message());
            return;
        }
        m_db = std::move(db).value();
    }
    // Tests stand for a database that stops answering with this failpoint.
    if (Status s = Failpoints::hit("metrics.sample"); !s) {
        emit failed(s.message());
        m_db.reset();
        return;
    }
    MetricsQuery query(*m_db);
    query.setUnconsumedConsumers(m_unconsumedConsumers, m_unconsumedOlderThanMs, m_unconsumedWindowMs);
    query.setMemory(&m_memory);
    auto snapshot = query.sample();
    if (!snapshot) {
        emit failed(snapshot.message());
        m_db.reset(); // reconnect on the next tick
        return;
    }
    if (!m_lag.bootstrap.isEmpty()) {
        static constexpr qint64 LagIntervalMs = 10000;
        if (!m_lagAge.isValid() || m_lagAge.elapsed() >= LagIntervalMs) {
            m_lagAge.start();
            m_lastLag.clear();
            m_lastLagError.clear();
            ConsumerLag::Options o = m_lag;
            o.timeoutMs = std::min(o.timeoutMs, 3000);
            for (auto it = snapshot->consumerProcessedTotal.cbegin();
                 it != snapshot->consumerProcessedTotal.cend(); ++it) {
                auto lag = ConsumerLag::query(o, it.key());
                if (!lag) {
                    m_lastLagError = lag.message();
                    break;
                }
                m_lastLag += *lag;
            }
        }
        snapshot->consumerLag = m_lastLag;
        snapshot->consumerLagError = m_lastLagError;
    }
    emit snapshotReady(*snapshot);
}

void MetricsSamplerWorker::stop()
{
    if (m_timer)
        m_timer->stop();
    m_db.reset();
}

} // namespace outbox
