#pragma once

#include <QAbstractTableModel>
#include <QJsonObject>
#include <QVector>
#include <functional>

namespace outbox::desktop {

// A table of plain records (dead letters, audit entries, relays, failure groups) shaped as JSON
// objects by core's toJson(); each column shows one key. Rows are what the page loaded, never the
// whole table: the pages read keyset pages and append them.
class RecordTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    struct Column
    {
        QString key;
        QString title;
        bool dateTime = false; // an ISO timestamp, shown local with its seconds
    };
    // Optional colouring of a row (e.g. a stale relay in red); invalid QVariant for none.
    using RowBrush = std::function<QVariant(const QJsonObject& row)>;

    explicit RecordTableModel(QVector<Column> columns, QObject* parent = nullptr);

    void setRows(const QVector<QJsonObject>& rows);
    void appendRows(const QVector<QJsonObject>& rows);
    // Each record's toJson() as a row, at the end (dead letters, audit entries, inbox rows).
    template <typename Records> void appendRecords(const Records& records)
    {
        QVector<QJsonObject> rows;
        for (const auto& r : records)
            rows << r.toJson();
        appendRows(rows);
    }
    void prependRows(const QVector<QJsonObject>& rows);
    void setRowBrush(RowBrush brush) { m_brush = std::move(brush); }
    const QJsonObject& record(int row) const { return m_rows.at(row); }
    const QVector<QJsonObject>& records() const { return m_rows; }
    const QVector<Column>& columns() const { return m_columns; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The text of one cell as the table shows it (dates local, with seconds).
    QString cellText(int row, int column) const;

private:
    QVector<Column> m_columns;
    QVector<QJsonObject> m_rows;
    RowBrush m_brush;
};

} // namespace outbox::desktop
