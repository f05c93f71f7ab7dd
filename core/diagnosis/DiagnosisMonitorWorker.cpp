#include "core/diagnosis/DiagnosisMonitorWorker.h"

#include "core/diagnosis/Doctor.h"

namespace outbox {

DiagnosisMonitorWorker::DiagnosisMonitorWorker(DatabaseTarget target, DiagnosisOptions options)
    : m_target(std::move(target)), m_options(std::move(options))
{
}

void DiagnosisMonitorWorker::start(int intervalMs)
{
    if (!m_timer) {
        m_timer = new QTimer(this);
        connect(m_timer, &QTimer::timeout, this, &DiagnosisMonitorWorker::run);
    }
    if (intervalMs <= 0) {
        m_timer->stop();
        return;
    }
    m_timer->start(intervalMs);
    run();
}

Result<DiagnosisReport> DiagnosisMonitorWorker::diagnose(const QStringList& only)
{
    if (!m_db) {
        auto db = m_target.open(QStringLiteral("doctor"));
        if (!db)
            return db.error();
        m_db = std::move(db).value();
    }
    DiagnosisOptions options = m_options;
    options.onlyChecks = only;
    // The prepared commands reach the database this monitor reads.
    options.connectionArguments = m_target.outboxctlArguments();
    auto report = Doctor(*m_db, options).run();
    if (!report)
        m_db.reset(); // reconnect next time
    return report;
}

void DiagnosisMonitorWorker::run()
{
    auto report = diagnose({});
    if (!report) {
        emit failed(report.message());
        return;
    }
    emit reportReady(*report);
}

void DiagnosisMonitorWorker::check(const QStringList& checkIds)
{
    auto report = diagnose(checkIds);
    if (!report) {
        emit failed(report.message());
        return;
    }
    emit checked(*report);
}

void DiagnosisMonitorWorker::stop()
{
    if (m_timer)
        m_timer->stop();
    m_db.reset();
}

} // namespace outbox
