#pragma once

#include "core/db/EventStore.h"

#include <QAbstractTableModel>
#include <optional>

namespace outbox::desktop {

class DatabaseSession;

// The event browser's rows, read in keyset pages (never OFFSET, never the whole table) on the
// session thread. Row numbers stay stable while pages far from where the user looks are dropped,
// so memory holds at most maxLoadedPages() pages however far the user scrolls; a dropped page is
// read again (from its keyset cursor) when it comes back into view and shows "loading…" meanwhile.
class EventTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        IdColumn,
        StatusColumn,
        TypeColumn,
        AggregateColumn,
        AttemptsColumn,
        CreatedColumn,
        SizeColumn, // the payload's size: an oversized payload is seen in the list
        ErrorColumn,
        ColumnCount
    };

    EventTableModel(DatabaseSession* session, QObject* parent = nullptr);

    void setQuery(const EventFilter& filter, bool ascending);
    const EventFilter& filter() const { return m_filter; }
    bool ascending() const { return m_ascending; }
    void setPageSize(int rows) { m_pageSize = rows; }
    int pageSize() const { return m_pageSize; }
    void setMaxLoadedPages(int pages) { m_maxLoadedPages = std::max(2, pages); }
    int maxLoadedPages() const { return m_maxLoadedPages; }
    void reload();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;
    void sort(int column, Qt::SortOrder order) override;

    // The event shown in `row`, if its page is in memory.
    std::optional<OutboxEvent> eventAt(int row) const;
    // Rows whose events are held in memory right now (what the bound applies to).
    int loadedRowCount() const;
    bool isFetching() const { return m_pending; }
    bool atEnd() const { return m_atEnd; }

signals:
    void loadFailed(const QString& message);
    void fetchFinished();

private:
    struct Page
    {
        qint64 afterId = 0; // keyset cursor that reads this page
        int size = 0;       // rows the page had when first read
        QVector<OutboxEvent> rows;
        bool loaded = false;
        bool loading = false;
        quint64 lastUse = 0;
    };

    void requestPage(int page) const;
    void pageArrived(int page, quint64 generation, const Result<EventPage>& result);
    void appendArrived(quint64 generation, qint64 afterId, const Result<EventPage>& result);
    void evictFarFrom(int page);
    void showLoadingRow();
    int rowsBefore(int page) const { return page * m_pageSize; }

    DatabaseSession* m_session;
    EventFilter m_filter;
    bool m_ascending = false;
    int m_pageSize = 200;
    int m_maxLoadedPages = 10;
    mutable QVector<Page> m_pages; // every page but the last holds exactly m_pageSize rows
    int m_rows = 0;
    bool m_pending = false; // a fetchMore request is in flight
    bool m_fetching =
        false; // a "loading…" row is shown at the end (added from the event loop, not inside fetchMore)
    bool m_atEnd = false;
    quint64 m_generation = 0;
    mutable quint64 m_useClock = 0;
};

} // namespace outbox::desktop
