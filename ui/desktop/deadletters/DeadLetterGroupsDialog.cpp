#include "ui/desktop/deadletters/DeadLetterGroupsDialog.h"

#include "ui/desktop/actions/ActionRunner.h"
#include "ui/desktop/connection/DatabaseSession.h"
#include "ui/desktop/deadletters/GroupEditDialog.h"
#include "ui/desktop/widgets/EmptyHint.h"
#include "ui/desktop/widgets/Labels.h"
#include "ui/desktop/widgets/RecordTable.h"
#include "ui/desktop/widgets/RecordTableModel.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace outbox::desktop {

DeadLetterGroupsDialog::DeadLetterGroupsDialog(const ConsoleContext& context, QWidget* parent)
    : QDialog(parent), m_context(context)
{
    setObjectName(QStringLiteral("dlqGroupsDialog"));
    setWindowTitle(tr("Dead-letter failure groups"));
    auto* layout = new QVBoxLayout(this);
    m_model = new RecordTableModel({{QStringLiteral("count"), tr("Count")},
                                    {QStringLiteral("consumer"), tr("Consumer")},
                                    {QStringLiteral("error_class"), tr("Class")},
                                    {QStringLiteral("fingerprint"), tr("Fingerprint")},
                                    {QStringLiteral("example"), tr("Example")}},
                                   this);
    auto* table =
        new RecordTable(QStringLiteral("dlqGroupsTable"), m_model, QAbstractItemView::SingleSelection, this);
    m_table = table;
    layout->addWidget(m_table, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* refresh = buttons->addButton(tr("Refresh"), QDialogButtonBox::ActionRole);
    refresh->setObjectName(QStringLiteral("dlqGroupsRefresh"));
    auto* letters = buttons->addButton(tr("Show letters"), QDialogButtonBox::ActionRole);
    letters->setObjectName(QStringLiteral("dlqGroupLetters"));
    letters->setToolTip(tr("List this group's dead letters on the Dead letters page (also: double-click)."));
    auto* replay = buttons->addButton(tr("Replay group…"), QDialogButtonBox::ActionRole);
    replay->setObjectName(QStringLiteral("dlqGroupReplay"));
    auto* discard = buttons->addButton(tr("Discard group…"), QDialogButtonBox::ActionRole);
    discard->setObjectName(QStringLiteral("dlqGroupDiscard"));
    auto* edit = buttons->addButton(tr("Edit group…"), QDialogButtonBox::ActionRole);
    edit->setObjectName(QStringLiteral("dlqGroupEdit"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(refresh, &QPushButton::clicked, this, &DeadLetterGroupsDialog::reload);
    connect(replay, &QPushButton::clicked, this, [this]() { act(ActionKind::ReplayDeadLetters); });
    connect(discard, &QPushButton::clicked, this, [this]() { act(ActionKind::DiscardDeadLetters); });
    connect(edit, &QPushButton::clicked, this, &DeadLetterGroupsDialog::editGroup);
    connect(letters, &QPushButton::clicked, this, &DeadLetterGroupsDialog::openLetters);
    connect(m_table, &QTableView::doubleClicked, this, &DeadLetterGroupsDialog::openLetters);
    resize(820, 420);
    reload();
}

void DeadLetterGroupsDialog::reload()
{
    const quint64 generation = ++m_generation;
    DatabaseSession* session = m_context.analysis ? m_context.analysis : m_context.browse;
    if (!session) {
        m_table->hint()->setReason(tr("Not connected."));
        return;
    }
    session->run<QVector<DeadLetterGroup>>(
        this, [](Database& db) { return DeadLetterGroups(db).list(); },
        latestRead<QVector<DeadLetterGroup>>(
            &m_generation, generation, [this](const QString& error) { emit statusMessage(error); },
            [this](const QVector<DeadLetterGroup>& groups) {
                m_groups = groups;
                QVector<QJsonObject> rows;
                for (const DeadLetterGroup& g : m_groups) {
                    QJsonObject row = g.toJson();
                    row[QStringLiteral("error_class")] = Labels::errorClass(g.errorClass);
                    rows << row;
                }
                m_model->setRows(rows);
                m_table->hint()->setReason(tr("No NEW dead letters — nothing to group."));
            }));
}

const DeadLetterGroup* DeadLetterGroupsDialog::selectedGroup(bool toChange)
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    if ((toChange && !m_context.actions) || rows.isEmpty() || rows.first().row() >= m_groups.size()) {
        emit statusMessage(tr("Select a group first."));
        return nullptr;
    }
    return &m_groups.at(rows.first().row());
}

void DeadLetterGroupsDialog::act(ActionKind kind)
{
    const DeadLetterGroup* selected = selectedGroup(true);
    if (!selected)
        return;
    const DeadLetterGroup group = *selected;
    ActionTarget target;
    QString description; // for the preview
    target.deadLetterGroup = group;
    description =
        tr("Every NEW dead letter of %1 failing with \"%2\" (%3)")
            .arg(group.consumerName, group.fingerprint.left(120), Labels::errorClass(group.errorClass));
    ActionRunner::run(m_runner, m_context, kind, target, description, this, [this](const QString& summary) {
        emit statusMessage(summary);
        emit changed();
        reload();
    });
}

void DeadLetterGroupsDialog::openLetters()
{
    const DeadLetterGroup* group = selectedGroup(false);
    if (!group)
        return;
    emit showLetters(*group);
    accept();
}

void DeadLetterGroupsDialog::editGroup()
{
    const DeadLetterGroup* group = selectedGroup(true);
    if (!group)
        return;
    auto* dialog = new GroupEditDialog(m_context, *group, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &GroupEditDialog::statusMessage, this, &DeadLetterGroupsDialog::statusMessage);
    connect(dialog, &GroupEditDialog::edited, this, [this] {
        emit changed();
        reload();
    });
    dialog->open();
}

} // namespace outbox::desktop
