#pragma once

#include <QString>
#include <QTableView>
#include <QVector>

namespace outbox::desktop {

class EmptyHint;

// The console's tables of records (events, dead letters, audit entries, relays, findings, groups):
// whole rows selected, no row numbers, the last column stretching, text elided in the middle (ids
// and errors keep both ends; wrapping would elide at the end instead), an EmptyHint that says why
// the table is empty, widths by meaning, and the current row as a signal that survives setModel().
class RecordTable : public QTableView
{
    Q_OBJECT

public:
    // A column's width: the width of `sample` (the widest value it shows) in the table's font plus
    // padding, or `pixels` when there is no sample.
    struct Width
    {
        int column;
        QString sample;
        int pixels = 0;
    };

    RecordTable(const QString& objectName, QAbstractItemModel* model, SelectionMode selection,
                QWidget* parent);

    EmptyHint* hint() const { return m_hint; }
    void setWidths(const QVector<Width>& widths);
    void setModel(QAbstractItemModel* model) override;

signals:
    // The current row each time it changes; -1 when there is none.
    void currentRowChanged(int row);

private:
    EmptyHint* m_hint;
};

} // namespace outbox::desktop
