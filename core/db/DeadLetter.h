#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QVector>
#include <optional>
#include <utility>

class QSqlQuery;

namespace outbox {

class Dialect;

// One row of dead_letters: a message a consumer could not process, kept for inspection and replay.
//
// The message is kept exactly, whatever its bytes: text columns hold what every database can
// store as text (valid UTF-8, no NUL, within the column's size), and when the message does not
// fit that, the exact bytes go to binary columns beside a readable rendering, and storageNote
// says what was done. Replay always uses the exact bytes.
struct DeadLetter
{
    using Header = std::pair<QByteArray, QByteArray>;

    qint64 id = 0;
    QString consumerName;
    QString eventId; // as stored: longer than 191 characters it is shortened (see storableEventId)
    QString topic;
    std::optional<int> sourcePartition;
    std::optional<qint64> sourceOffset;
    QString messageKey;         // readable key; null when the message had no key
    QByteArray key;             // exact key bytes; null when the message had no key (empty: from messageKey)
    QByteArray headers;         // JSON object of strings (readable, last value wins)
    QVector<Header> rawHeaders; // exact headers in wire order (empty: from headers)
    QByteArray payload;         // exact message bytes
    QString error;
    QString stacktrace;
    int attempts = 0;
    QDateTime firstFailedAt;
    QDateTime lastFailedAt;
    QString status;
    QString replayToken;
    QString replayTopic;
    int replayCount = 0;
    QDateTime replayedAt;
    QString replayedBy;
    // Replay delivery: claimed under a lease like events, backed off after a failure, given up
    // (back to NEW with replayError) after the attempt limit or a deterministic refusal.
    int replayAttempts = 0;
    QString replayError;
    QDateTime replayAvailableAt; // next try not before this (backoff)
    QString replayWorker;
    QDateTime replayLeaseUntil;
    QString replayLeaseToken;
    bool payloadIsText = true; // false: `payload` is binary, the text column holds a rendering
    QString storageNote;       // what did not fit the columns as it was, and where it is kept
    // An operator's edits before replay (DeadLetterStore::edit): payload, headers and the fields
    // above hold the edited message, these the message as it came (kept from the first edit).
    int editCount = 0;
    QDateTime editedAt;
    QString editedBy;
    QByteArray originalPayload;
    bool originalPayloadIsText = true;
    QByteArray originalHeaders;         // JSON object, as `headers`
    QVector<Header> originalRawHeaders; // as `rawHeaders`
    bool edited() const { return editCount > 0; }
    // A list's summary (summaryColumns()): payloads and the stack trace hold only their first
    // characters (bytes when binary); these are their full sizes in bytes (-1: not a summary).
    qint64 payloadSize = -1;
    qint64 stacktraceSize = -1;
    qint64 originalPayloadSize = -1;

    static QString columns();
    static DeadLetter fromQuery(const QSqlQuery& q, const Dialect& dialect);
    // columns() with payloads and the stack trace cut by the database to their first
    // `previewPlaceholder` (bound) characters, raw headers left out, then their full sizes.
    static QString summaryColumns(const Dialect& dialect, const QString& previewPlaceholder);
    static DeadLetter fromSummary(const QSqlQuery& q, const Dialect& dialect);
    QJsonObject toJson() const;

    // The exact key and headers, whichever way they were given.
    QByteArray exactKey() const;
    QVector<Header> exactHeaders() const;

    // Event ids longer than this are shortened (with a hash) to fit event_id on every database.
    static constexpr int MaxEventIdLength = 191;
    // The event_id as dead_letters stores it: unchanged when it fits, else a prefix and a hash.
    static QString storableEventId(const QString& eventId);
};

} // namespace outbox
