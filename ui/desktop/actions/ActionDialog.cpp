#include "ui/desktop/actions/ActionDialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace outbox::desktop {

ActionDialog::ActionDialog(const QString& title, const QString& summary, const QJsonArray& sample,
                           const QString& confirmPhrase, QWidget* parent)
    : QDialog(parent), m_phrase(confirmPhrase)
{
    setObjectName(QStringLiteral("actionDialog"));
    setWindowTitle(title);
    auto* layout = new QVBoxLayout(this);
    auto* summaryLabel = new QLabel(summary, this);
    summaryLabel->setObjectName(QStringLiteral("actionSummary"));
    summaryLabel->setWordWrap(true);
    layout->addWidget(summaryLabel);
    layout->addWidget(new QLabel(tr("Sample of the rows that will change:"), this));
    auto* sampleView = new QPlainTextEdit(this);
    sampleView->setObjectName(QStringLiteral("actionSample"));
    sampleView->setReadOnly(true);
    sampleView->setPlainText(QString::fromUtf8(QJsonDocument(sample).toJson(QJsonDocument::Indented)));
    layout->addWidget(sampleView, 1);

    auto* form = new QFormLayout;
    m_reason = new QLineEdit(this);
    m_reason->setObjectName(QStringLiteral("actionReason"));
    m_reason->setPlaceholderText(tr("Why (written to the audit log)"));
    form->addRow(tr("Reason:"), m_reason);
    m_confirm = new QLineEdit(this);
    m_confirm->setObjectName(QStringLiteral("actionConfirm"));
    if (!m_phrase.isEmpty()) {
        m_confirm->setPlaceholderText(m_phrase);
        form->addRow(tr("Type \"%1\" to confirm:").arg(m_phrase), m_confirm);
    } else {
        m_confirm->hide();
    }
    layout->addLayout(form);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_run = buttons->addButton(tr("Run"), QDialogButtonBox::AcceptRole);
    m_run->setObjectName(QStringLiteral("actionRun"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_reason, &QLineEdit::textChanged, this, &ActionDialog::updateRunButton);
    connect(m_confirm, &QLineEdit::textChanged, this, &ActionDialog::updateRunButton);
    updateRunButton();
    resize(640, 480);
}

QString ActionDialog::reason() const
{
    return m_reason->text().trimmed();
}

void ActionDialog::updateRunButton()
{
    const bool confirmed = m_phrase.isEmpty() || m_confirm->text().trimmed() == m_phrase;
    m_run->setEnabled(!reason().isEmpty() && confirmed);
}

} // namespace outbox::desktop
