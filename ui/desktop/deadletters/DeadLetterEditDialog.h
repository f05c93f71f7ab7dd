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
// JSON with a message and accepts only a valid change with a reason. A binary payload cannot be
// edited here (outboxctl dlq edit --payload-file can), its headers can.
class DeadLetterEditDialog : public QDialog
{
    Q_OBJECT

public:
    explicit DeadLetterEditDialog(const QJsonObject& letter, QWidget* parent = nullptr);

    // What changed (nothing: std::nullopt), valid once the dialog was accepted.
    std::optional<QByteArray> payload() const;
    std::optional<QJsonObject> headers() const;
    QString reason() const;
    qint64 letterId() const { return m_id; }

private:
    // The first problem with what is typed, or empty.
    QString problem() const;
    void updateState();
    void save();

    qint64 m_id = 0;
    bool m_binary = false;
    QString m_initialPayload;
    QString m_initialHeaders;
    QPlainTextEdit* m_payload = nullptr;
    QPlainTextEdit* m_headers = nullptr;
    QLineEdit* m_reason = nullptr;
    QLabel* m_error = nullptr;
    QPushButton* m_save = nullptr;
};

} // namespace outbox::desktop
