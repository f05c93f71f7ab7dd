#pragma once

#include "core/db/Database.h"
#include "core/db/DatabaseTarget.h"
#include "core/diagnosis/DiagnosisOptions.h"
#include "core/diagnosis/DiagnosisReport.h"

#include <QObject>
#include <QTimer>
#include <memory>

namespace outbox {

// Lives on the monitor's thread; owns the connection and the timer.
class DiagnosisMonitorWorker : public QObject
{
    Q_OBJECT

public:
    DiagnosisMonitorWorker(DatabaseTarget target, DiagnosisOptions options);

    void start(int intervalMs);
    void run();
    void check(const QStringList& checkIds);
    void stop();

signals:
    void reportReady(const outbox::DiagnosisReport& report);
    void checked(const outbox::DiagnosisReport& report);
    void failed(const QString& message);

private:
    Result<DiagnosisReport> diagnose(const QStringList& only);

    DatabaseTarget m_target;
    DiagnosisOptions m_options;
    std::unique_ptr<Database> m_db;
    QTimer* m_timer = nullptr;
};

} // namespace outbox
