#pragma once

#include "core/ops/AuditEntry.h"
#include "core/support/Result.h"

#include <QVector>

namespace outbox {

class Database;
class Transaction;

struct AuditQuery
{
    QDateTime since;
    QString action;
    QString actor;
    QString targetKind; // with targetId: the history of one target (e.g. an event's audit trail)
    qint64 targetId = 0;
    qint64 afterId = 0;
    int limit = 100;
    // > 0: a before/after state larger than this many bytes stays in the database (a dead letter's
    // whole message before and after an edit can be megabytes); the entry says so and its size, and
    // find() reads it whole. 0: every state whole (CLI, desktop).
    int stateBytesLimit = 0;
};

// Append-only: the database itself refuses UPDATE and DELETE on the table (migration 2).
class AuditLog
{
public:
    static constexpr int MaxTargetIds = 1000;

    explicit AuditLog(Database& db) : m_db(db) {}
    // Writes inside the caller's transaction, so the change and its record commit together.
    Result<qint64> append(const AuditEntry& entry);
    // append(), then commits `tx`, the caller's transaction: the change and its record together.
    // The failpoint "ops.before_audit_commit" (tests) fails it between the two.
    Result<qint64> appendAndCommit(const AuditEntry& entry, Transaction& tx);
    Result<QVector<AuditEntry>> list(const AuditQuery& query);
    // One entry, states whole; a missing id is a not-found error.
    Result<AuditEntry> find(qint64 id);

private:
    Result<QVector<AuditEntry>> select(const QString& where, QVariantMap binds, int stateBytesLimit);

    Database& m_db;
};

} // namespace outbox
