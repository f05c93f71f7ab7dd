#pragma once

#include "core/db/DeadLetter.h"
#include "core/support/Result.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <optional>

namespace outbox {

class Database;

// What an operator changes in a dead letter before replaying it.
struct DeadLetterEdit
{
    std::optional<QByteArray> payload;  // the new message bytes, exactly (binary-safe)
    std::optional<QJsonObject> headers; // the new headers: a JSON object of strings
    // The edit count of the dead letter the edit was made from (what the operator saw): required.
    // When the dead letter was edited since, the edit is a conflict and changes nothing
    // (an optimistic lock: two operators repairing the same message never overwrite each other).
    std::optional<int> baseEditCount;
    QString reason; // required, kept in the audit log
    QString actor;
    bool requireJsonPayload = false; // refuse a payload that is not a JSON document
};

struct DeadLetterEditResult
{
    DeadLetter before; // as it was
    DeadLetter after;  // as it is now (original_* hold the message as it came)
    qint64 auditId = 0;

    QJsonObject toJson() const;
};

// Edits a NEW dead letter's payload and/or headers in one transaction with its audit row
// (action "dlq.edit", before and after in the row); the first edit keeps the message as it came.
// An edit made from an older version (baseEditCount) than the row's is a Conflict.
// A replay then produces the edited message. The console, `outboxctl dlq edit` and
// PATCH /api/v1/dead-letters/{id} all come here.
class DeadLetterEditor
{
    Q_DECLARE_TR_FUNCTIONS(outbox::DeadLetterEditor)

public:
    static constexpr int MaxPayloadBytes = 1024 * 1024;
    static constexpr int MaxHeaders = 100;
    static constexpr int MaxHeaderBytes = 16384; // per name or value
    static constexpr int MaxReasonLength = 2000;

    explicit DeadLetterEditor(Database& db) : m_db(db) {}

    // Checks an edit's content without the database: one sentence naming what is wrong. edit()
    // also needs baseEditCount.
    static Status validate(const DeadLetterEdit& edit);
    Result<DeadLetterEditResult> edit(qint64 id, const DeadLetterEdit& edit);

    // The message of a dead letter as the audit row records it: text payloads as text, binary
    // ones as base64; the headers object.
    static QJsonObject messageJson(const QByteArray& payload, bool payloadIsText, const QByteArray& headers);

private:
    Database& m_db;
};

} // namespace outbox
