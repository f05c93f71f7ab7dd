#pragma once

#include <QDialog>
#include <QJsonArray>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace outbox::desktop {

// The preview before an operator action changes anything: how many rows, a sample, a required
// reason and, for bulk actions or production profiles, a typed confirmation.
class ActionDialog : public QDialog
{
    Q_OBJECT

public:
    ActionDialog(const QString& title, const QString& summary, const QJsonArray& sample,
                 const QString& confirmPhrase, QWidget* parent = nullptr);

    QString reason() const;

private:
    void updateRunButton();

    QLineEdit* m_reason = nullptr;
    QLineEdit* m_confirm = nullptr;
    QPushButton* m_run = nullptr;
    QString m_phrase;
};

} // namespace outbox::desktop
