#pragma once

#include <QDialog>
#include <QJsonObject>
#include <optional>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace outbox::desktop {

// Repairs a NEW dead letter before its replay: its payload (a JSON document) and its headers (a
// JSON object of strings) in editors that are checked as they are typed; Save refuses invalid
// JSON with a message and asks to save only a valid change with a reason. The edit carries the
// version it was made from (the dead letter's edit count when the dialog opened): the page saves
// it and closes the dialog, or shows why not here (another operator's edit in between is a
// conflict; the dialog stays open). A binary payload cannot be edited here (outboxctl dlq edit
// --payload-file can), its headers can. With a confirmation phrase (a production profile asks
// for one for every action) Save needs it typed.
class DeadLetterEditDialog : public QDialog
{
    Q_OBJECT

public:
    explicit DeadLetterEditDialog(const QJsonObject& letter, const QString& confirmPhrase = {},
                                  QWidget* parent = nullptr);

    // What changed (nothing: std::nullopt), valid once the dialog was accepted.
    std::optional<QByteArray> payload() const;
    std::optional<QJsonObject> headers() const;
    QString reason() const;
    qint64 letterId() const { return m_id; }
    // The dead letter's edit count this edit was made from.
    int baseEditCount() const { return m_baseEditCount; }

    // The save failed: the message is shown, the edit kept, Save enabled again.
    void saveFailed(const QString& message);

signals:
    // A valid edit to save (payload(), headers(), reason()); the dialog stays open until accepted.
    void saveRequested();

private:
    // The first problem with what is typed, or empty.
    QString problem() const;
    void updateState();
    void save();

    qint64 m_id = 0;
    int m_baseEditCount = 0;
    bool m_binary = false;
    QString m_initialPayload;
    QString m_initialHeaders;
    QPlainTextEdit* m_payload = nullptr;
    QPlainTextEdit* m_headers = nullptr;
    QLineEdit* m_reason = nullptr;
    QString m_phrase;
    QLineEdit* m_confirm = nullptr;
    QLabel* m_error = nullptr;
    QPushButton* m_save = nullptr;
};

} // namespace outbox::desktop
