#pragma once

#include <QFrame>

class QLabel;

namespace outbox::desktop {

// One big number with a caption (oldest pending age, DEAD, FAILED, dead letters NEW …). Its
// colour says how bad the number is; a click asks to see what the number counts.
class StatTile : public QFrame
{
    Q_OBJECT

public:
    enum class Severity { Normal, Warning, Critical };

    StatTile(const QString& caption, QWidget* parent = nullptr);

    void setValue(const QString& value, Severity severity = Severity::Normal);
    QString value() const;
    Severity severity() const { return m_severity; }
    void setScale(double scale); // the wallboard uses large tiles
    void setClickable(const QString& hint);
    // A value that is not current (the database stopped answering) stays readable but grey, and
    // says since when; setValue() makes it current again.
    void setNotCurrent(const QString& why);
    bool isCurrent() const { return m_current; }

signals:
    void clicked();

protected:
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    QLabel* m_caption = nullptr;
    QLabel* m_value = nullptr;
    double m_scale = 1.0;
    Severity m_severity = Severity::Normal;
    bool m_clickable = false;
    bool m_current = true;
    QString m_captionText;
    QString m_hint;
    void restyle();
};

} // namespace outbox::desktop
