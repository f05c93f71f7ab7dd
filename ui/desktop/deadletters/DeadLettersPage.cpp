#include "ui/desktop/deadletters/DeadLettersPage.h"

#include "core/db/DeadLetterGroupLetters.h"
#include "core/db/DeadLetterStore.h"
#include "core/db/EventStatus.h"
#include "core/ops/ActionConfirmation.h"
#include "core/ops/DeadLetterEditor.h"
#include "ui/desktop/actions/ActionRunner.h"
#include "ui/desktop/connection/DatabaseSession.h"
#include "ui/desktop/deadletters/DeadLetterEditDialog.h"
#include "ui/desktop/deadletters/DeadLetterGroupsDialog.h"
#include "ui/desktop/deadletters/GroupEditDialog.h"
#include "ui/desktop/widgets/Controls.h"
#include "ui/desktop/widgets/DeadLetterText.h"
#include "ui/desktop/widgets/EmptyHint.h"
#include "ui/desktop/widgets/Labels.h"
#include "ui/desktop/widgets/PlainToolTip.h"
#include "ui/desktop/widgets/RecordTable.h"
#include "ui/desktop/widgets/RecordTableModel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>

namespace outbox::desktop {

DeadLettersPage::DeadLettersPage(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("deadLettersPage"));
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    m_status =
        controls::statusBox(this, QStringLiteral("dlqStatus"), tr("Any status"), DeadLetterStatus::all());
    m_consumer = controls::filterEdit(this, QStringLiteral("dlqConsumer"), tr("consumer"));
    m_error = controls::filterEdit(this, QStringLiteral("dlqError"), tr("error contains"));
    m_error->setToolTip(tr("Dead letters whose error contains this text (any case)."));
    auto* apply = controls::button(this, tr("Apply"), QStringLiteral("dlqApply"));
    auto* more = controls::button(this, tr("Load more"), QStringLiteral("dlqMore"));
    m_scope = new QComboBox(this);
    m_scope->setObjectName(QStringLiteral("dlqScope"));
    m_scope->addItem(tr("Selected dead letters"));
    m_scope->addItem(tr("Every dead letter of the filter"));
    auto* replay = controls::button(this, tr("Replay…"), QStringLiteral("replayButton"));
    auto* discard = controls::button(this, tr("Discard…"), QStringLiteral("discardButton"));
    auto* edit = controls::button(
        this, tr("Edit…"), QStringLiteral("editButton"),
        tr("Repair the selected NEW dead letter's payload and headers before replaying it."));
    auto* groups = controls::button(
        this, tr("Groups…"), QStringLiteral("groupsButton"),
        tr("NEW dead letters grouped by consumer and error; replay or discard a whole group."));
    for (QWidget* w : std::initializer_list<QWidget*>{m_status, m_consumer, m_error, apply, more, m_scope,
                                                      replay, discard, edit, groups})
        bar->addWidget(w);
    bar->insertStretch(5);
    layout->addLayout(bar);
    // A group opened from the Groups dialog: what the list shows instead of the filter.
    m_groupBar = new QWidget(this);
    auto* groupRow = new QHBoxLayout(m_groupBar);
    groupRow->setContentsMargins(0, 0, 0, 0);
    m_groupText = controls::infoLabel(m_groupBar, QStringLiteral("dlqGroupShown"));
    m_groupText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_groupText->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* showFilterButton =
        controls::button(m_groupBar, tr("Show the filter"), QStringLiteral("dlqGroupClear"),
                         tr("Leave the group: the list shows the filter boxes' dead letters again."));
    groupRow->addWidget(m_groupText, 1);
    groupRow->addWidget(showFilterButton);
    m_groupBar->hide();
    layout->addWidget(m_groupBar);
    connect(showFilterButton, &QPushButton::clicked, this, &DeadLettersPage::showFilter);
    auto* freshness = new QHBoxLayout;
    m_info = controls::infoLabel(this, QStringLiteral("dlqInfo"));
    m_newRows = controls::newRowsButton(this, QStringLiteral("dlqNew"));
    freshness->addWidget(m_info);
    freshness->addWidget(m_newRows);
    freshness->addStretch();
    layout->addLayout(freshness);
    connect(m_newRows, &QPushButton::clicked, this, &DeadLettersPage::reload);

    auto* split = new QSplitter(Qt::Horizontal, this);
    m_model = new RecordTableModel({{QStringLiteral("id"), tr("Id")},
                                    {QStringLiteral("status"), tr("Status")},
                                    {QStringLiteral("consumer_name"), tr("Consumer")},
                                    {QStringLiteral("topic"), tr("Topic")},
                                    {QStringLiteral("event_id"), tr("Event id")},
                                    {QStringLiteral("attempts"), tr("Attempts")},
                                    {QStringLiteral("last_failed_at"), tr("Last failed"), true},
                                    {QStringLiteral("error"), tr("Error")}},
                                   this);
    auto* table = new RecordTable(QStringLiteral("deadLettersTable"), m_model,
                                  QAbstractItemView::ExtendedSelection, split);
    // Widths by meaning, so the error (last, stretching) stays on screen.
    table->setWidths({{0, QStringLiteral("000000")},
                      {1, QStringLiteral("REPLAYING")},
                      {2, {}, 100},
                      {3, {}, 90},
                      {4, {}, 110},
                      {5, tr("Attempts")},
                      {6, QStringLiteral("2026-12-31 23:59:59")}});
    m_table = table;
    table->hint()->setReason(tr("Not connected."));
    m_detail = controls::readOnlyText(split, QStringLiteral("deadLetterDetail"));
    layout->addWidget(split, 1);

    connect(apply, &QPushButton::clicked, this, &DeadLettersPage::showFilter);
    connect(m_error, &QLineEdit::returnPressed, this, &DeadLettersPage::showFilter);
    connect(m_consumer, &QLineEdit::returnPressed, this, &DeadLettersPage::showFilter);
    connect(more, &QPushButton::clicked, this, &DeadLettersPage::loadMore);
    connect(replay, &QPushButton::clicked, this, [this]() { act(true); });
    connect(discard, &QPushButton::clicked, this, [this]() { act(false); });
    connect(edit, &QPushButton::clicked, this, &DeadLettersPage::editSelected);
    connect(groups, &QPushButton::clicked, this, &DeadLettersPage::showGroups);
    connect(table, &RecordTable::currentRowChanged, this, [this](int row) {
        if (row >= 0)
            showDetail(m_model->record(row));
    });
    // The list gets most of the width, so that its error column (last) shows more than a word.
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
}

void DeadLettersPage::setContext(const ConsoleContext& context)
{
    m_context = context;
    m_shownTotal = -1;
    m_info->clear();
    m_newRows->hide();
    if (!context.browse)
        m_table->hint()->setReason(tr("Not connected."));
    if (m_runner) // its session is about to go: stop before the next chunk, do not wait for the run
        m_runner->abandon();
    m_group.reset(); // another database's letters
    m_groupBar->hide();
    reload();
}

void DeadLettersPage::showStatus(const QString& status)
{
    m_group.reset();
    m_groupBar->hide();
    m_consumer->clear();
    m_error->clear();
    m_status->setCurrentIndex(std::max(0, m_status->findData(status)));
    reload();
}

void DeadLettersPage::noteSnapshot(const MetricsSnapshot& snapshot)
{
    // The sampler counts dead letters per status: when the count behind the list changed, say so
    // (the list itself stays as the operator is reading it).
    const QString status = m_status->currentData().toString();
    qint64 total = 0;
    for (auto it = snapshot.deadLetters.cbegin(); it != snapshot.deadLetters.cend(); ++it)
        if (status.isEmpty() || it.key() == status)
            total += it.value();
    m_latestTotal = total;
    if (m_shownTotal < 0)
        m_shownTotal = total;
    updateInfo();
}

void DeadLettersPage::updateInfo()
{
    if (!m_context.browse)
        return;
    const QString status = m_status->currentData().toString();
    const QString what =
        status.isEmpty() ? tr("dead letters") : tr("%1 dead letters").arg(Labels::status(status));
    QString text = tr("%1 shown, as of %2").arg(m_model->rowCount()).arg(Labels::time(m_loadedAt));
    if (m_shownTotal >= 0 && m_consumer->text().trimmed().isEmpty())
        text += QStringLiteral(" · ") + tr("%1 %2 in all").arg(m_shownTotal).arg(what);
    m_info->setText(text);
    const qint64 change = m_latestTotal - m_shownTotal;
    if (m_shownTotal >= 0 && m_latestTotal >= 0 && change != 0) {
        m_newRows->setText(change > 0 ? tr("%n new — show", nullptr, int(change))
                                      : tr("%n fewer — show", nullptr, int(-change)));
        m_newRows->show();
    } else {
        m_newRows->hide();
    }
}

void DeadLettersPage::showGroup(const DeadLetterGroup& group)
{
    m_group = group;
    // The boxes say what the group is made of; Apply shows their letters instead.
    const QString status = group.statuses.isEmpty() ? QString(DeadLetterStatus::New) : group.statuses.first();
    m_status->setCurrentIndex(std::max(0, m_status->findData(status)));
    m_consumer->setText(group.consumerName);
    m_error->clear();
    m_groupText->setText(groupText(group));
    m_groupText->setToolTip(PlainToolTip::of(group.example));
    m_groupBar->show();
    reload();
}

void DeadLettersPage::showFilter()
{
    m_group.reset();
    m_groupBar->hide();
    reload();
}

QString DeadLettersPage::groupText(const DeadLetterGroup& group) const
{
    return tr("The %n NEW dead letter(s) of %1 failing with \"%2\" (%3)", nullptr, int(group.count))
        .arg(group.consumerName, group.fingerprint.left(120), Labels::errorClass(group.errorClass));
}

DeadLetterFilter DeadLettersPage::typedFilter() const
{
    // The form's fields under core's filter names, read by core as it reads the API's query and
    // outboxctl's options. The status is one of core's (the box lists them), so nothing is refused.
    auto filter = DeadLetterFilter::fromJson({{QStringLiteral("status"), m_status->currentData().toString()},
                                              {QStringLiteral("consumer"), m_consumer->text().trimmed()},
                                              {QStringLiteral("error"), m_error->text().trimmed()}});
    Q_ASSERT(filter.ok());
    return filter.ok() ? *filter : DeadLetterFilter{};
}

void DeadLettersPage::reload()
{
    m_applied = typedFilter();
    ++m_generation;
    m_cursor = 0;
    m_model->setRows({});
    m_detail->clear();
    loadMore();
    // The next sample gives the count the list stands for.
    m_shownTotal = -1;
    m_newRows->hide();
}

void DeadLettersPage::loadMore()
{
    if (!m_context.browse || (m_cursor < 0))
        return;
    const DeadLetterFilter filter = m_applied;
    const std::optional<DeadLetterGroup> group = m_group;
    const qint64 cursor = m_cursor;
    const quint64 generation = m_generation;
    m_context.browse->run<DeadLetterPage>(
        this,
        [filter, group, cursor](Database& db) {
            return group ? DeadLetterGroupLetters(db).list(*group, cursor, PageSize)
                         : DeadLetterStore(db).list(filter, cursor, PageSize);
        },
        latestRead<DeadLetterPage>(
            &m_generation, generation, [this](const QString& error) { emit statusMessage(error); },
            [this, filter](const DeadLetterPage& page) {
                m_model->appendRecords(page.letters);
                m_cursor = page.nextAfterId == 0 ? -1 : page.nextAfterId;
                m_loadedAt = QDateTime::currentDateTime();
                m_table->hint()->setReason(
                    filter.statuses == QStringList{DeadLetterStatus::New}
                        ? tr("No NEW dead letters — good: every consumer handled its messages.")
                        : tr("No dead letters match the filter."));
                updateInfo();
            }));
}

void DeadLettersPage::act(bool replay)
{
    if (!m_context.actions)
        return;
    ActionTarget target;
    QString description; // for the preview
    if (m_scope->currentIndex() == 1 && m_group) {
        // The group the list shows, exactly (never a substring of its error).
        target.deadLetterGroup = *m_group;
        description = groupText(*m_group);
    } else if (m_scope->currentIndex() == 1) {
        // The filter the list shows, never the boxes as typed but not applied.
        target.deadLetterFilter = m_applied;
        QStringList parts;
        if (!m_applied.statuses.isEmpty())
            parts << tr("status %1").arg(m_applied.statuses.join(QStringLiteral(", ")));
        if (!m_applied.consumerName.isEmpty())
            parts << tr("consumer %1").arg(m_applied.consumerName);
        if (!m_applied.errorText.isEmpty())
            parts << tr("error containing \"%1\"").arg(m_applied.errorText);
        description = tr("Every dead letter of the applied filter (%1)")
                          .arg(parts.isEmpty() ? tr("no filter") : parts.join(QStringLiteral("; ")));
        if (typedFilter().toJson() != m_applied.toJson())
            description += QLatin1Char(' ') + tr("— the filter boxes have changes that are not applied "
                                                 "and are not used; press Apply to act on them");
    } else {
        for (const QModelIndex& index : m_table->selectionModel()->selectedRows())
            target.ids << qint64(m_model->record(index.row()).value(QStringLiteral("id")).toInteger());
        if (target.ids.isEmpty()) {
            emit statusMessage(tr("Select one or more dead letters first."));
            return;
        }
        description = tr("%n selected dead letter(s)", nullptr, int(target.ids.size()));
    }
    ActionRunner::run(m_runner, m_context,
                      replay ? ActionKind::ReplayDeadLetters : ActionKind::DiscardDeadLetters, target,
                      description, this, [this](const QString& summary) {
                          emit statusMessage(summary);
                          reload();
                      });
}

void DeadLettersPage::showDetail(const QJsonObject& o)
{
    m_detail->setPlainText(DeadLetterText::detail(o));
}

void DeadLettersPage::editSelected()
{
    if (!m_context.actions)
        return;
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    if (rows.size() != 1) {
        emit statusMessage(tr("Select one dead letter to edit."));
        return;
    }
    const QJsonObject letter = m_model->record(rows.first().row());
    if (letter.value(QStringLiteral("status")).toString() != DeadLetterStatus::New) {
        emit statusMessage(tr("Only NEW dead letters can be edited (this one is %1).")
                               .arg(letter.value(QStringLiteral("status")).toString()));
        return;
    }
    // A production profile promises a typed confirmation for every action: an edit too (core's phrase).
    const QString phrase = ActionConfirmation::letterEditPhrase(
        letter.value(QStringLiteral("id")).toInteger(), m_context.production);
    auto* dialog = new DeadLetterEditDialog(letter, phrase, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &DeadLetterEditDialog::saveRequested, this, [this, dialog]() {
        DeadLetterEdit edit;
        edit.payload = dialog->payload();
        edit.headers = dialog->headers();
        edit.reason = dialog->reason();
        edit.actor = m_context.actor;
        edit.requireJsonPayload = edit.payload.has_value();
        edit.baseEditCount = dialog->baseEditCount();
        const qint64 id = dialog->letterId();
        if (!m_context.actions) {
            dialog->saveFailed(tr("not connected"));
            return;
        }
        const QPointer<DeadLetterEditDialog> open(dialog);
        m_context.actions->run<DeadLetterEditResult>(
            this, [id, edit](Database& db) { return DeadLetterEditor(db).edit(id, edit); },
            [this, id, open](const Result<DeadLetterEditResult>& r) {
                if (r.ok()) {
                    emit statusMessage(tr("Dead letter #%1 edited (audit #%2); the original is kept and a "
                                          "replay sends the edited message.")
                                           .arg(id)
                                           .arg(r->auditId));
                    if (open)
                        open->accept();
                } else {
                    emit statusMessage(tr("Dead letter #%1 not edited: %2").arg(id).arg(r.message()));
                    // A conflict (edited meanwhile) or any other refusal: shown where the edit is,
                    // which stays open so that nothing typed is lost.
                    if (open)
                        open->saveFailed(r.message());
                }
                reload();
            });
    });
    dialog->open();
}

void DeadLettersPage::showGroups()
{
    auto* dialog = new DeadLetterGroupsDialog(m_context, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &DeadLetterGroupsDialog::statusMessage, this, &DeadLettersPage::statusMessage);
    connect(dialog, &DeadLetterGroupsDialog::changed, this, &DeadLettersPage::reload);
    connect(dialog, &DeadLetterGroupsDialog::showLetters, this, &DeadLettersPage::showGroup);
    dialog->open();
}

void DeadLettersPage::editGroup(const DeadLetterGroup& group)
{
    if (!m_context.actions)
        return;
    auto* dialog = new GroupEditDialog(m_context, group, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &GroupEditDialog::statusMessage, this, &DeadLettersPage::statusMessage);
    connect(dialog, &GroupEditDialog::edited, this, [this]() {
        reload();
        emit groupEdited();
    });
    dialog->open();
}

} // namespace outbox::desktop
