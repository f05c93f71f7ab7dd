#pragma once

#include "ui/desktop/connection/ConnectionProfile.h"

#include <QDialog>

class QComboBox;
class QLineEdit;

namespace outbox::desktop {

// Pick or edit a named profile (URL without password, table prefix, colour tag) and connect;
// profiles are kept with QSettings, passwords never are.
class ConnectDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ConnectDialog(QWidget* parent = nullptr);

    QString urlText() const;
    ConnectionProfile profile() const;

private:
    void profileChosen(int index);
    void saveProfile();

    QVector<ConnectionProfile> m_profiles;
    QComboBox* m_choice = nullptr;
    QLineEdit* m_name = nullptr;
    QLineEdit* m_url = nullptr;
    QLineEdit* m_tablePrefix = nullptr;
    QComboBox* m_colour = nullptr;
};

} // namespace outbox::desktop
