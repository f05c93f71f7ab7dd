#pragma once

#include <QStyledItemDelegate>

namespace outbox::desktop {

// Paints a member's recent backlog (FleetTableModel::BacklogHistoryRole) as a small line, scaled
// to its own largest value, with the latest point marked: rising or falling shows at a glance.
class BacklogSparklineDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace outbox::desktop
