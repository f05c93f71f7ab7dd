#include "ui/desktop/recovery/FindingsModel.h"

#include "ui/desktop/widgets/PlainToolTip.h"

#include <QBrush>
#include <QColor>

namespace outbox::desktop {

FindingsModel::FindingsModel(QObject* parent) : QAbstractTableModel(parent) {}

void FindingsModel::setFindings(const QVector<Finding>& findings)
{
    beginResetModel();
    m_findings = findings;
    endResetModel();
}

const Finding* FindingsModel::at(int row) const
{
    return row >= 0 && row < m_findings.size() ? &m_findings.at(row) : nullptr;
}

int FindingsModel::rowOfKey(const QString& key) const
{
    for (int i = 0; i < m_findings.size(); ++i)
        if (m_findings.at(i).key == key)
            return i;
    return -1;
}

int FindingsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_findings.size());
}

int FindingsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString FindingsModel::severityText(Severity severity)
{
    switch (severity) {
    case Severity::Critical:
        return tr("CRITICAL");
    case Severity::Warning:
        return tr("WARNING");
    case Severity::Info:
        return tr("INFO");
    }
    return {};
}

QVariant FindingsModel::data(const QModelIndex& index, int role) const
{
    const Finding* f = index.isValid() ? at(index.row()) : nullptr;
    if (!f || index.column() < 0 || index.column() >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case SeverityColumn:
            return severityText(f->severity);
        case CheckColumn:
            return f->id;
        case TitleColumn:
            return f->title;
        case CountColumn:
            return f->evidence.count;
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == TitleColumn)
        return PlainToolTip::of(f->title);
    if (role == Qt::ForegroundRole && index.column() == SeverityColumn)
        return QBrush(f->severity == Severity::Critical  ? QColor(0xc6, 0x28, 0x28)
                      : f->severity == Severity::Warning ? QColor(0xb2, 0x6a, 0x00)
                                                         : QColor(0x55, 0x65, 0x75));
    if (role == Qt::TextAlignmentRole && index.column() == CountColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::UserRole)
        return f->key;
    return {};
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case CheckColumn:
        return tr("Check");
    case TitleColumn:
        return tr("Finding");
    case CountColumn:
        return tr("Count");
    default:
        return {};
    }
}

} // namespace outbox::desktop
