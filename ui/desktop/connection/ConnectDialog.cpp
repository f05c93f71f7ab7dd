#include "ui/desktop/connection/ConnectDialog.h"

#include "core/config/Config.h"
#include "ui/desktop/widgets/Controls.h"
#include "ui/desktop/widgets/Labels.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QVBoxLayout>

namespace outbox::desktop {

ConnectDialog::ConnectDialog(QWidget* parent) : QDialog(parent), m_profiles(ProfileStore::load())
{
    setObjectName(QStringLiteral("connectDialog"));
    setWindowTitle(tr("Connect"));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    m_choice = new QComboBox(this);
    m_choice->setObjectName(QStringLiteral("profileChoice"));
    m_choice->addItem(tr("(new connection)"));
    for (const ConnectionProfile& p : std::as_const(m_profiles))
        m_choice->addItem(p.name);
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("profileName"));
    m_url = new QLineEdit(this);
    m_url->setObjectName(QStringLiteral("profileUrl"));
    m_url->setPlaceholderText(
        QStringLiteral("postgresql://user@host:5432/db · mysql://… · sqlite:///path/outbox.db"));
    // The fields keep their width when a long error appears below them.
    m_url->setMinimumWidth(m_url->fontMetrics().horizontalAdvance(m_url->placeholderText()) + 24);
    m_tablePrefix = new QLineEdit(this);
    m_tablePrefix->setObjectName(QStringLiteral("profileTablePrefix"));
    m_tablePrefix->setPlaceholderText(tr("none (tables outbox_events, …)"));
    // Only what the configuration accepts as [database] table_prefix can be typed.
    if (const config::ConfigKey* key = config::Config::find(QStringLiteral("database.table_prefix")))
        m_tablePrefix->setValidator(new QRegularExpressionValidator(
            QRegularExpression(QRegularExpression::anchoredPattern(key->pattern)), m_tablePrefix));
    m_colour = new QComboBox(this);
    m_colour->setObjectName(QStringLiteral("profileColour"));
    m_colour->addItem(tr("none"), QString());
    m_colour->addItem(tr("green (development)"), QStringLiteral("green"));
    m_colour->addItem(tr("yellow (staging)"), QStringLiteral("yellow"));
    m_colour->addItem(tr("red (production: typed confirmation for every action)"), QStringLiteral("red"));
    m_recent = new QComboBox(this);
    m_recent->setObjectName(QStringLiteral("recentUrls"));
    m_recent->addItem(tr("(recent URLs)"));
    m_recent->addItems(ProfileStore::recent());
    form->addRow(tr("Profile:"), m_choice);
    form->addRow(tr("Recent:"), m_recent);
    form->addRow(tr("Name:"), m_name);
    form->addRow(tr("URL:"), m_url);
    form->addRow(tr("Table prefix:"), m_tablePrefix);
    form->addRow(tr("Colour tag:"), m_colour);
    layout->addLayout(form);
    auto* note = new QLabel(
        tr("Passwords are never stored: they come from OUTBOX_DB_PASSWORD or are asked for when connecting."),
        this);
    note->setTextFormat(Qt::PlainText);
    note->setWordWrap(true);
    layout->addWidget(note);
    m_error = controls::paragraph(this, QStringLiteral("connectError"));
    m_error->setMinimumWidth(m_url->minimumWidth());
    m_error->setStyleSheet(QStringLiteral("color: #c62828; font-weight: bold;"));
    m_error->hide();
    layout->addWidget(m_error);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    auto* save = buttons->addButton(tr("Save profile"), QDialogButtonBox::ActionRole);
    save->setObjectName(QStringLiteral("saveProfile"));
    m_connect = buttons->addButton(tr("Connect"), QDialogButtonBox::AcceptRole);
    m_connect->setObjectName(QStringLiteral("connectButton"));
    m_connect->setDefault(true);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectDialog::tryConnect);
    connect(m_recent, &QComboBox::activated, this, [this](int index) {
        if (index > 0)
            m_url->setText(m_recent->itemText(index));
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(save, &QPushButton::clicked, this, &ConnectDialog::saveProfile);
    connect(m_choice, &QComboBox::currentIndexChanged, this, &ConnectDialog::profileChosen);
}

void ConnectDialog::profileChosen(int index)
{
    if (index <= 0 || index > m_profiles.size())
        return;
    const ConnectionProfile& p = m_profiles.at(index - 1);
    m_name->setText(p.name);
    m_url->setText(p.url);
    m_tablePrefix->setText(p.tablePrefix);
    m_colour->setCurrentIndex(std::max(0, m_colour->findData(p.colour)));
}

void ConnectDialog::saveProfile()
{
    const ConnectionProfile p = profile();
    if (p.name.isEmpty() || p.url.isEmpty())
        return;
    ProfileStore::save(p);
    m_profiles = ProfileStore::load();
    if (m_choice->findText(p.name) < 0)
        m_choice->addItem(p.name);
    m_url->setText(p.url); // shows that the password was not kept
}

void ConnectDialog::showError(const QString& message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

void ConnectDialog::tryConnect()
{
    if (urlText().isEmpty()) {
        showError(tr("Enter the database URL, e.g. postgresql://user@host:5432/db."));
        m_url->setFocus();
        return;
    }
    auto url = DatabaseUrl::parse(urlText());
    if (!url) {
        showError(tr("Not a database URL: %1").arg(url.message()));
        m_url->setFocus();
        return;
    }
    ConnectionProfile p = profile();
    if (p.url.isEmpty())
        p.url = url->redacted();
    showError(QString());
    m_connect->setEnabled(false);
    m_connect->setText(tr("Connecting…"));
    emit connectRequested(*url, p);
}

void ConnectDialog::connectionFailed(const QString& message)
{
    m_connect->setEnabled(true);
    m_connect->setText(tr("Connect"));
    showError(failureText(QString(), message));
}

QString ConnectDialog::failureText(const QString& url, const QString& message)
{
    // The database layer's message is "cannot connect to URL: driver's words": the sentence in the
    // operator's language, the URL and the driver's (server's) words as they are.
    if (Labels::isCannotConnect(message))
        return Labels::databaseError(message);
    return url.isEmpty() ? tr("Cannot connect: %1").arg(message)
                         : tr("Cannot connect to %1: %2").arg(url, message);
}

void ConnectDialog::connectionSucceeded()
{
    accept();
}

QString ConnectDialog::urlText() const
{
    return m_url->text().trimmed();
}

ConnectionProfile ConnectDialog::profile() const
{
    return ConnectionProfile{m_name->text().trimmed(), ProfileStore::withoutPassword(urlText()),
                             m_colour->currentData().toString(), m_tablePrefix->text().trimmed()};
}

} // namespace outbox::desktop
