#include "ui/desktop/events/EventTableModel.h"

#include "ui/desktop/connection/DatabaseSession.h"
#include "ui/desktop/widgets/Labels.h"
#include "ui/desktop/widgets/PlainToolTip.h"

#include <QBrush>
#include <QColor>
#include <QLocale>

namespace outbox::desktop {

EventTableModel::EventTableModel(DatabaseSession* session, QObject* parent)
    : QAbstractTableModel(parent), m_session(session)
{
}

void EventTableModel::setQuery(const EventFilter& filter, bool ascending)
{
    m_filter = filter;
    m_ascending = ascending;
    reload();
}

void EventTableModel::reload()
{
    beginResetModel();
    ++m_generation; // answers to earlier requests are ignored
    m_pages.clear();
    m_rows = 0;
    m_fetching = false;
    m_pending = false;
    m_atEnd = false;
    endResetModel();
}

int EventTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_rows + (m_fetching ? 1 : 0);
}

int EventTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

bool EventTableModel::canFetchMore(const QModelIndex& parent) const
{
    return !parent.isValid() && !m_atEnd && !m_pending;
}

void EventTableModel::fetchMore(const QModelIndex& parent)
{
    if (!canFetchMore(parent) || !m_session)
        return;
    qint64 afterId = 0;
    if (!m_pages.isEmpty()) {
        // The cursor is the last id of the last page; that page is always kept loaded.
        const Page& last = m_pages.constLast();
        if (!last.loaded || last.rows.isEmpty())
            return;
        afterId = last.rows.constLast().id;
    }
    m_pending = true;
    const quint64 generation = m_generation;
    // Views call fetchMore while handling other model signals; the row is added a moment later.
    QMetaObject::invokeMethod(
        this,
        [this, generation]() {
            if (generation == m_generation && m_pending)
                showLoadingRow();
        },
        Qt::QueuedConnection);
    EventPageRequest request;
    request.filter = m_filter;
    request.afterId = afterId;
    request.limit = m_pageSize;
    request.ascending = m_ascending;
    m_session->run<EventPage>(
        this, [request](Database& db) { return EventStore(db).list(request); },
        [this, generation, afterId](const Result<EventPage>& r) { appendArrived(generation, afterId, r); });
}

void EventTableModel::showLoadingRow()
{
    beginInsertRows({}, m_rows, m_rows);
    m_fetching = true;
    endInsertRows();
}

void EventTableModel::appendArrived(quint64 generation, qint64 afterId, const Result<EventPage>& result)
{
    if (generation != m_generation)
        return;
    // m_pending stays set until the rows are in: views react to the signals below by asking
    // for more, and that must wait for the new cursor.
    const bool hadLoadingRow = m_fetching;
    if (!result.ok() || result->events.isEmpty()) {
        if (hadLoadingRow) {
            beginRemoveRows({}, m_rows, m_rows);
            m_fetching = false;
            endRemoveRows();
        }
        m_pending = false;
        if (!result.ok())
            emit loadFailed(result.message());
        else
            m_atEnd = true;
        emit fetchFinished();
        return;
    }
    const EventPage& page = *result;
    const int n = page.events.size();
    // New rows go in before the "loading…" row, which is then removed: rows above never change.
    beginInsertRows({}, m_rows, m_rows + n - 1);
    Page p;
    p.afterId = afterId;
    p.size = n;
    p.rows = page.events;
    p.loaded = true;
    p.lastUse = ++m_useClock;
    m_pages << p;
    m_rows += n;
    m_atEnd = page.nextAfterId == 0 || n < m_pageSize;
    endInsertRows();
    if (hadLoadingRow) {
        beginRemoveRows({}, m_rows, m_rows);
        m_fetching = false;
        endRemoveRows();
    }
    m_pending = false;
    evictFarFrom(m_pages.size() - 1);
    emit fetchFinished();
}

void EventTableModel::requestPage(int pageIndex) const
{
    Page& page = m_pages[pageIndex];
    if (page.loaded || page.loading || !m_session)
        return;
    page.loading = true;
    EventPageRequest request;
    request.filter = m_filter;
    request.afterId = page.afterId;
    request.limit = page.size;
    request.ascending = m_ascending;
    const quint64 generation = m_generation;
    auto* self = const_cast<EventTableModel*>(this);
    m_session->run<EventPage>(
        self, [request](Database& db) { return EventStore(db).list(request); },
        [self, pageIndex, generation](const Result<EventPage>& r) {
            self->pageArrived(pageIndex, generation, r);
        });
}

void EventTableModel::pageArrived(int pageIndex, quint64 generation, const Result<EventPage>& result)
{
    if (generation != m_generation || pageIndex >= m_pages.size())
        return;
    Page& page = m_pages[pageIndex];
    page.loading = false;
    if (!result.ok()) {
        emit loadFailed(result.message());
        return;
    }
    page.rows = result->events.mid(0, page.size); // rows that vanished meanwhile show as gone
    page.loaded = true;
    page.lastUse = ++m_useClock;
    const int first = rowsBefore(pageIndex);
    emit dataChanged(index(first, 0), index(first + page.size - 1, ColumnCount - 1));
    evictFarFrom(pageIndex);
}

void EventTableModel::evictFarFrom(int focus)
{
    int loaded = 0;
    for (const Page& p : std::as_const(m_pages))
        loaded += p.loaded ? 1 : 0;
    const int lastPage = m_pages.size() - 1;
    while (loaded > m_maxLoadedPages) {
        // Drop the page farthest from the focus; the last page stays (it holds the fetch cursor).
        int victim = -1;
        for (int i = 0; i < lastPage; ++i) {
            if (!m_pages[i].loaded || i == focus)
                continue;
            if (victim < 0 || std::abs(i - focus) > std::abs(victim - focus) ||
                (std::abs(i - focus) == std::abs(victim - focus) &&
                 m_pages[i].lastUse < m_pages[victim].lastUse))
                victim = i;
        }
        if (victim < 0)
            break;
        Page& p = m_pages[victim];
        p.rows.clear();
        p.rows.squeeze();
        p.loaded = false;
        --loaded;
        const int first = rowsBefore(victim);
        emit dataChanged(index(first, 0), index(first + p.size - 1, ColumnCount - 1));
    }
}

int EventTableModel::loadedRowCount() const
{
    int rows = 0;
    for (const Page& p : std::as_const(m_pages))
        rows += p.rows.size();
    return rows;
}

std::optional<OutboxEvent> EventTableModel::eventAt(int row) const
{
    if (row < 0 || row >= m_rows)
        return std::nullopt;
    const int pageIndex = row / m_pageSize;
    const Page& page = m_pages.at(pageIndex);
    const int offset = row - rowsBefore(pageIndex);
    if (!page.loaded || offset >= page.rows.size())
        return std::nullopt;
    return page.rows.at(offset);
}

QVariant EventTableModel::data(const QModelIndex& idx, int role) const
{
    if (!checkIndex(idx, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = idx.row();
    if (row >= m_rows) {
        if (role == Qt::DisplayRole && idx.column() == IdColumn)
            return tr("loading…");
        return {};
    }
    const int pageIndex = row / m_pageSize;
    Page& page = m_pages[pageIndex];
    if (!page.loaded) {
        requestPage(pageIndex);
        if (role == Qt::DisplayRole && idx.column() == IdColumn)
            return tr("loading…");
        return {};
    }
    page.lastUse = ++m_useClock;
    const int offset = row - rowsBefore(pageIndex);
    if (offset >= page.rows.size()) {
        if (role == Qt::DisplayRole && idx.column() == IdColumn)
            return tr("(no longer matches)");
        return {};
    }
    const OutboxEvent& e = page.rows.at(offset);
    if (role == Qt::UserRole)
        return e.id;
    if (role == Qt::ForegroundRole && idx.column() == StatusColumn) {
        if (e.status == QLatin1String("FAILED") || e.status == QLatin1String("DEAD"))
            return QBrush(QColor(0xc6, 0x28, 0x28));
        if (e.status == QLatin1String("SENT"))
            return QBrush(QColor(0x2e, 0x7d, 0x32));
        return {};
    }
    if (role == Qt::ToolTipRole && idx.column() == ErrorColumn)
        return PlainToolTip::of(e.lastError);
    if (role != Qt::DisplayRole)
        return {};
    switch (idx.column()) {
    case IdColumn:
        return e.id;
    case StatusColumn:
        return e.status;
    case TypeColumn:
        return e.eventType;
    case AggregateColumn:
        return QStringLiteral("%1/%2").arg(e.aggregateType, e.aggregateId);
    case AttemptsColumn:
        return e.attempts;
    case CreatedColumn:
        return Labels::dateTime(e.createdAt);
    case SizeColumn:
        return Labels::bytes(e.payloadSize >= 0 ? e.payloadSize : e.payload.size());
    case ErrorColumn:
        return e.lastErrorClass.isEmpty()
                   ? e.lastError
                   : QStringLiteral("[%1] %2").arg(Labels::errorClass(e.lastErrorClass), e.lastError);
    }
    return {};
}

QVariant EventTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case IdColumn:
        return tr("Id");
    case StatusColumn:
        return tr("Status");
    case TypeColumn:
        return tr("Type");
    case AggregateColumn:
        return tr("Aggregate");
    case AttemptsColumn:
        return tr("Attempts");
    case CreatedColumn:
        return tr("Created");
    case SizeColumn:
        return tr("Payload size");
    case ErrorColumn:
        return tr("Last error");
    }
    return {};
}

void EventTableModel::sort(int column, Qt::SortOrder order)
{
    // Only the id has a keyset index behind it; other columns keep the id order.
    if (column != IdColumn)
        return;
    const bool ascending = order == Qt::AscendingOrder;
    if (ascending == m_ascending && !m_pages.isEmpty())
        return;
    m_ascending = ascending;
    reload();
}

} // namespace outbox::desktop
