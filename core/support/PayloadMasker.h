#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QRegularExpression>
#include <QStringList>

namespace outbox {

// Hides sensitive values from viewers, wherever the API and the dashboard show them:
// - fields, as dotted paths ("card.number"), in JSON payloads, headers and message keys
//   (arrays on the way are searched element by element); "payload.x" or "headers.x" limits a
//   field to one of them;
// - the same fields' names in free text: `number=4111…`, `"number": "4111…"`;
// - patterns (regular expressions) in every text: error messages, stack traces, keys, reasons,
//   header values and the payload's strings. "card-numbers" stands for 13 to 19 digits that pass
//   the Luhn check, in any script, with separators between groups, inside a longer number, or
//   stored as a JSON number.
// Field names are compared without case, in JSON, in escaped JSON inside a text and URL-encoded.
class PayloadMasker
{
public:
    static inline const QString Mask = QStringLiteral("***");
    static inline const QString CardNumbers = QStringLiteral("card-numbers");

    explicit PayloadMasker(QStringList fields = {}, QStringList patterns = {});

    bool isEmpty() const
    {
        return m_payloadPaths.isEmpty() && m_headerPaths.isEmpty() && m_textPatterns.isEmpty() &&
               !m_cardNumbers;
    }
    // True when a configured field hides header `key` (e.g. "traceparent" or "headers.traceparent").
    bool masksHeader(const QString& key) const;
    // An event, dead letter, audit entry or bulk-action job as the API renders it.
    QJsonObject maskRow(QJsonObject row) const;
    // A payload (or a JSON message key): fields, then patterns in its strings.
    QJsonValue maskValue(const QJsonValue& payload) const;
    // Free text: patterns and field names.
    QString maskText(const QString& text) const;
    // Rows of a grouping (failure groups, dead-letter groups) as a viewer sees them: each masked,
    // and rows whose `keys` are equal once masked merged into one (counts added, the smallest
    // first_id kept): two groups showing the same masked fingerprint would tell a viewer that the
    // hidden values differ. Without anything to mask, the rows as they are.
    QJsonArray maskGroups(const QJsonArray& rows, const QStringList& keys) const;
    // A metrics snapshot as the dashboard and /api/v1/summary show it (relay errors).
    QJsonObject maskSnapshot(QJsonObject snapshot) const;

    // A text cut at a preview's end, for viewers: without its last (cut) word and the digits and
    // separators before it, so that no part of a secret too short for its pattern stays.
    static QString endBeforeCut(QString text);

private:
    static QJsonValue maskPath(const QJsonValue& value, const QStringList& path, int index);
    QJsonValue maskFields(QJsonValue value, const QList<QStringList>& paths) const;
    QJsonValue maskStrings(const QJsonValue& value) const;
    // JSON text masked as JSON, anything else as free text (or hidden whole when `hideOpaque`).
    QString maskEncoded(const QString& text, const QList<QStringList>& paths, bool hideOpaque) const;

    QList<QStringList> m_payloadPaths;
    QList<QStringList> m_headerPaths;
    QList<QRegularExpression> m_textPatterns; // configured patterns
    QList<QRegularExpression> m_namedValues;  // the fields' names in text: name=value
    bool m_cardNumbers = false;
};

} // namespace outbox
