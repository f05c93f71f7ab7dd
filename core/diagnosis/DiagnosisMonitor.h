#pragma once

#include "core/db/DatabaseTarget.h"
#include "core/diagnosis/DiagnosisOptions.h"
#include "core/diagnosis/DiagnosisReport.h"

#include <QObject>
#include <QThread>

namespace outbox {

class DiagnosisMonitorWorker;

// Runs the doctor on its own thread and connection, every `intervalMs` and on demand, and hands
// each report to whoever listens (the web server's findings, the console's Recovery page). A
// failed run reports an error and reconnects on the next one.
class DiagnosisMonitor : public QObject
{
    Q_OBJECT

public:
    // The prepared commands of its reports name `target` (its outboxctlArguments()).
    DiagnosisMonitor(const DatabaseTarget& target, const DiagnosisOptions& options,
                     QObject* parent = nullptr);
    ~DiagnosisMonitor() override;

    // Periodic full runs (the first one at once); 0 stops the timer.
    void start(int intervalMs);
    // A full run now (reportReady).
    void runNow();
    // Runs only these checks now (checked): the recovery flow's verification.
    void check(const QStringList& checkIds);
    void stop();

signals:
    void reportReady(const outbox::DiagnosisReport& report);
    void checked(const outbox::DiagnosisReport& report);
    void failed(const QString& message);

private:
    QThread m_thread;
    DiagnosisMonitorWorker* m_worker = nullptr;
};

} // namespace outbox
