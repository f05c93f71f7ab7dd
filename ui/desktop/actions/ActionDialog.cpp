#include "ui/desktop/actions/ActionDialog.h"

#include "ui/desktop/actions/PreviewSample.h"
#include "ui/desktop/widgets/Controls.h"
#include "ui/desktop/widgets/PlainToolTip.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QTableWidget>
#include <QVBoxLayout>

namespace outbox::desktop {

ActionDialog::ActionDialog(ActionKind kind, const QString& title, const QString& target, QWidget* parent)
    : QDialog(parent), m_kind(kind)
{
    build(title, target, PreviewSample::captions(sampleKind(kind)));
}

ActionDialog::ActionDialog(const QString& title, const QString& summary, const QJsonArray& sample,
                           const QString& confirmPhrase, QWidget* parent)
    : QDialog(parent)
{
    build(title, summary, {tr("Target")});
    m_sample->setRowCount(int(sample.size()));
    for (int row = 0; row < sample.size(); ++row)
        m_sample->setItem(row, 0, new QTableWidgetItem(PreviewSample::cell(sample.at(row).toString())));
    setPreview(summary, sample.size(), {}, confirmPhrase);
}

void ActionDialog::build(const QString& title, const QString& summary, const QStringList& columns)
{
    setObjectName(QStringLiteral("actionDialog"));
    setWindowTitle(title);
    auto* layout = new QVBoxLayout(this);
    m_summary = controls::paragraph(this, QStringLiteral("actionSummary"));
    m_summary->setText(summary);
    layout->addWidget(m_summary);
    m_consequence = controls::paragraph(this, QStringLiteral("actionConsequence"));
    m_consequence->hide();
    layout->addWidget(m_consequence);
    m_ordering = controls::paragraph(this, QStringLiteral("actionOrdering"));
    m_ordering->hide();
    layout->addWidget(m_ordering);

    m_busyLabel = controls::infoLabel(this, QStringLiteral("actionBusyLabel"));
    m_busyLabel->setText(tr("Reading the preview (how many rows, a sample)…"));
    layout->addWidget(m_busyLabel);
    m_busyBar = new QProgressBar(this);
    m_busyBar->setObjectName(QStringLiteral("actionBusy"));
    m_busyBar->setRange(0, 0); // indeterminate
    m_busyBar->setTextVisible(false);
    layout->addWidget(m_busyBar);

    auto* sampleLabel = new QLabel(tr("Sample of the rows that will change:"), this);
    sampleLabel->setTextFormat(Qt::PlainText);
    layout->addWidget(sampleLabel);
    m_sample = new QTableWidget(0, int(columns.size()), this);
    m_sample->setObjectName(QStringLiteral("actionSampleTable"));
    m_sample->setHorizontalHeaderLabels(columns);
    m_sample->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_sample->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_sample->setFocusPolicy(Qt::ClickFocus); // Tab goes from Reason to the buttons
    m_sample->setWordWrap(false);
    m_sample->setTextElideMode(Qt::ElideMiddle);
    m_sample->verticalHeader()->hide();
    m_sample->horizontalHeader()->setStretchLastSection(true);
    m_sample->setEnabled(false);
    layout->addWidget(m_sample, 1);

    auto* form = new QFormLayout;
    if (m_kind == ActionKind::ReplayDeadLetters) {
        m_topic = new QLineEdit(this);
        m_topic->setObjectName(QStringLiteral("actionReplayTopic"));
        m_topic->setPlaceholderText(tr("empty: each dead letter's original topic"));
        m_topic->setMaxLength(249);
        // Kafka's legal topic characters; anything else is refused as it is typed.
        m_topic->setValidator(
            new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[A-Za-z0-9._-]*")), m_topic));
        form->addRow(tr("Replay to topic:"), m_topic);
        connect(m_topic, &QLineEdit::textChanged, this, &ActionDialog::updateConsequence);
    }
    m_reason = new QLineEdit(this);
    m_reason->setObjectName(QStringLiteral("actionReason"));
    m_reason->setPlaceholderText(tr("Why (written to the audit log)"));
    form->addRow(tr("Reason:"), m_reason);
    m_confirm = new QLineEdit(this);
    m_confirm->setObjectName(QStringLiteral("actionConfirm"));
    m_confirmLabel = new QLabel(this);
    m_confirmLabel->setTextFormat(Qt::PlainText);
    form->addRow(m_confirmLabel, m_confirm);
    m_confirm->hide();
    m_confirmLabel->hide();
    layout->addLayout(form);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_run = buttons->addButton(tr("Run"), QDialogButtonBox::AcceptRole);
    m_run->setObjectName(QStringLiteral("actionRun"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_reason, &QLineEdit::textChanged, this, &ActionDialog::updateRunButton);
    connect(m_confirm, &QLineEdit::textChanged, this, &ActionDialog::updateRunButton);
    setProperty("busy", true);
    updateRunButton();
    resize(720, 480);
    // Typing goes to the reason, also while the preview is still being read.
    setFocusProxy(m_reason);
    m_reason->setFocus();
}

void ActionDialog::setPreview(const QString& summary, qint64 matched, const QJsonArray& sample,
                              const QString& confirmPhrase)
{
    m_matched = matched;
    m_phrase = confirmPhrase;
    m_summary->setText(summary);
    if (m_kind)
        PreviewSample::fill(m_sample, sampleKind(*m_kind), sample);
    m_sample->setEnabled(true);
    if (!m_phrase.isEmpty()) {
        m_confirm->setPlaceholderText(m_phrase);
        m_confirmLabel->setText(tr("Type \"%1\" to confirm:").arg(m_phrase));
        m_confirm->show();
        m_confirmLabel->show();
    }
    m_busy = false;
    setProperty("busy", false);
    m_busyBar->hide();
    m_busyLabel->hide();
    m_consequence->setVisible(m_kind.has_value());
    updateConsequence();
    updateRunButton();
}

void ActionDialog::setOrdering(const QStringList& consequences)
{
    m_ordering->setText(PreviewSample::ordering(consequences));
    m_ordering->setVisible(!consequences.isEmpty());
}

PreviewSample::Kind ActionDialog::sampleKind(ActionKind kind)
{
    return isEventAction(kind) ? PreviewSample::Kind::Events : PreviewSample::Kind::DeadLetters;
}

QString ActionDialog::reason() const
{
    return m_reason->text().trimmed();
}

QString ActionDialog::replayTopic() const
{
    return m_topic ? m_topic->text().trimmed() : QString();
}

QString ActionDialog::consequence(ActionKind kind, qint64 matched, const QString& replayTopic)
{
    const int n = int(std::min<qint64>(matched, INT_MAX));
    switch (kind) {
    case ActionKind::Requeue:
        return tr("%n event(s) go back to PENDING and the relay sends them again; consumers must be "
                  "idempotent (they may have received some of them already).",
                  nullptr, n);
    case ActionKind::MarkDead:
        return tr("%n event(s) become DEAD: never sent, kept in the outbox for audit (a later requeue can "
                  "still send them).",
                  nullptr, n);
    case ActionKind::ReplayDeadLetters:
        return replayTopic.isEmpty()
                   ? tr("%n dead letter(s) go to REPLAYING and a running relay produces them again to their "
                        "original topic; its consumers receive them again and must be idempotent.",
                        nullptr, n)
                   : tr("%n dead letter(s) go to REPLAYING and a running relay produces them to the topic "
                        "\"%1\"; its consumers receive them and must be idempotent.",
                        nullptr, n)
                         .arg(replayTopic);
    case ActionKind::DiscardDeadLetters:
        return tr(
            "%n dead letter(s) are marked DISCARDED: never processed or replayed again, kept for audit.",
            nullptr, n);
    }
    return {};
}

void ActionDialog::updateConsequence()
{
    if (!m_busy && m_kind)
        m_consequence->setText(consequence(*m_kind, m_matched, replayTopic()));
}

void ActionDialog::updateRunButton()
{
    const bool confirmed = m_phrase.isEmpty() || m_confirm->text().trimmed() == m_phrase;
    m_run->setEnabled(!m_busy && !reason().isEmpty() && confirmed);
}

} // namespace outbox::desktop
