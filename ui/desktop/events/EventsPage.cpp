#include "ui/desktop/events/EventsPage.h"

#include "core/db/EventStatus.h"
#include "core/db/EventStore.h"
#include "core/db/FailureGroups.h"
#include "ui/desktop/actions/ActionRunner.h"
#include "ui/desktop/connection/DatabaseSession.h"
#include "ui/desktop/events/EventTableModel.h"
#include "ui/desktop/widgets/Controls.h"
#include "ui/desktop/widgets/EmptyHint.h"
#include "ui/desktop/widgets/EventInspector.h"
#include "ui/desktop/widgets/Labels.h"
#include "ui/desktop/widgets/RecordTable.h"
#include "ui/desktop/widgets/RecordTableModel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <optional>

namespace outbox::desktop {

EventsPage::EventsPage(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("eventsPage"));
    auto* layout = new QVBoxLayout(this);

    auto* filters = new QHBoxLayout;
    m_status =
        controls::statusBox(this, QStringLiteral("filterStatus"), tr("Any status"), EventStatus::all());
    m_status->insertItem(1, tr("Unsent (PENDING, SENDING, FAILED)"),
                         QStringLiteral("PENDING,SENDING,FAILED"));
    auto edit = [this](const QString& name, const QString& placeholder) {
        QLineEdit* e = controls::filterEdit(this, name, placeholder);
        connect(e, &QLineEdit::returnPressed, this, &EventsPage::applyFilter);
        return e;
    };
    m_type = edit(QStringLiteral("filterType"), tr("event type"));
    m_aggregateType = edit(QStringLiteral("filterAggregateType"), tr("aggregate type"));
    m_aggregate = edit(QStringLiteral("filterAggregate"), tr("aggregate id"));
    m_error = edit(QStringLiteral("filterError"), tr("error text"));
    const auto from = controls::timeBound(this, tr("from"), QStringLiteral("filterFrom"),
                                          QDateTime::currentDateTime().addDays(-1));
    const auto until = controls::timeBound(this, tr("until"), QStringLiteral("filterUntil"),
                                           QDateTime::currentDateTime().addSecs(3600));
    m_fromEnabled = from.enabled;
    m_from = from.at;
    m_untilEnabled = until.enabled;
    m_until = until.at;
    m_order = new QComboBox(this);
    m_order->setObjectName(QStringLiteral("sortOrder"));
    m_order->addItem(tr("Newest first"), false);
    m_order->addItem(tr("Oldest first"), true);
    auto* apply = controls::button(this, tr("Apply"), QStringLiteral("applyFilter"));
    for (QWidget* w :
         std::initializer_list<QWidget*>{m_status, m_type, m_aggregateType, m_aggregate, m_error,
                                         m_fromEnabled, m_from, m_untilEnabled, m_until, m_order, apply})
        filters->addWidget(w);
    layout->addLayout(filters);
    // Finding one event: by its id, a header, a payload field, or where the broker put it. Payload
    // and header searches read every row in range: bound them with "from"/"until" on large tables.
    auto* search = new QHBoxLayout;
    m_eventId = edit(QStringLiteral("filterEventId"), tr("event_id"));
    m_traceId = edit(QStringLiteral("filterTraceId"), tr("trace id (32 hex)"));
    m_header = edit(QStringLiteral("filterHeader"), tr("header KEY=VALUE, e.g. trace_id=abc"));
    m_payload = edit(QStringLiteral("filterPayload"), tr("payload PATH=VALUE, e.g. customer.id=C-42"));
    m_topic = edit(QStringLiteral("filterTopic"), tr("topic"));
    m_partition = edit(QStringLiteral("filterPartition"), tr("partition"));
    m_offset = edit(QStringLiteral("filterOffset"), tr("offset"));
    m_traceId->setToolTip(tr("Events of one W3C trace: the 32 hex digits of the trace id, or a whole "
                             "traceparent header. An index lookup on any table size."));
    m_header->setToolTip(tr("Events whose header KEY has exactly VALUE. Keys: letters, digits, _ . -"));
    m_payload->setToolTip(tr("Events whose payload has exactly VALUE at the dotted PATH (items.0.sku indexes "
                             "an array). Bound it with a time range on large tables."));
    search->addWidget(new QLabel(tr("Find:"), this));
    for (QLineEdit* e : {m_eventId, m_traceId, m_header, m_payload, m_topic})
        search->addWidget(e, 2);
    for (QLineEdit* e : {m_partition, m_offset})
        search->addWidget(e, 1);
    layout->addLayout(search);
    connect(apply, &QPushButton::clicked, this, &EventsPage::applyFilter);

    auto* actions = new QHBoxLayout;
    m_scope = new QComboBox(this);
    m_scope->setObjectName(QStringLiteral("actionScope"));
    m_scope->addItem(tr("Selected events"));
    m_scope->addItem(tr("Every event of the current filter"));
    auto* requeue = controls::button(this, tr("Requeue…"), QStringLiteral("requeueButton"));
    auto* dead = controls::button(this, tr("Mark DEAD…"), QStringLiteral("markDeadButton"));
    m_info = controls::infoLabel(this, QStringLiteral("eventsInfo"));
    m_newRows = controls::newRowsButton(this, QStringLiteral("newEvents"));
    connect(m_newRows, &QPushButton::clicked, this, &EventsPage::reloadTable);
    actions->addWidget(new QLabel(tr("Act on:"), this));
    actions->addWidget(m_scope);
    actions->addWidget(requeue);
    actions->addWidget(dead);
    actions->addStretch();
    actions->addWidget(m_newRows);
    actions->addWidget(m_info);
    layout->addLayout(actions);
    connect(requeue, &QPushButton::clicked, this, [this]() { act(ActionKind::Requeue, false); });
    connect(dead, &QPushButton::clicked, this, [this]() { act(ActionKind::MarkDead, false); });

    auto* vertical = new QSplitter(Qt::Vertical, this);
    auto* horizontal = new QSplitter(Qt::Horizontal, vertical);
    auto* table = new RecordTable(QStringLiteral("eventsTable"), nullptr,
                                  QAbstractItemView::ExtendedSelection, horizontal);
    table->verticalHeader()->setDefaultSectionSize(22);
    connect(table, &RecordTable::currentRowChanged, this, [this](int row) {
        if (auto e = m_model ? m_model->eventAt(row) : std::nullopt)
            m_inspector->inspect(e->id);
    });
    m_table = table;
    m_eventsHint = table->hint();
    m_eventsHint->setReason(tr("Not connected."));
    m_inspector = new EventInspector(horizontal);
    horizontal->setStretchFactor(0, 2); // the table (and its Last error column) gets the room
    horizontal->setStretchFactor(1, 1);

    auto* groupsBox = new QWidget(vertical);
    auto* groupsLayout = new QVBoxLayout(groupsBox);
    groupsLayout->setContentsMargins(0, 0, 0, 0);
    auto* groupsBar = new QHBoxLayout;
    groupsBar->addWidget(new QLabel(tr("Failure groups of"), groupsBox));
    m_groupsStatus = new QComboBox(groupsBox);
    m_groupsStatus->setObjectName(QStringLiteral("groupsStatus"));
    for (const QString& st : {EventStatus::Failed, EventStatus::Dead})
        m_groupsStatus->addItem(Labels::status(st), st);
    groupsBar->addWidget(m_groupsStatus);
    groupsBar->addWidget(new QLabel(tr("events, by error class and error text"), groupsBox));
    m_groupsInfo = controls::infoLabel(groupsBox, QStringLiteral("groupsInfo"));
    groupsBar->addWidget(m_groupsInfo);
    groupsBar->addStretch();
    connect(m_groupsStatus, &QComboBox::currentIndexChanged, this, &EventsPage::refreshGroups);
    auto* refresh = controls::button(groupsBox, tr("Refresh groups"), QStringLiteral("refreshGroups"));
    auto* requeueGroup = controls::button(groupsBox, tr("Requeue group…"), QStringLiteral("requeueGroup"));
    auto* deadGroup = controls::button(groupsBox, tr("Mark group DEAD…"), QStringLiteral("deadGroup"));
    groupsBar->addWidget(refresh);
    groupsBar->addWidget(requeueGroup);
    groupsBar->addWidget(deadGroup);
    groupsLayout->addLayout(groupsBar);
    m_groups = new RecordTableModel({{QStringLiteral("count"), tr("Events")},
                                     {QStringLiteral("error_class"), tr("Error class")},
                                     {QStringLiteral("fingerprint"), tr("Error fingerprint")},
                                     {QStringLiteral("example"), tr("Example")}},
                                    this);
    auto* groupsView = new RecordTable(QStringLiteral("failureGroups"), m_groups,
                                       QAbstractItemView::SingleSelection, groupsBox);
    groupsView->setWidths({{0, {}, 70}, {1, {}, 110}, {2, {}, 420}});
    m_groupsView = groupsView;
    m_groupsHint = groupsView->hint();
    groupsLayout->addWidget(m_groupsView);
    vertical->setStretchFactor(0, 4);
    vertical->setStretchFactor(1, 1);
    layout->addWidget(vertical, 1);
    connect(refresh, &QPushButton::clicked, this, &EventsPage::refreshGroups);
    connect(requeueGroup, &QPushButton::clicked, this, [this]() { act(ActionKind::Requeue, true); });
    connect(deadGroup, &QPushButton::clicked, this, [this]() { act(ActionKind::MarkDead, true); });
}

void EventsPage::setContext(const ConsoleContext& context)
{
    m_context = context;
    m_inspector->setSession(context.browse);
    m_inspector->clear();
    delete m_model;
    m_model = nullptr;
    if (m_runner) // its session is about to go: stop before the next chunk, do not wait for the run
        m_runner->abandon();
    m_groupList.clear();
    m_groups->setRows({});
    m_groupsLoadedFor = -1;
    m_sampledCounts.clear();
    m_newRows->hide();
    m_info->clear();
    m_groupsInfo->clear();
    if (!context.browse) {
        m_eventsHint->setReason(tr("Not connected."));
        m_groupsHint->setReason(tr("Not connected."));
        return;
    }
    m_model = new EventTableModel(context.browse, this);
    m_table->setModel(m_model);
    // Widths by meaning: short fixed columns narrow, the time with its seconds whole, and the
    // error text (the last column) takes the rest.
    m_table->setWidths({{EventTableModel::IdColumn, QStringLiteral("00000000")},
                        {EventTableModel::StatusColumn, QStringLiteral("SENDING")},
                        {EventTableModel::TypeColumn, {}, 120},
                        {EventTableModel::AggregateColumn, {}, 140},
                        {EventTableModel::AttemptsColumn, tr("Attempts")},
                        {EventTableModel::CreatedColumn, QStringLiteral("2026-12-31 23:59:59")}});
    connect(m_model, &EventTableModel::loadFailed, this, &EventsPage::statusMessage);
    connect(m_model, &EventTableModel::fetchFinished, this, [this]() {
        m_loadedAt = QDateTime::currentDateTime();
        const QString asOf = tr("as of %1").arg(Labels::time(m_loadedAt));
        m_info->setText(
            m_model->atEnd()
                ? tr("%n event(s), %1", nullptr, m_model->rowCount()).arg(asOf)
                : tr("%n event(s) so far, more as you scroll; %1", nullptr, m_model->rowCount()).arg(asOf));
        m_eventsHint->setReason(emptyReason(m_model->filter()));
    });
    applyFilter();
    refreshGroups();
}

Result<EventFilter> EventsPage::currentFilter() const
{
    EventFilter f;
    const QString statuses = m_status->currentData().toString();
    if (!statuses.isEmpty())
        f.statuses = statuses.split(QLatin1Char(','));
    f.eventType = m_type->text().trimmed();
    f.aggregateType = m_aggregateType->text().trimmed();
    f.aggregateId = m_aggregate->text().trimmed();
    f.errorText = m_error->text().trimmed();
    if (m_fromEnabled->isChecked())
        f.createdFrom = m_from->dateTime().toUTC();
    if (m_untilEnabled->isChecked())
        f.createdUntil = m_until->dateTime().toUTC();
    if (f.createdFrom.isValid() && f.createdUntil.isValid() && f.createdFrom >= f.createdUntil)
        return Error::usage(tr("The time range is empty: \"from\" must be before \"until\"."));
    f.eventId = m_eventId->text().trimmed();
    f.topic = m_topic->text().trimmed();
    // A box core parses: empty, no condition; else its value, or core's words after the box's
    // name (`what`, with %1 for them).
    const auto parse = [](const QLineEdit* box, const QString& what, const auto& parser,
                          auto&& use) -> Status {
        const QString text = box->text().trimmed();
        if (text.isEmpty())
            return {};
        auto value = parser(text);
        if (!value)
            return Error::usage(what.arg(value.message()));
        use(*value);
        return {};
    };
    for (Status s :
         {parse(m_traceId, tr("Trace id: %1"), &EventFilter::parseTraceId,
                [&](const QString& id) { f.traceId = id; }),
          parse(
              m_header, tr("Header search: %1"),
              [&](const QString& h) { return EventFilter::parseHeaderMatch(h, tr("header")); },
              [&](const FieldMatch& m) { f.headers << m; }),
          parse(
              m_payload, tr("Payload search: %1"),
              [&](const QString& pl) { return EventFilter::parsePayloadMatch(pl, tr("payload")); },
              [&](const FieldMatch& m) { f.payload << m; }),
          parse(m_partition, tr("Partition: %1"), &EventFilter::parsePartition,
                [&](int p) { f.partition = p; }),
          parse(m_offset, tr("Offset: %1"), &EventFilter::parseOffset, [&](qint64 o) { f.offset = o; })})
        if (!s)
            return s.error();
    return f;
}

void EventsPage::applyFilter()
{
    if (!m_model)
        return;
    auto filter = currentFilter();
    if (!filter) {
        m_info->setText(filter.message());
        emit statusMessage(filter.message());
        return;
    }
    m_inspector->clear();
    m_newRows->hide();
    m_info->setText(tr("loading…"));
    m_model->setQuery(*filter, m_order->currentData().toBool());
    m_model->fetchMore({});
}

void EventsPage::reloadTable()
{
    m_newRows->hide();
    if (!m_model)
        return;
    m_model->setQuery(m_model->filter(), m_model->ascending());
    m_model->fetchMore({});
}

void EventsPage::showStatus(const QString& status, bool oldestFirst)
{
    // A drill-down from the Overview: exactly the events the tile counts, nothing else filtered.
    for (QLineEdit* e : {m_type, m_aggregateType, m_aggregate, m_error, m_eventId, m_traceId, m_header,
                         m_payload, m_topic, m_partition, m_offset})
        e->clear();
    m_fromEnabled->setChecked(false);
    m_untilEnabled->setChecked(false);
    m_status->setCurrentIndex(std::max(0, m_status->findData(status)));
    m_order->setCurrentIndex(oldestFirst ? 1 : 0);
    if (status == EventStatus::Failed || status == EventStatus::Dead)
        m_groupsStatus->setCurrentIndex(std::max(0, m_groupsStatus->findData(status)));
    applyFilter();
}

QString EventsPage::emptyReason(const EventFilter& f) const
{
    const bool onlyStatus = f.eventType.isEmpty() && f.aggregateType.isEmpty() && f.aggregateId.isEmpty() &&
                            f.errorText.isEmpty() && !f.createdFrom.isValid() && !f.createdUntil.isValid() &&
                            f.eventId.isEmpty() && f.topic.isEmpty() && f.headers.isEmpty() &&
                            f.payload.isEmpty() && f.traceId.isEmpty() && !f.partition && !f.offset;
    if (f.statuses.size() == 1 && onlyStatus) {
        const QString status = f.statuses.first();
        if (status == EventStatus::Failed || status == EventStatus::Dead || status == EventStatus::Pending)
            return tr("No %1 events — good.").arg(Labels::status(status));
        return tr("No %1 events.").arg(Labels::status(status));
    }
    if (f.statuses.isEmpty() && onlyStatus)
        return tr("The outbox is empty: no events yet.");
    return tr("No event matches the filter.");
}

void EventsPage::noteSnapshot(const MetricsSnapshot& snapshot)
{
    // Follow the data: failure groups reload when the counts they group changed; the table says
    // how many newer events match its filter ("N new — show") instead of changing under the
    // operator's selection.
    // Only while the page is on screen: a hidden page costs the database nothing, and catches up
    // within one sample when it is opened.
    m_sampledCounts = snapshot.events;
    if (!isVisible())
        return;
    const QString groupStatus = m_groupsStatus->currentData().toString();
    if (snapshot.events.value(groupStatus) != m_groupsLoadedFor && !m_groupsLoading)
        refreshGroups();
    if (!m_model || m_model->isFetching() || m_model->ascending() || m_newCheckRunning || !m_context.browse)
        return;
    EventPageRequest request;
    request.filter = m_model->filter();
    request.afterId = m_model->rowCount() > 0 && m_model->eventAt(0) ? m_model->eventAt(0)->id : 0;
    request.ascending = true;
    request.limit = NewRowsCap + 1;
    m_newCheckRunning = true;
    EventTableModel* model = m_model;
    m_context.browse->run<int>(
        this,
        [request](Database& db) -> Result<int> {
            auto page = EventStore(db).list(request);
            if (!page)
                return page.error();
            return int(page->events.size());
        },
        [this, model](const Result<int>& r) {
            m_newCheckRunning = false;
            if (model != m_model || !r.ok() || m_model->isFetching())
                return;
            if (*r <= 0) {
                m_newRows->hide();
                return;
            }
            m_newRows->setText(*r > NewRowsCap ? tr("%1+ new — show").arg(NewRowsCap)
                                               : tr("%n new — show", nullptr, *r));
            m_newRows->show();
        });
}

void EventsPage::refreshGroups()
{
    if (!m_context.analysis)
        return;
    const QString status = m_groupsStatus->currentData().toString();
    m_groupsLoading = true;
    // The sampler's count when the groups were asked for: a later, different count reloads them.
    const qint64 sampled = m_sampledCounts.value(status, -1);
    m_context.analysis->run<QVector<FailureGroup>>(
        this, [status](Database& db) { return FailureGroups(db).list(QStringList{status}); },
        [this, status, sampled](const Result<QVector<FailureGroup>>& r) {
            m_groupsLoading = false;
            if (!r.ok()) {
                emit statusMessage(r.message());
                return;
            }
            if (status != m_groupsStatus->currentData().toString())
                return; // the operator switched to the other status meanwhile
            m_groupsLoadedFor = sampled;
            // Keep the operator's selection across a refresh (e.g. the one after an action).
            std::optional<std::pair<QString, QString>> selected;
            const QModelIndexList current = m_groupsView->selectionModel()->selectedRows();
            if (!current.isEmpty() && current.first().row() < m_groupList.size())
                selected = std::pair{m_groupList.at(current.first().row()).errorClass,
                                     m_groupList.at(current.first().row()).fingerprint};
            m_groupList = *r;
            QVector<QJsonObject> rows;
            qint64 grouped = 0;
            for (const FailureGroup& g : m_groupList) {
                grouped += g.count;
                rows << QJsonObject{{QStringLiteral("count"), g.count},
                                    {QStringLiteral("error_class"), Labels::errorClass(g.errorClass)},
                                    {QStringLiteral("fingerprint"), g.fingerprint},
                                    {QStringLiteral("example"), g.example}};
            }
            m_groups->setRows(rows);
            m_groupsInfo->setText(tr("%n group(s), %1 event(s), as of %2", nullptr, int(m_groupList.size()))
                                      .arg(grouped)
                                      .arg(Labels::time(QDateTime::currentDateTime())));
            m_groupsHint->setReason(tr("No %1 events — nothing to group.").arg(Labels::status(status)));
            for (int i = 0; selected && i < m_groupList.size(); ++i) {
                if (m_groupList.at(i).errorClass == selected->first &&
                    m_groupList.at(i).fingerprint == selected->second) {
                    m_groupsView->selectRow(i);
                    break;
                }
            }
        });
}

QVector<qint64> EventsPage::selectedIds() const
{
    QVector<qint64> ids;
    if (!m_model)
        return ids;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows())
        if (auto e = m_model->eventAt(index.row()))
            ids << e->id;
    std::sort(ids.begin(), ids.end());
    return ids;
}

QString EventsPage::describeFilter(const EventFilter& f)
{
    QStringList parts;
    if (!f.statuses.isEmpty())
        parts << tr("status %1").arg(f.statuses.join(QStringLiteral(", ")));
    if (!f.eventType.isEmpty())
        parts << tr("type %1").arg(f.eventType);
    if (!f.aggregateType.isEmpty())
        parts << tr("aggregate type %1").arg(f.aggregateType);
    if (!f.aggregateId.isEmpty())
        parts << tr("aggregate %1").arg(f.aggregateId);
    if (!f.errorText.isEmpty())
        parts << tr("error contains \"%1\"").arg(f.errorText);
    if (f.createdFrom.isValid())
        parts << tr("created from %1")
                     .arg(QLocale().toString(f.createdFrom.toLocalTime(), QLocale::ShortFormat));
    if (f.createdUntil.isValid())
        parts << tr("created until %1")
                     .arg(QLocale().toString(f.createdUntil.toLocalTime(), QLocale::ShortFormat));
    if (!f.eventId.isEmpty())
        parts << tr("event_id %1").arg(f.eventId);
    if (!f.traceId.isEmpty())
        parts << tr("trace id %1").arg(f.traceId);
    for (const FieldMatch& m : f.headers)
        parts << tr("header %1 = \"%2\"").arg(m.key, m.value);
    for (const FieldMatch& m : f.payload)
        parts << tr("payload %1 = \"%2\"").arg(m.key, m.value);
    if (!f.topic.isEmpty())
        parts << tr("topic %1").arg(f.topic);
    if (f.partition)
        parts << tr("partition %1").arg(*f.partition);
    if (f.offset)
        parts << tr("offset %1").arg(*f.offset);
    return parts.isEmpty() ? tr("no filter (every event)") : parts.join(QStringLiteral("; "));
}

void EventsPage::act(ActionKind kind, bool onGroup)
{
    if (!m_context.actions) {
        emit statusMessage(tr("Not connected."));
        return;
    }
    ActionTarget target;
    QString description; // for the preview
    if (onGroup) {
        const QModelIndexList rows = m_groupsView->selectionModel()->selectedRows();
        if (rows.isEmpty() || rows.first().row() >= m_groupList.size()) {
            emit statusMessage(tr("Select a failure group first."));
            return;
        }
        target.group = m_groupList.at(rows.first().row());
        description =
            tr("Failure group \"%1\" (error class %2)")
                .arg(target.group->fingerprint.left(80), target.group->errorClass.isEmpty()
                                                             ? tr("none")
                                                             : Labels::errorClass(target.group->errorClass));
    } else if (m_scope->currentIndex() == 1) {
        // The filter the table shows, never the boxes as typed but not applied.
        if (!m_model) {
            emit statusMessage(tr("Not connected."));
            return;
        }
        const EventFilter applied = m_model->filter();
        target.eventFilter = applied;
        description = tr("Every event of the applied filter (%1)").arg(describeFilter(applied));
        auto typed = currentFilter();
        if (!typed || typed->toJson() != applied.toJson())
            description += QLatin1Char(' ') + tr("— the filter boxes have changes that are not applied "
                                                 "and are not used; press Apply to act on them");
    } else {
        target.ids = selectedIds();
        if (target.ids.isEmpty()) {
            emit statusMessage(tr("Select one or more events first."));
            return;
        }
        description = tr("%n selected event(s)", nullptr, int(target.ids.size()));
    }
    ActionRunner::run(m_runner, m_context, kind, target, description, this, [this](const QString& summary) {
        emit statusMessage(summary);
        if (m_model)
            m_model->setQuery(m_model->filter(), m_model->ascending());
        if (m_model)
            m_model->fetchMore({});
        refreshGroups();
        if (m_inspector->eventId() > 0)
            m_inspector->inspect(m_inspector->eventId());
    });
}

} // namespace outbox::desktop
