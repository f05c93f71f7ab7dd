#include "ui/desktop/deadletters/GroupEditDialog.h"

#include "ui/desktop/connection/DatabaseSession.h"
#include "ui/desktop/widgets/Controls.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace outbox::desktop {

GroupEditDialog::GroupEditDialog(const ConsoleContext& context, const DeadLetterGroup& group, QWidget* parent)
    : QDialog(parent), m_context(context), m_group(group)
{
    setObjectName(QStringLiteral("groupEditDialog"));
    setWindowTitle(tr("Edit the payloads of a dead-letter group"));
    auto* layout = new QVBoxLayout(this);
    auto* intro =
        new QLabel(tr("Consumer %1, %2 dead letter(s) failing with \"%3\". One change for every NEW "
                      "letter of the group; each keeps its original, and a replay of the group "
                      "sends the edited messages.")
                       .arg(group.consumerName)
                       .arg(group.count)
                       .arg(group.fingerprint.left(200)),
                   this);
    intro->setTextFormat(Qt::PlainText);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* form = new QFormLayout;
    m_kind = new QComboBox(this);
    m_kind->setObjectName(QStringLiteral("groupEditKind"));
    m_kind->addItem(tr("Set a member"));
    m_kind->addItem(tr("Replace a value"));
    m_path = new QLineEdit(this);
    m_path->setObjectName(QStringLiteral("groupEditPath"));
    m_path->setPlaceholderText(QStringLiteral("customer.email"));
    m_from = new QLineEdit(this);
    m_from->setObjectName(QStringLiteral("groupEditFrom"));
    m_to = new QLineEdit(this);
    m_to->setObjectName(QStringLiteral("groupEditTo"));
    form->addRow(tr("Change"), m_kind);
    form->addRow(tr("Path (members separated by dots; empty: anywhere, for Replace)"), m_path);
    form->addRow(tr("Value to replace (JSON; other text is a string)"), m_from);
    form->addRow(tr("New value (JSON; other text is a string)"), m_to);
    layout->addLayout(form);
    m_previewButton = controls::button(this, tr("Preview"), QStringLiteral("groupEditPreview"));
    layout->addWidget(m_previewButton, 0, Qt::AlignLeft);
    m_summary = controls::paragraph(this, QStringLiteral("groupEditSummary"));
    layout->addWidget(m_summary);
    // Database text (payload values): plain text only.
    m_diffs = controls::readOnlyText(this, QStringLiteral("groupEditDiffs"));
    layout->addWidget(m_diffs, 1);
    auto* confirmForm = new QFormLayout;
    m_reason = new QLineEdit(this);
    m_reason->setObjectName(QStringLiteral("groupEditReason"));
    m_reason->setMaxLength(2000);
    m_confirm = new QLineEdit(this);
    m_confirm->setObjectName(QStringLiteral("groupEditConfirm"));
    m_confirmLabel = new QLabel(tr("Type the phrase shown after the preview to confirm"), this);
    confirmForm->addRow(tr("Reason (required, kept in the audit log)"), m_reason);
    confirmForm->addRow(m_confirmLabel, m_confirm);
    layout->addLayout(confirmForm);
    m_result = controls::paragraph(this, QStringLiteral("groupEditResult"));
    layout->addWidget(m_result);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_run = buttons->addButton(tr("Edit"), QDialogButtonBox::ActionRole);
    m_run->setObjectName(QStringLiteral("groupEditRun"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_previewButton, &QPushButton::clicked, this, &GroupEditDialog::preview);
    connect(m_run, &QPushButton::clicked, this, &GroupEditDialog::run);
    // Any change to the change itself makes the preview stale: preview again before editing.
    for (QLineEdit* e : {m_path, m_from, m_to})
        connect(e, &QLineEdit::textEdited, this, [this] {
            m_preview.reset();
            updateState();
        });
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] {
        m_preview.reset();
        updateState();
    });
    connect(m_reason, &QLineEdit::textChanged, this, &GroupEditDialog::updateState);
    connect(m_confirm, &QLineEdit::textChanged, this, &GroupEditDialog::updateState);
    resize(760, 560);
    updateState();
}

void GroupEditDialog::updateState()
{
    const bool replace = m_kind->currentIndex() == 1;
    m_from->setEnabled(replace);
    const qint64 changing = m_preview ? m_preview->changing : 0;
    // Core decides the phrase ("edit 25"); the dialog asks for what it is given.
    const QString phrase = m_preview ? m_preview->confirmation : QString();
    m_confirmLabel->setText(phrase.isEmpty() ? tr("Type the phrase shown after the preview to confirm")
                                             : tr("Type \"%1\" to confirm:").arg(phrase));
    m_confirm->setPlaceholderText(phrase);
    m_run->setEnabled(!m_running && m_preview && changing > 0 && !m_reason->text().trimmed().isEmpty() &&
                      m_confirm->text().trimmed() == phrase);
    m_previewButton->setEnabled(!m_running);
}

void GroupEditDialog::preview()
{
    DatabaseSession* session = m_context.analysis ? m_context.analysis : m_context.browse;
    if (!session)
        return;
    auto change = m_kind->currentIndex() == 0
                      ? JsonChange::set(m_path->text(), m_to->text())
                      : JsonChange::replace(m_path->text(), m_from->text(), m_to->text());
    if (!change) {
        m_summary->setText(change.message());
        return;
    }
    m_preview.reset();
    m_summary->setText(tr("Reading the group…"));
    m_diffs->clear();
    updateState();
    session->run<GroupEditPreview>(
        this,
        [group = m_group, c = *change](Database& db) { return DeadLetterGroupEditor(db).preview(group, c); },
        [this](const Result<GroupEditPreview>& r) {
            if (!r.ok()) {
                m_summary->setText(r.message());
                return;
            }
            m_preview = *r;
            QStringList lines;
            for (const GroupEditItem& i : r->items) {
                if (!i.changes) {
                    lines << tr("#%1 (edit %2): unchanged, %3").arg(i.id).arg(i.editCount).arg(i.skipped);
                    continue;
                }
                lines << tr("#%1 (edit %2):").arg(i.id).arg(i.editCount);
                for (const QString& d : i.differences)
                    lines << QStringLiteral("    ") + d;
            }
            m_diffs->setPlainText(lines.join(QLatin1Char('\n')));
            m_summary->setText(tr("%1 of %2 dead letter(s) change: %3")
                                   .arg(r->changing)
                                   .arg(r->items.size())
                                   .arg(r->change.describe()));
            updateState();
        });
}

void GroupEditDialog::run()
{
    if (!m_preview || !m_context.actions)
        return;
    GroupEditRequest request;
    request.group = m_group;
    request.change = m_preview->change;
    request.reason = m_reason->text();
    request.actor = m_context.actor;
    request.versions = m_preview->versions();
    m_running = true;
    updateState();
    m_result->setText(tr("Editing…"));
    m_context.actions->run<GroupEditResult>(
        this, [request](Database& db) { return DeadLetterGroupEditor(db).apply(request); },
        [this](const Result<GroupEditResult>& r) {
            m_running = false;
            if (!r.ok()) {
                m_result->setText(r.message());
                updateState();
                return;
            }
            const QString text =
                tr("Edited %1 dead letter(s) in %2 audited chunk(s); %3 conflict(s) (changed by someone else "
                   "since the preview, left as they are).")
                    .arg(r->edited)
                    .arg(r->chunks)
                    .arg(r->conflicts);
            m_result->setText(text);
            m_preview.reset();
            m_confirm->clear();
            updateState();
            emit statusMessage(text);
            emit edited();
        });
}

} // namespace outbox::desktop
