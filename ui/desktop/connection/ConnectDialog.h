#pragma once

#include "core/db/DatabaseUrl.h"
#include "ui/desktop/connection/ConnectionProfile.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace outbox::desktop {

// Pick or edit a named profile (URL without password, table prefix, colour tag) or a recent URL
// and connect; profiles and recent URLs are kept with QSettings, passwords never are. Connect
// checks the URL here (an empty or malformed URL is an error in the dialog) and asks for the
// connection with connectRequested(); the dialog stays open until connectionSucceeded() or shows
// connectionFailed()'s message.
class ConnectDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ConnectDialog(QWidget* parent = nullptr);

    QString urlText() const;
    ConnectionProfile profile() const;

    void connectionFailed(const QString& message);
    // "Cannot connect to URL: why", once, whether or not the driver's message says it already.
    static QString failureText(const QString& url, const QString& message);
    void connectionSucceeded();

signals:
    void connectRequested(const outbox::DatabaseUrl& url, const ConnectionProfile& profile);

private:
    void tryConnect();
    void showError(const QString& message);

    void profileChosen(int index);
    void saveProfile();

    QVector<ConnectionProfile> m_profiles;
    QComboBox* m_choice = nullptr;
    QLineEdit* m_name = nullptr;
    QLineEdit* m_url = nullptr;
    QLineEdit* m_tablePrefix = nullptr;
    QComboBox* m_colour = nullptr;
    QComboBox* m_recent = nullptr;
    QLabel* m_error = nullptr;
    QPushButton* m_connect = nullptr;
};

} // namespace outbox::desktop
