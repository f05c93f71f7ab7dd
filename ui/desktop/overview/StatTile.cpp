#include "ui/desktop/overview/StatTile.h"

#include "ui/desktop/widgets/Controls.h"

#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QVBoxLayout>

namespace outbox::desktop {

StatTile::StatTile(const QString& caption, QWidget* parent) : QFrame(parent)
{
    setFrameShape(QFrame::StyledPanel);
    auto* layout = new QVBoxLayout(this);
    m_value = controls::infoLabel(this, QStringLiteral("tileValue"));
    m_value->setText(QStringLiteral("–"));
    m_value->setAlignment(Qt::AlignCenter);
    m_captionText = caption;
    m_caption = new QLabel(caption, this);
    m_caption->setTextFormat(Qt::PlainText);
    m_caption->setAlignment(Qt::AlignCenter);
    layout->addWidget(m_value);
    layout->addWidget(m_caption);
    restyle();
}

void StatTile::setValue(const QString& value, Severity severity)
{
    m_value->setText(value);
    const bool wasCurrent = m_current;
    m_current = true;
    if (!wasCurrent) {
        m_caption->setText(m_captionText);
        setToolTip(m_hint);
    }
    if (severity != m_severity || !wasCurrent) {
        m_severity = severity;
        restyle();
    }
}

QString StatTile::value() const
{
    return m_value->text();
}

void StatTile::setScale(double scale)
{
    m_scale = scale;
    restyle();
}

void StatTile::setClickable(const QString& hint)
{
    m_clickable = true;
    setCursor(Qt::PointingHandCursor);
    setFocusPolicy(Qt::StrongFocus); // Enter or Space on a focused tile works like a click
    m_hint = hint;
    setToolTip(hint);
}

void StatTile::setNotCurrent(const QString& why)
{
    if (m_value->text() == QStringLiteral("–"))
        return; // nothing shown, nothing to take back
    m_current = false;
    m_caption->setText(tr("%1 (not current)").arg(m_captionText));
    setToolTip(why);
    restyle();
}

void StatTile::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_clickable && event->button() == Qt::LeftButton && rect().contains(event->position().toPoint()))
        emit clicked();
    QFrame::mouseReleaseEvent(event);
}

void StatTile::keyPressEvent(QKeyEvent* event)
{
    if (m_clickable &&
        (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter || event->key() == Qt::Key_Space)) {
        emit clicked();
        return;
    }
    QFrame::keyPressEvent(event);
}

void StatTile::restyle()
{
    const QString colour = !m_current                         ? QStringLiteral("#9e9e9e")
                           : m_severity == Severity::Critical ? QStringLiteral("#c62828")
                           : m_severity == Severity::Warning  ? QStringLiteral("#ef6c00")
                                                              : QStringLiteral("palette(text)");
    m_value->setStyleSheet(
        QStringLiteral("font-size: %1pt; font-weight: bold; color: %2;").arg(int(20 * m_scale)).arg(colour));
    m_caption->setStyleSheet(QStringLiteral("font-size: %1pt;").arg(int(9 * m_scale)));
}

} // namespace outbox::desktop
