#pragma once

#include <QFrame>

class QLabel;

namespace outbox::desktop {

// One big number with a caption (oldest pending age, DEAD, FAILED, dead letters NEW …).
class StatTile : public QFrame
{
    Q_OBJECT

public:
    StatTile(const QString& caption, QWidget* parent = nullptr);

    void setValue(const QString& value, bool alert = false);
    QString value() const;
    void setScale(double scale); // the wallboard uses large tiles

private:
    QLabel* m_caption = nullptr;
    QLabel* m_value = nullptr;
    double m_scale = 1.0;
    bool m_alert = false;
    void restyle();
};

} // namespace outbox::desktop
