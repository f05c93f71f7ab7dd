#include "ui/desktop/widgets/DeadLetterText.h"

#include "ui/desktop/widgets/LineDiff.h"

#include <QJsonDocument>

namespace outbox::desktop {

QString DeadLetterText::detail(const QJsonObject& o)
{
    // The whole error first (the column elides it), then what an edit changed, then every field.
    QString text = tr("Error:") + QLatin1Char('\n') + o.value(QStringLiteral("error")).toString() +
                   QStringLiteral("\n\n");
    const QJsonObject original = o.value(QStringLiteral("original")).toObject();
    if (o.value(QStringLiteral("edit_count")).toInt() > 0 && !original.isEmpty()) {
        // Payloads are compared as indented JSON when they are JSON, else as they are.
        const auto shown = [](const QJsonObject& message) {
            if (message.value(QStringLiteral("payload_is_binary")).toBool())
                return tr("(binary, %n bytes)", nullptr,
                          int(message.value(QStringLiteral("payload_bytes")).toInteger()));
            const QString payload = message.value(QStringLiteral("payload")).toString();
            const QJsonDocument doc = QJsonDocument::fromJson(payload.toUtf8());
            return doc.isNull() ? payload : QString::fromUtf8(doc.toJson(QJsonDocument::Indented)).trimmed();
        };
        const auto headers = [](const QJsonObject& message) {
            return QString::fromUtf8(QJsonDocument(message.value(QStringLiteral("headers")).toObject())
                                         .toJson(QJsonDocument::Indented))
                .trimmed();
        };
        text += tr("Edited %n time(s), last by %1 at %2. Changes from the message as it came (- original, + "
                   "edited; a replay sends the edited one):",
                   nullptr, o.value(QStringLiteral("edit_count")).toInt())
                    .arg(o.value(QStringLiteral("edited_by")).toString(),
                         o.value(QStringLiteral("edited_at")).toString()) +
                QLatin1Char('\n') + tr("Payload:") + QLatin1Char('\n') +
                LineDiff::unified(shown(original), shown(o)) + QLatin1Char('\n') + tr("Headers:") +
                QLatin1Char('\n') + LineDiff::unified(headers(original), headers(o)) + QStringLiteral("\n\n");
    }
    return text + QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented));
}

} // namespace outbox::desktop
