#pragma once

#include "core/diagnosis/DiagnosisOptions.h"
#include "core/diagnosis/Finding.h"
#include "core/ops/BulkActionEngine.h"
#include "ui/desktop/ConsoleContext.h"

#include <QWidget>
#include <atomic>
#include <memory>

class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QScrollArea;
class QPushButton;
class QStackedWidget;
class QTableWidget;

namespace outbox::desktop {

// The guided recovery of one finding, step by step on one page:
//   1. what happened (evidence; samples open in an inspector), why (causes), what to do (runbook
//      steps to tick off) and the prepared actions;
//   2. the chosen action's preview (a dry run: count and sample), a reason prefilled with the
//      finding id, and a typed confirmation for bulk work or production profiles;
//   3. the run in audited chunks (core's BulkActionEngine) with progress and Cancel;
//   4. verification: the finding's check runs again and shows before and after.
// Every database call runs on the console's action session; nothing blocks the GUI thread.
class RecoveryFlow : public QWidget
{
    Q_OBJECT

public:
    enum Step { WhatHappened, Preview, Running, Verification };

    explicit RecoveryFlow(QWidget* parent = nullptr);

    void setContext(const ConsoleContext& context, const DiagnosisOptions& options);
    // Starts the flow for `finding` at step 1.
    void showFinding(const Finding& finding);
    // A newer report of the finding on screen (step 1): its counts and labels replace the old
    // ones, the chosen action and the ticked runbook steps stay.
    void refreshFinding(const Finding& finding);
    void clear();
    int step() const;
    const Finding& finding() const { return m_finding; }

signals:
    void statusMessage(const QString& message);
    // An action ran (the page runs the doctor again); `done` leaves the flow.
    void acted();
    void done();
    // The operator chose "Start a managed relay" for a prepared relay start: `arguments` are
    // `outboxctl relay`'s options besides the connection; without brokerKnown the broker's address
    // is still to be added.
    void startManagedRelay(const QStringList& arguments, bool brokerKnown);

private:
    void buildWhatHappened();
    void buildPreview();
    void buildRunning();
    void buildVerification();
    void setStep(Step step);
    void selectAction(int row);
    void openSample(int row);
    void preparePreview();
    void showPreview(const ActionResult& preview);
    void updateRunButton();
    void run();
    void finishRun(const Result<ActionResult>& result);
    void verify();
    const PreparedAction* selectedAction() const;

    ConsoleContext m_context;
    DiagnosisOptions m_options;
    Finding m_finding;
    bool m_hasFinding = false;
    int m_action = -1;
    ActionResult m_preview;
    ActionResult m_result;
    QString m_confirmPhrase;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    quint64 m_generation = 0; // answers for an older finding are dropped

    QLabel* m_stepLabel = nullptr;
    QStackedWidget* m_steps = nullptr;
    // 1
    QLabel* m_title = nullptr;
    QLabel* m_evidence = nullptr;
    QListWidget* m_samples = nullptr;
    QPushButton* m_openSample = nullptr;
    QListWidget* m_causes = nullptr;
    QListWidget* m_runbook = nullptr;
    QListWidget* m_actions = nullptr;
    QLabel* m_consequence = nullptr;
    QLineEdit* m_command = nullptr;
    QPushButton* m_copyCommand = nullptr;
    QPushButton* m_previewButton = nullptr;
    QPushButton* m_startRelay = nullptr;
    // 2
    QLabel* m_previewSummary = nullptr;
    QLabel* m_previewOrdering = nullptr;
    QScrollArea* m_previewOrderingBox = nullptr;
    QTableWidget* m_previewSample = nullptr;
    QLineEdit* m_reason = nullptr;
    QLabel* m_confirmLabel = nullptr;
    QLineEdit* m_confirm = nullptr;
    QPushButton* m_run = nullptr;
    // 3
    QProgressBar* m_progress = nullptr;
    QLabel* m_progressText = nullptr;
    QPushButton* m_cancelButton = nullptr;
    // 4
    QLabel* m_verifyText = nullptr;
    QLabel* m_auditText = nullptr;
    QPushButton* m_verifyAgain = nullptr;
};

} // namespace outbox::desktop
