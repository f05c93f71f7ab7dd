#pragma once

#include "core/ops/OperatorActions.h"
#include "ui/desktop/actions/PreviewSample.h"

#include <QDialog>
#include <QJsonArray>
#include <optional>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace outbox::desktop {

// The preview before an operator action changes anything. It opens at once, busy (an
// indeterminate bar, Run disabled) while the preview is read on the session thread; setPreview()
// then fills it: how many rows, a sentence on what the action does, a sample table (PreviewSample,
// the same as the Recovery flow's), for replay the target topic, a required reason (focused from the start,
// so typing goes there) and, for bulk actions or production profiles, a typed confirmation.
class ActionDialog : public QDialog
{
    Q_OBJECT

public:
    ActionDialog(ActionKind kind, const QString& title, const QString& target, QWidget* parent = nullptr);
    // A ready dialog for other actions (e.g. relay control): `sample` lists the targets, one a row.
    ActionDialog(const QString& title, const QString& summary, const QJsonArray& sample,
                 const QString& confirmPhrase, QWidget* parent = nullptr);

    // Ends the busy state with the preview.
    void setPreview(const QString& summary, qint64 matched, const QJsonArray& sample,
                    const QString& confirmPhrase);
    bool busy() const { return m_busy; }
    // Event actions in ordering mode: what the action means for the later events of each
    // aggregate (one sentence each, from the preview), shown before the sample.
    void setOrdering(const QStringList& consequences);

    QString reason() const;
    // Replay only: the topic to produce to; empty = each dead letter's original topic.
    QString replayTopic() const;
    // What the action does to `matched` rows (replay: to `replayTopic`, empty = original topic).
    static QString consequence(ActionKind kind, qint64 matched, const QString& replayTopic);

private:
    static PreviewSample::Kind sampleKind(ActionKind kind);
    void build(const QString& title, const QString& summary, const QStringList& columns);
    void updateRunButton();
    void updateConsequence();

    std::optional<ActionKind> m_kind; // none: a generic dialog (no consequence sentence)
    qint64 m_matched = 0;
    bool m_busy = true;
    QLabel* m_summary = nullptr;
    QLabel* m_consequence = nullptr;
    QLabel* m_ordering = nullptr;
    QLabel* m_busyLabel = nullptr;
    QProgressBar* m_busyBar = nullptr;
    QTableWidget* m_sample = nullptr;
    QLineEdit* m_topic = nullptr;
    QLineEdit* m_reason = nullptr;
    QLineEdit* m_confirm = nullptr;
    QLabel* m_confirmLabel = nullptr;
    QPushButton* m_run = nullptr;
    QString m_phrase;
};

} // namespace outbox::desktop
