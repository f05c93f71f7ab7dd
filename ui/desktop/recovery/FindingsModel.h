#pragma once

#include "core/diagnosis/Finding.h"

#include <QAbstractTableModel>
#include <QVector>

namespace outbox::desktop {

// The doctor's findings, worst first: severity, check id, title and how many things they count.
class FindingsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { SeverityColumn, CheckColumn, TitleColumn, CountColumn, ColumnCount };

    explicit FindingsModel(QObject* parent = nullptr);

    void setFindings(const QVector<Finding>& findings);
    const QVector<Finding>& findings() const { return m_findings; }
    const Finding* at(int row) const;
    int rowOfKey(const QString& key) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString severityText(Severity severity);

private:
    QVector<Finding> m_findings;
};

} // namespace outbox::desktop
