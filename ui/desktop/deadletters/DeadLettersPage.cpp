#include "ui/desktop/deadletters/DeadLettersPage.h"

#include "core/db/DeadLetterStore.h"
#include "core/db/EventStatus.h"
#include "core/ops/DeadLetterEditor.h"
#include "ui/desktop/actions/ActionRunner.h"
#include "ui/desktop/connection/DatabaseSession.h"
#include "ui/desktop/deadletters/DeadLetterEditDialog.h"
#include "ui/desktop/deadletters/DeadLetterGroupsDialog.h"
#include "ui/desktop/widgets/EmptyHint.h"
#include "ui/desktop/widgets/Labels.h"
#include "ui/desktop/widgets/LineDiff.h"
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
    m_status = new QComboBox(this);
    m_status->setObjectName(QStringLiteral("dlqStatus"));
    m_status->addItem(tr("Any status"), QString());
    for (const QString& s : DeadLetterStatus::all())
        m_status->addItem(Labels::status(s), s);
    m_consumer = new QLineEdit(this);
    m_consumer->setObjectName(QStringLiteral("dlqConsumer"));
    m_consumer->setPlaceholderText(tr("consumer"));
    auto* apply = new QPushButton(tr("Apply"), this);
    apply->setObjectName(QStringLiteral("dlqApply"));
    auto* more = new QPushButton(tr("Load more"), this);
    more->setObjectName(QStringLiteral("dlqMore"));
    m_scope = new QComboBox(this);
    m_scope->setObjectName(QStringLiteral("dlqScope"));
    m_scope->addItem(tr("Selected dead letters"));
    m_scope->addItem(tr("Every dead letter of the filter"));
    auto* replay = new QPushButton(tr("Replay…"), this);
    replay->setObjectName(QStringLiteral("replayButton"));
    auto* discard = new QPushButton(tr("Discard…"), this);
    discard->setObjectName(QStringLiteral("discardButton"));
    auto* edit = new QPushButton(tr("Edit…"), this);
    edit->setObjectName(QStringLiteral("editButton"));
    edit->setToolTip(tr("Repair the selected NEW dead letter's payload and headers before replaying it."));
    auto* groups = new QPushButton(tr("Groups…"), this);
    groups->setObjectName(QStringLiteral("groupsButton"));
    groups->setToolTip(
        tr("NEW dead letters grouped by consumer and error; replay or discard a whole group."));
    for (QWidget* w : std::initializer_list<QWidget*>{m_status, m_consumer, apply, more, m_scope, replay,
                                                      discard, edit, groups})
        bar->addWidget(w);
    bar->insertStretch(4);
    layout->addLayout(bar);
    auto* freshness = new QHBoxLayout;
    m_info = new QLabel(this);
    m_info->setTextFormat(Qt::PlainText);
    m_info->setObjectName(QStringLiteral("dlqInfo"));
    m_newRows = new QPushButton(this);
    m_newRows->setObjectName(QStringLiteral("dlqNew"));
    m_newRows->setStyleSheet(QStringLiteral("font-weight: bold;"));
    m_newRows->hide();
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
    m_table = new QTableView(split);
    m_table->setObjectName(QStringLiteral("deadLettersTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setWordWrap(false); // wrapping would elide at the end
    {
        // Widths by meaning, so the error (last, stretching) stays on screen.
        const QFontMetrics fm(m_table->font());
        const int pad = 24;
        const QList<QPair<int, int>> widths{
            {0, fm.horizontalAdvance(QStringLiteral("000000")) + pad},
            {1, fm.horizontalAdvance(QStringLiteral("REPLAYING")) + pad},
            {2, 100},
            {3, 90},
            {4, 110},
            {5, fm.horizontalAdvance(tr("Attempts")) + pad},
            {6, fm.horizontalAdvance(QStringLiteral("2026-12-31 23:59:59")) + pad}};
        for (const auto& w : widths)
            m_table->setColumnWidth(w.first, w.second);
    }
    m_hint = new EmptyHint(m_table);
    m_hint->setReason(tr("Not connected."));
    m_detail = new QPlainTextEdit(split);
    m_detail->setObjectName(QStringLiteral("deadLetterDetail"));
    m_detail->setReadOnly(true);
    layout->addWidget(split, 1);

    connect(apply, &QPushButton::clicked, this, &DeadLettersPage::reload);
    connect(more, &QPushButton::clicked, this, &DeadLettersPage::loadMore);
    connect(replay, &QPushButton::clicked, this, [this]() { act(true); });
    connect(discard, &QPushButton::clicked, this, [this]() { act(false); });
    connect(edit, &QPushButton::clicked, this, &DeadLettersPage::editSelected);
    connect(groups, &QPushButton::clicked, this, &DeadLettersPage::showGroups);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!current.isValid())
                    return;
                showDetail(m_model->record(current.row()));
            });
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 1);
}

void DeadLettersPage::setContext(const ConsoleContext& context)
{
    m_context = context;
    m_shownTotal = -1;
    m_info->clear();
    m_newRows->hide();
    if (!context.browse)
        m_hint->setReason(tr("Not connected."));
    if (m_runner) // its session is about to go: stop before the next chunk, do not wait for the run
        m_runner->abandon();
    reload();
}

void DeadLettersPage::showStatus(const QString& status)
{
    m_consumer->clear();
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

DeadLetterFilter DeadLettersPage::typedFilter() const
{
    DeadLetterFilter filter;
    if (!m_status->currentData().toString().isEmpty())
        filter.statuses = QStringList{m_status->currentData().toString()};
    filter.consumerName = m_consumer->text().trimmed();
    return filter;
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
    const qint64 cursor = m_cursor;
    const quint64 generation = m_generation;
    m_context.browse->run<DeadLetterPage>(
        this, [filter, cursor](Database& db) { return DeadLetterStore(db).list(filter, cursor, PageSize); },
        [this, generation, filter](const Result<DeadLetterPage>& r) {
            if (generation != m_generation)
                return;
            if (!r.ok()) {
                emit statusMessage(r.message());
                return;
            }
            QVector<QJsonObject> rows;
            for (const DeadLetter& l : r->letters)
                rows << l.toJson();
            m_model->appendRows(rows);
            m_cursor = r->nextAfterId == 0 ? -1 : r->nextAfterId;
            m_loadedAt = QDateTime::currentDateTime();
            m_hint->setReason(filter.statuses == QStringList{DeadLetterStatus::New}
                                  ? tr("No NEW dead letters — good: every consumer handled its messages.")
                                  : tr("No dead letters match the filter."));
            updateInfo();
        });
}

void DeadLettersPage::act(bool replay)
{
    if (!m_context.actions)
        return;
    ActionTarget target;
    QString description; // for the preview
    if (m_scope->currentIndex() == 1) {
        // The filter the list shows, never the boxes as typed but not applied.
        target.deadLetterFilter = m_applied;
        QStringList parts;
        if (!m_applied.statuses.isEmpty())
            parts << tr("status %1").arg(m_applied.statuses.join(QStringLiteral(", ")));
        if (!m_applied.consumerName.isEmpty())
            parts << tr("consumer %1").arg(m_applied.consumerName);
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
    auto* runner = new ActionRunner(m_context.actions,
                                    replay ? ActionKind::ReplayDeadLetters : ActionKind::DiscardDeadLetters,
                                    target, description, m_context.production, m_context.actor, this);
    connect(runner, &ActionRunner::finished, this, [this](const QString& summary, bool) {
        emit statusMessage(summary);
        reload();
    });
    m_runner = runner;
    runner->start();
}

void DeadLettersPage::showDetail(const QJsonObject& o)
{
    // The whole error first (the column elides it), then what an edit changed, then every field.
    QString text = tr("Error:") + QLatin1Char('\n') + o.value(QStringLiteral("error")).toString() +
                   QStringLiteral("\n\n");
    const QJsonObject original = o.value(QStringLiteral("original")).toObject();
    if (o.value(QStringLiteral("edit_count")).toInt() > 0 && !original.isEmpty()) {
        // Payloads are compared as indented JSON when they are JSON, else as they are.
        const auto shown = [](const QJsonObject& message) {
            if (message.value(QStringLiteral("payload_is_binary")).toBool())
                return tr("(binary, %n bytes)", nullptr,
                          int(message.value(QStringLiteral("payload_bytes")).toInteger()));
            const QString payload = message.value(QStringLiteral("payload")).toString();
            const QJsonDocument doc = QJsonDocument::fromJson(payload.toUtf8());
            return doc.isNull() ? payload : QString::fromUtf8(doc.toJson(QJsonDocument::Indented)).trimmed();
        };
        const auto headers = [](const QJsonObject& message) {
            return QString::fromUtf8(QJsonDocument(message.value(QStringLiteral("headers")).toObject())
                                         .toJson(QJsonDocument::Indented))
                .trimmed();
        };
        text += tr("Edited %n time(s), last by %1 at %2. Changes from the message as it came (- original, + "
                   "edited; a replay sends the edited one):",
                   nullptr, o.value(QStringLiteral("edit_count")).toInt())
                    .arg(o.value(QStringLiteral("edited_by")).toString(),
                         o.value(QStringLiteral("edited_at")).toString()) +
                QLatin1Char('\n') + tr("Payload:") + QLatin1Char('\n') +
                LineDiff::unified(shown(original), shown(o)) + QLatin1Char('\n') + tr("Headers:") +
                QLatin1Char('\n') + LineDiff::unified(headers(original), headers(o)) + QStringLiteral("\n\n");
    }
    m_detail->setPlainText(text + QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)));
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
    // A production profile promises a typed confirmation for every action: an edit too.
    const QString phrase = m_context.production
                               ? QStringLiteral("edit %1").arg(letter.value(QStringLiteral("id")).toInteger())
                               : QString();
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
    dialog->open();
}

} // namespace outbox::desktop
