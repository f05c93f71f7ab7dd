#include "core/diagnosis/DiagnosisMonitor.h"

#include "core/diagnosis/DiagnosisMonitorWorker.h"

namespace outbox {

DiagnosisMonitor::DiagnosisMonitor(const DatabaseTarget& target, const DiagnosisOptions& options,
                                   QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<outbox::DiagnosisReport>();
    m_worker = new DiagnosisMonitorWorker(target, options);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &DiagnosisMonitorWorker::reportReady, this, &DiagnosisMonitor::reportReady);
    connect(m_worker, &DiagnosisMonitorWorker::checked, this, &DiagnosisMonitor::checked);
    connect(m_worker, &DiagnosisMonitorWorker::failed, this, &DiagnosisMonitor::failed);
    m_thread.setObjectName(QStringLiteral("diagnosis"));
    m_thread.start();
}

DiagnosisMonitor::~DiagnosisMonitor()
{
    stop();
    m_thread.quit();
    m_thread.wait();
}

void DiagnosisMonitor::start(int intervalMs)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, intervalMs] { w->start(intervalMs); }, Qt::QueuedConnection);
}

void DiagnosisMonitor::runNow()
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->run(); }, Qt::QueuedConnection);
}

void DiagnosisMonitor::check(const QStringList& checkIds)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, checkIds] { w->check(checkIds); }, Qt::QueuedConnection);
}

void DiagnosisMonitor::stop()
{
    if (m_thread.isRunning())
        QMetaObject::invokeMethod(
            m_worker, [w = m_worker] { w->stop(); }, Qt::BlockingQueuedConnection);
}

} // namespace outbox
