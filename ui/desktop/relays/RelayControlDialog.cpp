#include "ui/desktop/relays/RelayControlDialog.h"

#include "core/ops/ActionConfirmation.h"
#include "core/ops/ActionTarget.h"
#include "ui/desktop/widgets/Controls.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace outbox::desktop {
RelayControlDialog::RelayControlDialog(RelayControl::Command command, const QVector<QJsonObject>& relays,
                                       const QString& reason, bool production, QWidget* parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("relayControlDialog"));
    const QString verb = command == RelayControl::Command::Pause    ? tr("Pause")
                         : command == RelayControl::Command::Resume ? tr("Resume")
                                                                    : tr("Drain");
    setWindowTitle(tr("%1 %n relay(s)", nullptr, int(relays.size())).arg(verb));
    auto* layout = new QVBoxLayout(this);
    const QString consequence =
        command == RelayControl::Command::Pause
            ? tr("Paused relays stop claiming new events at their next heartbeat; events in flight are "
                 "finished. Pending events wait (or go to other relays) until the relays are resumed.")
        : command == RelayControl::Command::Resume
            ? tr("Resumed relays claim and send events again at their next heartbeat.")
            : tr("Draining relays finish the events in flight, give back their claims and exit; the "
                 "process must be started again to send more.");
    auto* summary = controls::paragraph(this, QStringLiteral("relayControlSummary"));
    summary->setText(consequence);
    layout->addWidget(summary);

    auto* preview = new QTableWidget(int(relays.size()), 4, this);
    preview->setObjectName(QStringLiteral("relayPreview"));
    preview->setHorizontalHeaderLabels({tr("Relay"), tr("Host"), tr("State now"), tr("Will be asked to")});
    preview->setEditTriggers(QAbstractItemView::NoEditTriggers);
    preview->setSelectionMode(QAbstractItemView::NoSelection);
    preview->setFocusPolicy(Qt::NoFocus);
    preview->verticalHeader()->hide();
    preview->horizontalHeader()->setStretchLastSection(true);
    for (int i = 0; i < relays.size(); ++i) {
        const QJsonObject& r = relays.at(i);
        const QStringList cells{
            r.value(QStringLiteral("worker_id")).toString(), r.value(QStringLiteral("host")).toString(),
            r.value(QStringLiteral("state")).toString(), RelayControl::desiredState(command)};
        for (int c = 0; c < cells.size(); ++c)
            preview->setItem(i, c, new QTableWidgetItem(cells.at(c)));
    }
    preview->resizeColumnsToContents();
    layout->addWidget(preview, 1);

    auto* form = new QFormLayout;
    m_reason = new QLineEdit(reason, this);
    m_reason->setObjectName(QStringLiteral("relayControlReason"));
    m_reason->setPlaceholderText(tr("Why (written to the audit log)"));
    form->addRow(tr("Reason:"), m_reason);
    m_confirm = new QLineEdit(this);
    m_confirm->setObjectName(QStringLiteral("relayControlConfirm"));
    // Core decides whether a phrase is typed and how it reads (stopping relays, several of them, a
    // production profile).
    ActionTarget target;
    for (const QJsonObject& r : relays)
        target.workerIds << r.value(QStringLiteral("worker_id")).toString();
    m_phrase =
        ActionConfirmation::phraseFor(RelayControl::actionName(command), target, relays.size(), production);
    if (!m_phrase.isEmpty()) {
        m_confirm->setPlaceholderText(m_phrase);
        form->addRow(production ? tr("PRODUCTION — type \"%1\" to confirm:").arg(m_phrase)
                                : tr("Type \"%1\" to confirm:").arg(m_phrase),
                     m_confirm);
    } else {
        m_confirm->hide();
    }
    layout->addLayout(form);
    m_error = controls::paragraph(this, QStringLiteral("relayControlError"));
    m_error->setStyleSheet(QStringLiteral("color: #c62828; font-weight: bold;"));
    m_error->hide();
    layout->addWidget(m_error);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_run = buttons->addButton(verb, QDialogButtonBox::AcceptRole);
    m_run->setObjectName(QStringLiteral("relayControlRun"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, [this]() {
        if (!m_run->isEnabled())
            return;
        m_error->hide();
        m_run->setEnabled(false);
        m_run->setText(tr("Working…"));
        emit runRequested(this->reason());
    });
    connect(m_reason, &QLineEdit::textChanged, this, &RelayControlDialog::updateRunButton);
    connect(m_confirm, &QLineEdit::textChanged, this, &RelayControlDialog::updateRunButton);
    m_runText = verb;
    updateRunButton();
    m_reason->setFocus();
    resize(620, 360);
}

QString RelayControlDialog::reason() const
{
    return m_reason->text().trimmed();
}

void RelayControlDialog::failed(const QString& message)
{
    m_error->setText(tr("Failed: %1").arg(message));
    m_error->show();
    m_run->setText(m_runText);
    updateRunButton();
}

void RelayControlDialog::updateRunButton()
{
    const bool confirmed = m_phrase.isEmpty() || m_confirm->text().trimmed() == m_phrase;
    m_run->setEnabled(!reason().isEmpty() && confirmed);
}

} // namespace outbox::desktop
