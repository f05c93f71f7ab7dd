#include "ui/desktop/events/BlockedAggregatesPage.h"

#include "core/db/BlockedAggregates.h"
#include "ui/desktop/actions/ActionRunner.h"
#include "ui/desktop/connection/DatabaseSession.h"
#include "ui/desktop/widgets/Controls.h"
#include "ui/desktop/widgets/EmptyHint.h"
#include "ui/desktop/widgets/Labels.h"
#include "ui/desktop/widgets/RecordTable.h"
#include "ui/desktop/widgets/RecordTableModel.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSet>
#include <QTableView>

namespace outbox::desktop {

BlockedAggregatesPage::BlockedAggregatesPage(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("blockedPage"));
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    auto* refresh = controls::button(this, tr("Refresh"), QStringLiteral("blockedRefresh"));
    auto* requeue =
        controls::button(this, tr("Requeue blocking event…"), QStringLiteral("blockedRequeue"),
                         tr("The blocking event is sent again first; the waiting events follow in order."));
    auto* dead =
        controls::button(this, tr("Mark blocking event DEAD…"), QStringLiteral("blockedDead"),
                         tr("The blocking event is never sent; the waiting events are sent without it."));
    m_info = controls::infoLabel(this, QStringLiteral("blockedInfo"));
    bar->addWidget(refresh);
    bar->addWidget(m_info, 1);
    bar->addWidget(requeue);
    bar->addWidget(dead);
    layout->addLayout(bar);

    m_model = new RecordTableModel({{QStringLiteral("aggregate"), tr("Aggregate")},
                                    {QStringLiteral("blocking_id"), tr("Blocking event")},
                                    {QStringLiteral("blocking_event_type"), tr("Type")},
                                    {QStringLiteral("since"), tr("Blocked since"), true},
                                    {QStringLiteral("waiting"), tr("Waiting events")},
                                    {QStringLiteral("attempts"), tr("Attempts")},
                                    {QStringLiteral("error"), tr("Error")}},
                                   this);
    // Aggregate ids often share a long prefix: cut in the middle (never the distinguishing end).
    auto* table =
        new RecordTable(QStringLiteral("blockedTable"), m_model, QAbstractItemView::ExtendedSelection, this);
    m_table = table;
    table->hint()->setReason(tr("Not connected."));
    layout->addWidget(m_table, 1);

    connect(refresh, &QPushButton::clicked, this, &BlockedAggregatesPage::reload);
    connect(requeue, &QPushButton::clicked, this, [this]() { act(ActionKind::Requeue); });
    connect(dead, &QPushButton::clicked, this, [this]() { act(ActionKind::MarkDead); });
}

void BlockedAggregatesPage::setContext(const ConsoleContext& context)
{
    m_context = context;
    if (!context.browse)
        m_table->hint()->setReason(tr("Not connected."));
    if (m_runner)
        m_runner->abandon();
    reload();
}

void BlockedAggregatesPage::noteSnapshot(const MetricsSnapshot& snapshot)
{
    m_sampled = {snapshot.events.value(QStringLiteral("FAILED")),
                 snapshot.events.value(QStringLiteral("PENDING")),
                 snapshot.events.value(QStringLiteral("SENDING"))};
    if (isVisible() && m_sampled != m_loadedAt)
        reload();
}

void BlockedAggregatesPage::fitAggregateColumn()
{
    // Aggregate names whole (up to half the table; the tooltip has the rest).
    m_table->resizeColumnToContents(0);
    m_table->setColumnWidth(0, std::min(m_table->columnWidth(0), std::max(300, m_table->width() / 2)));
}

void BlockedAggregatesPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    // Rows read while the page was hidden were fitted to a table that had no width yet (its
    // pending resize arrives just before it is shown).
    fitAggregateColumn();
    if (!m_sampled.isEmpty() && m_sampled != m_loadedAt)
        reload();
}

void BlockedAggregatesPage::reload()
{
    const quint64 generation = ++m_generation;
    m_loadedAt = m_sampled;
    // The operator's selection, by blocking event, survives the new list.
    QSet<qint64> selected;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows())
        selected << qint64(m_model->record(index.row()).value(QStringLiteral("blocking_id")).toInteger());
    if (!m_context.browse) {
        m_model->setRows({});
        m_info->clear();
        return;
    }
    m_context.browse->run<BlockedAggregateList>(
        this, [](Database& db) { return BlockedAggregates(db).list(BlockedAggregatesQuery{}); },
        latestRead<BlockedAggregateList>(
            &m_generation, generation,
            [this](const QString& error) {
                m_model->setRows({});
                m_info->clear();
                emit statusMessage(error);
            },
            [this, selected](const BlockedAggregateList& list) {
                QVector<QJsonObject> rows;
                for (const BlockedAggregate& b : list.aggregates) {
                    QJsonObject o = b.toJson();
                    o[QStringLiteral("aggregate")] =
                        QString(b.aggregateType + QLatin1Char('/') + b.aggregateId);
                    rows << o;
                }
                m_model->setRows(rows);
                for (int i = 0; i < rows.size(); ++i)
                    if (selected.contains(
                            qint64(rows.at(i).value(QStringLiteral("blocking_id")).toInteger())))
                        m_table->selectionModel()->select(
                            m_model->index(i, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
                fitAggregateColumn();
                m_table->hint()->setReason(
                    tr("No blocked aggregates: no FAILED event holds back a later PENDING event of "
                       "its aggregate."));
                m_info->setText(list.aggregates.isEmpty()
                                    ? QString()
                                    : tr("%n blocked aggregate(s), as of %1", nullptr, list.total)
                                          .arg(Labels::time(QDateTime::currentDateTime())));
            }));
}

void BlockedAggregatesPage::act(ActionKind kind)
{
    if (!m_context.actions)
        return;
    ActionTarget target;
    QString description; // for the preview
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows())
        target.ids << qint64(m_model->record(index.row()).value(QStringLiteral("blocking_id")).toInteger());
    if (target.ids.isEmpty()) {
        emit statusMessage(tr("Select one or more blocked aggregates first."));
        return;
    }
    description = tr("The blocking event(s) of %n selected aggregate(s)", nullptr, int(target.ids.size()));
    ActionRunner::run(m_runner, m_context, kind, target, description, this, [this](const QString& summary) {
        emit statusMessage(summary);
        reload();
    });
}

} // namespace outbox::desktop
