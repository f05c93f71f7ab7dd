#include "ui/desktop/fleet/BacklogSparklineDelegate.h"

#include "ui/desktop/fleet/FleetTableModel.h"

#include <QPainter>
#include <QPainterPath>

namespace outbox::desktop {

void BacklogSparklineDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                     const QModelIndex& index) const
{
    QStyledItemDelegate::paint(painter, option, index); // background, selection
    const QVariantList points = index.data(FleetTableModel::BacklogHistoryRole).toList();
    if (points.isEmpty())
        return;
    qint64 top = 1;
    for (const QVariant& p : points)
        top = std::max(top, p.toLongLong());
    const QRectF area = QRectF(option.rect).adjusted(3, 3, -5, -3);
    const int n = int(points.size());
    const auto at = [&](int i) {
        const qreal x = n == 1 ? area.right() : area.left() + area.width() * i / (n - 1);
        const qreal y = area.bottom() - area.height() * qreal(points.at(i).toLongLong()) / qreal(top);
        return QPointF(x, y);
    };
    QPainterPath line(at(0));
    for (int i = 1; i < n; ++i)
        line.lineTo(at(i));
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const bool selected = option.state & QStyle::State_Selected;
    const QColor colour = selected ? option.palette.highlightedText().color() : QColor(0x15, 0x65, 0xc0);
    painter->setPen(QPen(colour, 1.5));
    painter->drawPath(line);
    painter->setBrush(colour);
    painter->drawEllipse(at(n - 1), 2.0, 2.0);
    painter->restore();
}

QSize BacklogSparklineDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    const QSize base = QStyledItemDelegate::sizeHint(option, index);
    return {std::max(base.width(), 120), base.height()};
}

} // namespace outbox::desktop
