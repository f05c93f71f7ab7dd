#pragma once

#include "core/db/DeadLetterGroups.h"
#include "core/ops/OperatorActions.h"
#include "ui/desktop/ConsoleContext.h"

#include <QDialog>
#include <QPointer>

namespace outbox::desktop {

class ActionRunner;
class RecordTable;
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
    // The selected group, or none (and the status line says to select one; `toChange`: also
    // without a connection to act on).
    const DeadLetterGroup* selectedGroup(bool toChange);

    ConsoleContext m_context;
    QPointer<ActionRunner> m_runner;
    QVector<DeadLetterGroup> m_groups;
    RecordTableModel* m_model = nullptr;
    RecordTable* m_table = nullptr;
    quint64 m_generation = 0;
};

} // namespace outbox::desktop
