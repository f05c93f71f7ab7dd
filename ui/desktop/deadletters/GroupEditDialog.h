#pragma once

#include "core/db/DeadLetterGroups.h"
#include "core/ops/DeadLetterGroupEditor.h"
#include "ui/desktop/ConsoleContext.h"

#include <QDialog>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace outbox::desktop {

// Repairs the payloads of a dead-letter group by one JSON change (set a member, or replace a value):
// Preview shows what the change makes of every NEW letter of the group (core/ops/
// DeadLetterGroupEditor, as `outboxctl dlq edit-group` and the web console), then a reason and the
// number of letters typed to confirm; Edit runs the edit in audited chunks, each letter locked to the
// edit it was previewed at. Database work runs on the console's sessions, never on the GUI thread.
class GroupEditDialog : public QDialog
{
    Q_OBJECT

public:
    GroupEditDialog(const ConsoleContext& context, const DeadLetterGroup& group, QWidget* parent = nullptr);

signals:
    void statusMessage(const QString& message);
    void edited();

private:
    void preview();
    void run();
    void updateState();

    ConsoleContext m_context;
    DeadLetterGroup m_group;
    std::optional<GroupEditPreview> m_preview;
    QComboBox* m_kind = nullptr;
    QLineEdit* m_path = nullptr;
    QLineEdit* m_from = nullptr;
    QLineEdit* m_to = nullptr;
    QPushButton* m_previewButton = nullptr;
    QLabel* m_summary = nullptr;
    QPlainTextEdit* m_diffs = nullptr;
    QLineEdit* m_reason = nullptr;
    QLabel* m_confirmLabel = nullptr;
    QLineEdit* m_confirm = nullptr;
    QPushButton* m_run = nullptr;
    QLabel* m_result = nullptr;
    bool m_running = false;
};

} // namespace outbox::desktop
