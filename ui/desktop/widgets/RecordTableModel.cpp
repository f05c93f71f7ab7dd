#include "ui/desktop/widgets/RecordTableModel.h"

#include "core/support/JsonText.h"
#include "ui/desktop/widgets/Labels.h"
#include "ui/desktop/widgets/PlainToolTip.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace outbox::desktop {

RecordTableModel::RecordTableModel(QVector<Column> columns, QObject* parent)
    : QAbstractTableModel(parent), m_columns(std::move(columns))
{
}

void RecordTableModel::setRows(const QVector<QJsonObject>& rows)
{
    beginResetModel();
    m_rows = rows;
    endResetModel();
}

void RecordTableModel::appendRows(const QVector<QJsonObject>& rows)
{
    if (rows.isEmpty())
        return;
    beginInsertRows({}, m_rows.size(), m_rows.size() + rows.size() - 1);
    m_rows += rows;
    endInsertRows();
}

void RecordTableModel::prependRows(const QVector<QJsonObject>& rows)
{
    if (rows.isEmpty())
        return;
    beginInsertRows({}, 0, int(rows.size()) - 1);
    m_rows = rows + m_rows;
    endInsertRows();
}

int RecordTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_rows.size();
}

int RecordTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_columns.size();
}

QVariant RecordTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QJsonObject& row = m_rows.at(index.row());
    if (role == Qt::BackgroundRole)
        return m_brush ? m_brush(row) : QVariant();
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const QString text = cellText(index.row(), index.column());
    if (role == Qt::ToolTipRole)
        return PlainToolTip::of(text.left(4000));
    // A long text keeps its start and its end, as the views elide (in the middle): an error's
    // last words are often what it is about.
    constexpr int MaxShown = 300;
    return text.size() <= MaxShown ? text
                                   : text.left(MaxShown / 2) + QChar(0x2026) + text.right(MaxShown / 2 - 1);
}

QString RecordTableModel::cellText(int row, int column) const
{
    const QJsonValue value = m_rows.at(row).value(m_columns.at(column).key);
    if (m_columns.at(column).dateTime && value.isString()) {
        const QDateTime at = QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
        if (at.isValid())
            return Labels::dateTime(at);
    }
    return JsonText::of(value);
}

QVariant RecordTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section >= 0 &&
        section < m_columns.size())
        return m_columns.at(section).title;
    return QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace outbox::desktop
