#include "ui/desktop/overview/StatTile.h"

#include <QLabel>
#include <QVBoxLayout>

namespace outbox::desktop {

StatTile::StatTile(const QString& caption, QWidget* parent) : QFrame(parent)
{
    setFrameShape(QFrame::StyledPanel);
    auto* layout = new QVBoxLayout(this);
    m_value = new QLabel(QStringLiteral("–"), this);
    m_value->setObjectName(QStringLiteral("tileValue"));
    m_value->setAlignment(Qt::AlignCenter);
    m_caption = new QLabel(caption, this);
    m_caption->setAlignment(Qt::AlignCenter);
    layout->addWidget(m_value);
    layout->addWidget(m_caption);
    restyle();
}

void StatTile::setValue(const QString& value, bool alert)
{
    m_value->setText(value);
    if (alert != m_alert) {
        m_alert = alert;
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

void StatTile::restyle()
{
    m_value->setStyleSheet(QStringLiteral("font-size: %1pt; font-weight: bold; color: %2;")
                               .arg(int(20 * m_scale))
                               .arg(m_alert ? QStringLiteral("#c62828") : QStringLiteral("palette(text)")));
    m_caption->setStyleSheet(QStringLiteral("font-size: %1pt;").arg(int(9 * m_scale)));
}

} // namespace outbox::desktop
