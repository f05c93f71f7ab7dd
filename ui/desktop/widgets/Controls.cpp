#include "ui/desktop/widgets/Controls.h"

#include "ui/desktop/widgets/Labels.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>

namespace outbox::desktop::controls {

QLineEdit* filterEdit(QWidget* parent, const QString& objectName, const QString& placeholder)
{
    auto* e = new QLineEdit(parent);
    e->setObjectName(objectName);
    e->setPlaceholderText(placeholder);
    e->setClearButtonEnabled(true);
    return e;
}

QPushButton* button(QWidget* parent, const QString& text, const QString& objectName, const QString& toolTip)
{
    auto* b = new QPushButton(text, parent);
    b->setObjectName(objectName);
    if (!toolTip.isEmpty())
        b->setToolTip(toolTip);
    return b;
}

QLabel* infoLabel(QWidget* parent, const QString& objectName)
{
    auto* l = new QLabel(parent);
    l->setObjectName(objectName);
    l->setTextFormat(Qt::PlainText);
    return l;
}

QComboBox* statusBox(QWidget* parent, const QString& objectName, const QString& any,
                     const QStringList& statuses)
{
    auto* box = new QComboBox(parent);
    box->setObjectName(objectName);
    box->addItem(any, QString());
    for (const QString& s : statuses)
        box->addItem(Labels::status(s), s);
    return box;
}

QPlainTextEdit* readOnlyText(QWidget* parent, const QString& objectName)
{
    auto* text = new QPlainTextEdit(parent);
    text->setObjectName(objectName);
    text->setReadOnly(true);
    return text;
}

QLabel* paragraph(QWidget* parent, const QString& objectName, bool selectable)
{
    auto* l = infoLabel(parent, objectName);
    l->setWordWrap(true);
    if (selectable)
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

QScrollArea* scrollBox(QLabel* label, QWidget* parent, const QString& objectName)
{
    auto* box = new QScrollArea(parent);
    box->setObjectName(objectName);
    box->setWidgetResizable(true);
    box->setFrameShape(QFrame::NoFrame);
    box->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    box->setWidget(label);
    box->setMinimumHeight(label->fontMetrics().lineSpacing() * 2);
    return box;
}

QPushButton* newRowsButton(QWidget* parent, const QString& objectName)
{
    auto* b = new QPushButton(parent);
    b->setObjectName(objectName);
    b->setStyleSheet(QStringLiteral("font-weight: bold;"));
    b->hide();
    return b;
}

TimeBound timeBound(QWidget* parent, const QString& text, const QString& objectName, const QDateTime& initial)
{
    TimeBound t{new QCheckBox(text, parent), new QDateTimeEdit(initial, parent)};
    t.enabled->setObjectName(objectName + QStringLiteral("Enabled"));
    t.at->setObjectName(objectName);
    t.at->setCalendarPopup(true);
    t.at->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    t.at->setEnabled(false);
    QObject::connect(t.enabled, &QCheckBox::toggled, t.at, &QWidget::setEnabled);
    return t;
}

} // namespace outbox::desktop::controls
