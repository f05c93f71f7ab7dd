#include "ui/desktop/widgets/EmptyHint.h"

#include <QAbstractItemView>
#include <QEvent>

namespace outbox::desktop {

EmptyHint::EmptyHint(QAbstractItemView* view) : QLabel(view->viewport()), m_view(view)
{
    setObjectName(QStringLiteral("emptyHint"));
    setAlignment(Qt::AlignCenter);
    setWordWrap(true);
    setTextFormat(Qt::PlainText); // a reason may quote a database error
    setStyleSheet(QStringLiteral("color: palette(mid); font-size: 11pt; padding: 12px;"));
    setAttribute(Qt::WA_TransparentForMouseEvents);
    view->viewport()->installEventFilter(this);
    hide();
}

void EmptyHint::setReason(const QString& text)
{
    m_reason = text;
    refresh();
}

void EmptyHint::refresh()
{
    QAbstractItemModel* model = m_view->model();
    if (model != m_watched) {
        if (m_watched)
            disconnect(m_watched, nullptr, this, nullptr);
        m_watched = model;
        if (model) {
            connect(model, &QAbstractItemModel::modelReset, this, &EmptyHint::refresh);
            connect(model, &QAbstractItemModel::rowsInserted, this, &EmptyHint::refresh);
            connect(model, &QAbstractItemModel::rowsRemoved, this, &EmptyHint::refresh);
        }
    }
    const bool empty = !m_view->model() || m_view->model()->rowCount() == 0;
    setText(m_reason);
    resize(m_view->viewport()->size());
    setVisible(empty && !m_reason.isEmpty());
}

bool EmptyHint::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Resize)
        resize(m_view->viewport()->size());
    return QLabel::eventFilter(watched, event);
}

} // namespace outbox::desktop
