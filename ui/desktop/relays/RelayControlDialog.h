#pragma once

#include "core/ops/RelayControl.h"

#include <QDialog>
#include <QJsonObject>
#include <QVector>

class QLabel;
class QLineEdit;
class QPushButton;

namespace outbox::desktop {

// Pause / resume / drain of chosen relays, previewed before anything changes: which relays (with
// their state now and what they will be asked to do), what the command does, a required reason
// and, on a production profile, a typed confirmation. The dialog stays open while the command
// runs; a failure is shown in it, success closes it.
class RelayControlDialog : public QDialog
{
    Q_OBJECT

public:
    RelayControlDialog(RelayControl::Command command, const QVector<QJsonObject>& relays,
                       const QString& reason, bool production, QWidget* parent = nullptr);

    QString reason() const;
    QString confirmPhrase() const { return m_phrase; }
    void failed(const QString& message);

signals:
    void runRequested(const QString& reason);

private:
    void updateRunButton();

    QLineEdit* m_reason = nullptr;
    QLineEdit* m_confirm = nullptr;
    QLabel* m_error = nullptr;
    QPushButton* m_run = nullptr;
    QString m_phrase;
    QString m_runText;
};

} // namespace outbox::desktop
