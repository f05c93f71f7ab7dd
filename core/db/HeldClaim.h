#pragma once

#include "core/db/EventStore.h"
#include "core/support/Result.h"

#include <QDateTime>
#include <QStringList>
#include <memory>
#include <optional>

namespace outbox {

class Database;

// A claim held as row locks (relay.claim_mode = held, PostgreSQL): `SELECT … FOR UPDATE SKIP
// LOCKED` in a transaction that stays open on a connection of its own while the batch is
// published, and the marks written in that same transaction before it commits. The rows are
// written once (PENDING -> SENT) instead of twice (PENDING -> SENDING -> SENT), which halves what
// the relay's path costs the database: every status change of a row is a new row version in the
// table and in each index. What the lease columns record in the default mode is carried by the
// transaction instead: a relay that dies releases its locks with its connection, and the rows are
// PENDING for the next claim at once; nobody else can mark a locked row, so the locks are the
// fence; the attempt the claim began is journalled (journal()) and counted by reap() should the
// relay die before the batch's transaction commits. The connection runs with
// idle_in_transaction_session_timeout set to the hold time, so that a stalled relay (stopped,
// swapped out) loses its locks when a lease would have expired.
class HeldClaim
{
public:
    // Opens `db` for holding claims (sets the idle-in-transaction timeout to `holdMs`).
    static Result<std::unique_ptr<HeldClaim>> open(std::unique_ptr<Database> db, qint64 holdMs);
    ~HeldClaim();
    HeldClaim(const HeldClaim&) = delete;
    HeldClaim& operator=(const HeldClaim&) = delete;

    // Begins the transaction and locks up to `limit` due PENDING events. The events come back with
    // the attempt this claim begins counted (attempts + 1), like a leased claim's. An empty batch
    // leaves no transaction open.
    Result<ClaimedBatch> claim(const QString& workerId, int limit, OrderingMode ordering);
    bool holding() const { return m_holding; }

    // Marks inside the open transaction, each counting the attempt (attempts + 1) on the rows;
    // nothing is visible to others before finish() commits.
    Result<FenceResult> markSent(const QVector<SentMark>& marks);
    Result<FenceResult> retryLater(const QVector<ErrorMark>& marks);
    // PENDING after the backoff without counting the attempt (no answer from the broker).
    Result<FenceResult> retryUncounted(const QVector<ErrorMark>& marks);
    Result<FenceResult> markFailed(const QVector<ErrorMark>& marks);
    Result<FenceResult> markDead(const QVector<ErrorMark>& marks);

    // Deletes the batch's journal row in the transaction and commits: the marks become visible,
    // the locks go, and rows that were not marked (released) are PENDING as they were.
    Status finish(qint64 journalId);
    // Rolls back: every row of the batch is PENDING as before the claim.
    void abandon();

    // Journal (on the relay's other connection, committed before anything is published): the
    // ids of a held batch and until when its holder may hold them. Returns the journal row's id.
    static Result<qint64> journal(Database& db, const QString& workerId, const QVector<qint64>& ids,
                                  qint64 holdMs);
    // Removes a journal row whose batch was given back unsent (no attempt to count).
    static Status forget(Database& db, qint64 journalId);
    // Journal rows past their hold time belong to relays that died (or were cut off) before their
    // batch committed: each of their events still PENDING and not locked by a live holder gets the
    // attempt counted, and those that used up `maxAttempts` (0: no limit) become DEAD (FAILED in
    // ordering mode) with last_error_class 'lease_expired', as the lease reaper does. A journal
    // row whose events are still locked is left for a later pass.
    static Result<ReapResult> reap(Database& db, int maxAttempts, OrderingMode ordering);

    // Journal rows whose hold time passed more than `graceMs` ago: what a held relay's reaper
    // should have counted by now (none where the database has no held claims).
    struct Overdue
    {
        qint64 batches = 0;
        qint64 events = 0;
        QDateTime oldest; // held_until of the oldest
        QDateTime newest;
        QStringList workers; // up to `maxWorkers`, the most batches first
    };
    static Result<Overdue> overdue(Database& db, qint64 graceMs, int maxWorkers);

    // What held relays are sending right now, from the journal: per relay, the events of its held
    // batches and how many of those are past their hold time. Held rows stay PENDING (no lease
    // columns are written), so this is how the console, the web console and /metrics show them in
    // flight beside leased ones. Empty where the database has no held claims.
    struct InFlight
    {
        QString workerId;
        qint64 events = 0;
        qint64 expired = 0;
    };
    static Result<QVector<InFlight>> inFlight(Database& db);

    // The held batch `eventId` is in, if any: which relay holds it, since when (migration 16; an
    // invalid time before it) and until when. For `trace`: a PENDING event held is being sent.
    struct Holder
    {
        QString workerId;
        QDateTime since;
        QDateTime until;
    };
    static Result<std::optional<Holder>> holderOf(Database& db, qint64 eventId);

private:
    explicit HeldClaim(std::unique_ptr<Database> db);
    Result<FenceResult> errorMarks(const QVector<ErrorMark>& marks, const QString& status, bool withDelay,
                                   bool countAttempt = true);

    std::unique_ptr<Database> m_db;
    bool m_holding = false;
    QString m_workerId;
};

} // namespace outbox
