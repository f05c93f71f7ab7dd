#include "core/metrics/MetricsSampler.h"

#include "core/metrics/MetricsSamplerWorker.h"

namespace outbox {

MetricsSampler::MetricsSampler(const DatabaseTarget& target, QObject* parent) : QObject(parent)
{
    qRegisterMetaType<outbox::MetricsSnapshot>();
    m_worker = new MetricsSamplerWorker(target);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &MetricsSamplerWorker::snapshotReady, this, &MetricsSampler::snapshotReady);
    connect(m_worker, &MetricsSamplerWorker::failed, this, &MetricsSampler::failed);
    m_thread.setObjectName(QStringLiteral("metrics-sampler"));
    m_thread.start();
}

MetricsSampler::~MetricsSampler()
{
    stop();
    m_thread.quit();
    m_thread.wait();
}

void MetricsSampler::start(int intervalMs)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, intervalMs] { w->start(intervalMs); }, Qt::QueuedConnection);
}

void MetricsSampler::setInterval(int intervalMs)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, intervalMs] { w->setInterval(intervalMs); }, Qt::QueuedConnection);
}

void MetricsSampler::setPaused(bool paused)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, paused] { w->setPaused(paused); }, Qt::QueuedConnection);
}

void MetricsSampler::setUnconsumedConsumers(const QStringList& consumers, qint64 olderThanMs, qint64 windowMs)
{
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker, consumers, olderThanMs, windowMs] {
            w->setUnconsumedConsumers(consumers, olderThanMs, windowMs);
        },
        Qt::QueuedConnection);
}

void MetricsSampler::setConsumerLag(const ConsumerLag::Options& options)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, options] { w->setConsumerLag(options); }, Qt::QueuedConnection);
}

void MetricsSampler::sampleNow()
{
    QMetaObject::invokeMethod(m_worker, &MetricsSamplerWorker::tick, Qt::QueuedConnection);
}

void MetricsSampler::stop()
{
    if (m_thread.isRunning())
        QMetaObject::invokeMethod(m_worker, &MetricsSamplerWorker::stop, Qt::BlockingQueuedConnection);
}

} // namespace outbox
