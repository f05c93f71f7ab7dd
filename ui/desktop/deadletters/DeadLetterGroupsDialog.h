#pragma once

#include "core/db/DeadLetterGroups.h"
#include "core/ops/OperatorActions.h"
#include "ui/desktop/ConsoleContext.h"

#include <QDialog>
#include <QPointer>

class QTableView;

namespace outbox::desktop {

class ActionRunner;
class EmptyHint;
class RecordTableModel;

// NEW dead letters grouped by consumer, error class and fingerprint (core/db/DeadLetterGroups),
// largest first; a whole group is replayed or discarded through the bulk engine (preview, reason,
// typed confirmation, audited chunks), or its payloads repaired by one JSON change (GroupEditDialog).
class DeadLetterGroupsDialog : public QDialog
{
    Q_OBJECT

public:
    DeadLetterGroupsDialog(const ConsoleContext& context, QWidget* parent = nullptr);
    RecordTableModel* model() const { return m_model; }

public slots:
    void reload();

signals:
    void statusMessage(const QString& message);
    void changed();
    // "Show letters": the Dead letters page lists the group's letters (the dialog closes).
    void showLetters(const outbox::DeadLetterGroup& group);

private:
    void act(ActionKind kind);
    void editGroup();
    void openLetters();

    ConsoleContext m_context;
    QPointer<ActionRunner> m_runner;
    QVector<DeadLetterGroup> m_groups;
    RecordTableModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    EmptyHint* m_hint = nullptr;
    quint64 m_generation = 0;
};

} // namespace outbox::desktop
