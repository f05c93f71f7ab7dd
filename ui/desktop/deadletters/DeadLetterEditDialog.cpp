#include "ui/desktop/deadletters/DeadLetterEditDialog.h"

#include "core/support/JsonText.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace outbox::desktop {

namespace {

QString pretty(const QJsonObject& o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)).trimmed();
}

} // namespace

DeadLetterEditDialog::DeadLetterEditDialog(const QJsonObject& letter, const QString& confirmPhrase,
                                           QWidget* parent)
    : QDialog(parent), m_phrase(confirmPhrase)
{
    setObjectName(QStringLiteral("dlqEditDialog"));
    m_id = letter.value(QStringLiteral("id")).toInteger();
    m_baseEditCount = letter.value(QStringLiteral("edit_count")).toInt();
    m_binary = letter.value(QStringLiteral("payload_is_binary")).toBool();
    setWindowTitle(tr("Edit dead letter #%1 before replay").arg(m_id));
    auto* layout = new QVBoxLayout(this);
    auto* intro =
        new QLabel(tr("The edited message replaces the payload and headers that a replay sends; the "
                      "message as it came is kept, and the audit log records both."),
                   this);
    intro->setTextFormat(Qt::PlainText);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_payload = new QPlainTextEdit(this);
    m_payload->setObjectName(QStringLiteral("dlqEditPayload"));
    m_payload->setFont(mono);
    if (m_binary) {
        m_payload->setReadOnly(true);
        m_payload->setPlaceholderText(tr("The payload is binary (%n bytes) and cannot be edited here; use "
                                         "outboxctl dlq edit ID --payload-file FILE.",
                                         nullptr,
                                         int(letter.value(QStringLiteral("payload_bytes")).toInteger())));
    } else {
        // Shown as it is stored: the bytes a replay sends unless it is changed here.
        m_initialPayload = letter.value(QStringLiteral("payload")).toString();
        m_payload->setPlainText(m_initialPayload);
    }
    m_headers = new QPlainTextEdit(this);
    m_headers->setObjectName(QStringLiteral("dlqEditHeaders"));
    m_headers->setFont(mono);
    m_initialHeaders = pretty(letter.value(QStringLiteral("headers")).toObject());
    m_headers->setPlainText(m_initialHeaders);
    m_headers->setMaximumHeight(140);
    m_reason = new QLineEdit(this);
    m_reason->setObjectName(QStringLiteral("dlqEditReason"));
    m_reason->setPlaceholderText(tr("Why (written to the audit log)"));
    m_reason->setMaxLength(2000);

    auto* form = new QFormLayout;
    form->addRow(tr("Payload (JSON):"), m_payload);
    form->addRow(tr("Headers (JSON object of strings):"), m_headers);
    form->addRow(tr("Reason:"), m_reason);
    if (!m_phrase.isEmpty()) {
        m_confirm = new QLineEdit(this);
        m_confirm->setObjectName(QStringLiteral("dlqEditConfirm"));
        m_confirm->setPlaceholderText(m_phrase);
        auto* label = new QLabel(tr("Type \"%1\" to confirm:").arg(m_phrase), this);
        label->setTextFormat(Qt::PlainText);
        form->addRow(label, m_confirm);
        connect(m_confirm, &QLineEdit::textChanged, this, &DeadLetterEditDialog::updateState);
    }
    layout->addLayout(form, 1);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("dlqEditError"));
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::PlainText); // quotes header names and database errors
    m_error->setStyleSheet(QStringLiteral("color: #b00020;"));
    layout->addWidget(m_error);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_save = buttons->addButton(tr("Save edit"), QDialogButtonBox::ActionRole);
    m_save->setObjectName(QStringLiteral("dlqEditSave"));
    m_save->setDefault(false);
    m_save->setAutoDefault(false);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_save, &QPushButton::clicked, this, &DeadLetterEditDialog::save);
    connect(m_payload, &QPlainTextEdit::textChanged, this, &DeadLetterEditDialog::updateState);
    connect(m_headers, &QPlainTextEdit::textChanged, this, &DeadLetterEditDialog::updateState);
    connect(m_reason, &QLineEdit::textChanged, this, &DeadLetterEditDialog::updateState);
    resize(760, 560);
    updateState();
    m_error->clear(); // nothing typed yet: no complaint
    (m_binary ? static_cast<QWidget*>(m_headers) : m_payload)->setFocus();
}

QString DeadLetterEditDialog::problem() const
{
    // `text` read into `doc`; when it is no JSON, `message` with the parser's words (%1) and the line
    // (%2) and column (%3) of the box where it stopped (the parser's offset counts bytes).
    const auto parse = [](const QString& text, QJsonDocument& doc, const QString& message) {
        QJsonParseError error{};
        doc = QJsonDocument::fromJson(text.toUtf8(), &error);
        if (error.error == QJsonParseError::NoError)
            return QString();
        const QString before = QString::fromUtf8(text.toUtf8().left(error.offset));
        const qsizetype line = before.count(QLatin1Char('\n')) + 1;
        const qsizetype column = before.size() - (before.lastIndexOf(QLatin1Char('\n')) + 1) + 1;
        return message.arg(JsonText::parseError(error.error)).arg(line).arg(column);
    };
    if (!m_binary) {
        QJsonDocument parsed;
        if (const QString invalid = parse(m_payload->toPlainText(), parsed,
                                          tr("The payload is not valid JSON: %1 (line %2, column %3)."));
            !invalid.isEmpty())
            return invalid;
    }
    QJsonDocument headers;
    if (const QString invalid = parse(m_headers->toPlainText(), headers,
                                      tr("The headers are not valid JSON: %1 (line %2, column %3)."));
        !invalid.isEmpty())
        return invalid;
    if (!headers.isObject())
        return tr("The headers must be a JSON object.");
    const QJsonObject o = headers.object();
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!it->isString())
            return tr("Header \"%1\" must be a string.").arg(it.key());
    if (!payload() && !this->headers())
        return tr("Nothing changed yet.");
    if (reason().isEmpty())
        return tr("A reason is required.");
    if (m_confirm && m_confirm->text().trimmed() != m_phrase)
        return tr("Type \"%1\" to confirm (production profile).").arg(m_phrase);
    return {};
}

void DeadLetterEditDialog::updateState()
{
    m_error->setText(problem());
}

void DeadLetterEditDialog::save()
{
    const QString why = problem();
    m_error->setText(why);
    if (!why.isEmpty())
        return; // refused: the message says why, nothing is saved
    m_save->setEnabled(false);
    m_save->setText(tr("Saving…"));
    emit saveRequested();
}

void DeadLetterEditDialog::saveFailed(const QString& message)
{
    m_save->setEnabled(true);
    m_save->setText(tr("Save edit"));
    m_error->setText(tr("Not saved: %1").arg(message));
}

std::optional<QByteArray> DeadLetterEditDialog::payload() const
{
    if (m_binary || m_payload->toPlainText() == m_initialPayload)
        return std::nullopt;
    return m_payload->toPlainText().toUtf8();
}

std::optional<QJsonObject> DeadLetterEditDialog::headers() const
{
    const QString text = m_headers->toPlainText();
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8());
    if (!doc.isObject() || doc.object() == QJsonDocument::fromJson(m_initialHeaders.toUtf8()).object())
        return std::nullopt;
    return doc.object();
}

QString DeadLetterEditDialog::reason() const
{
    return m_reason->text().trimmed();
}

} // namespace outbox::desktop
