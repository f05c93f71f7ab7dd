#include "ui/desktop/widgets/RecordTable.h"

#include "ui/desktop/widgets/EmptyHint.h"

#include <QFontMetrics>
#include <QHeaderView>

namespace outbox::desktop {

RecordTable::RecordTable(const QString& objectName, QAbstractItemModel* model, SelectionMode selection,
                         QWidget* parent)
    : QTableView(parent)
{
    setObjectName(objectName);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(selection);
    verticalHeader()->hide();
    horizontalHeader()->setStretchLastSection(true);
    setTextElideMode(Qt::ElideMiddle);
    setWordWrap(false);
    if (model)
        setModel(model);
    m_hint = new EmptyHint(this);
}

void RecordTable::setModel(QAbstractItemModel* model)
{
    // The view makes a selection model per model and keeps the old one (it may be shared): the
    // ones it made are of no use once their model is gone.
    QItemSelectionModel* old = selectionModel();
    QTableView::setModel(model);
    if (old && old != selectionModel() && old->parent() == this)
        old->deleteLater();
    if (!selectionModel())
        return;
    connect(selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                emit currentRowChanged(current.isValid() ? current.row() : -1);
            });
}

void RecordTable::setWidths(const QVector<Width>& widths)
{
    const QFontMetrics fm(font());
    const int pad = 24;
    for (const Width& w : widths)
        setColumnWidth(w.column, w.sample.isEmpty() ? w.pixels : fm.horizontalAdvance(w.sample) + pad);
}

} // namespace outbox::desktop
