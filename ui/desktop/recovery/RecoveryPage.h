#pragma once

#include "core/diagnosis/DiagnosisOptions.h"
#include "core/diagnosis/DiagnosisReport.h"
#include "ui/desktop/ConsoleContext.h"

#include <QElapsedTimer>
#include <QWidget>
#include <memory>

class QLabel;
class QPushButton;
class QTableView;

namespace outbox {
class DiagnosisMonitor;
}

namespace outbox::desktop {

class FindingsModel;
class RecoveryFlow;

// Recovery: the doctor's findings (run on their own thread and connection every minute and on
// demand), worst first; choosing one opens its guided RecoveryFlow beside the list. The tab shows
// the number of critical findings and warnings (countsChanged).
class RecoveryPage : public QWidget
{
    Q_OBJECT

public:
    static constexpr int IntervalMs = 60000;
    // Choosing a finding whose report is older runs the doctor again first.
    static constexpr int FreshReportMs = 5000;

    explicit RecoveryPage(QWidget* parent = nullptr);
    ~RecoveryPage() override;

    // Starts diagnosing the connection's database (null sessions: disconnected, the page clears).
    void setContext(const ConsoleContext& context, const DiagnosisOptions& options = {});
    FindingsModel* model() const { return m_model; }
    RecoveryFlow* flow() const { return m_flow; }
    int reportsSeen() const { return m_reports; }

public slots:
    void runDoctor();

signals:
    void countsChanged(int critical, int warning);
    void statusMessage(const QString& message);
    void startManagedRelay(const QStringList& arguments, bool brokerKnown);

private:
    void showReport(const DiagnosisReport& report);
    void choose(int row);

    ConsoleContext m_context;
    std::unique_ptr<DiagnosisMonitor> m_monitor;
    FindingsModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    QLabel* m_lastRun = nullptr;
    QPushButton* m_runNow = nullptr;
    RecoveryFlow* m_flow = nullptr;
    int m_reports = 0;
    QElapsedTimer m_lastReport; // since the last report arrived
};

} // namespace outbox::desktop
