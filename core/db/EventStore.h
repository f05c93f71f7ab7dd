#pragma once

#include "core/db/EventFilter.h"
#include "core/db/OutboxEvent.h"
#include "core/support/Result.h"

#include <QMap>
#include <QSet>
#include <QVariantList>
#include <QVariantMap>
#include <QVector>

namespace outbox {

class Database;
class Dialect;

enum class OrderingMode { None, Aggregate };

struct ClaimedBatch
{
    QString leaseToken;
    QVector<OutboxEvent> events; // in id order
};

struct SentMark
{
    SentMark() = default;
    SentMark(qint64 id_, int partition_, qint64 offset_, QString topic_ = {})
        : id(id_), partition(partition_), offset(offset_), topic(std::move(topic_))
    {
    }
    qint64 id = 0;
    int partition = -1;
    qint64 offset = -1;
    QString topic; // where it went (recorded as sent_topic); empty: left as it is
};

struct ErrorMark
{
    qint64 id = 0;
    QString error;
    QString errorClass;
    qint64 retryDelayMs = 0; // retryLater only
};

// The outcome of a fenced update: rows whose lease was taken over are counted, never overwritten.
struct FenceResult
{
    int updated = 0;
    QVector<qint64> fenced;
};

// What one reaper pass did with the SENDING rows whose lease had expired.
struct ReapResult
{
    int returned = 0;  // back to PENDING, sent again by whoever claims them
    int exhausted = 0; // out of attempts: DEAD (FAILED in ordering mode), never claimed again
};

struct EventPageRequest
{
    EventFilter filter;
    qint64 afterId = 0; // keyset cursor: 0 starts at the newest (descending) or oldest (ascending)
    int limit = 100;
    bool ascending = false;
    // > 0: summaries (OutboxEvent::summaryColumns): payloads cut by the database to this many
    // characters, with their full size. 0: whole rows.
    int payloadPreviewChars = 0;
};

struct EventPage
{
    QVector<OutboxEvent> events;
    qint64 nextAfterId = 0; // 0 when this was the last page
};

struct StatusCounts
{
    QMap<QString, qint64> byStatus; // every status present, zero when absent
    qint64 oldestPendingAgeMs = -1; // -1: nothing pending
};

// Reads and writes outbox_events for the relay, the console and the CLI: the claim, the fenced
// marks and the reaper of docs/architecture.md.
class EventStore
{
public:
    explicit EventStore(Database& db) : m_db(db) {}

    // One short transaction: up to `limit` due PENDING events become SENDING under a fresh lease
    // token; attempts+1. Rows locked by other claimers are skipped, never waited for.
    Result<ClaimedBatch> claim(const QString& workerId, int limit, qint64 leaseMs,
                               OrderingMode ordering = OrderingMode::None);

    // Fenced transitions out of SENDING: only rows still SENDING under `leaseToken` change.
    Result<FenceResult> markSent(const QString& leaseToken, const QVector<SentMark>& marks);
    Result<FenceResult> retryLater(const QString& leaseToken, const QVector<ErrorMark>& marks);
    // PENDING again after `retryDelayMs`, the attempt given back: the broker gave no answer (the
    // connection went, no confirm in time), which says nothing about the event (docs/contract.md).
    Result<FenceResult> retryUncounted(const QString& leaseToken, const QVector<ErrorMark>& marks);
    Result<FenceResult> markFailed(const QString& leaseToken, const QVector<ErrorMark>& marks);
    Result<FenceResult> markDead(const QString& leaseToken, const QVector<ErrorMark>& marks);
    // Gives back claims that were never sent (drain): PENDING again, the attempt not counted.
    Result<FenceResult> release(const QString& leaseToken, const QVector<qint64>& ids);
    // SENDING rows whose lease expired go back to PENDING, unless they used up `maxAttempts`
    // (0: no limit): an event whose every send crashes or stalls its relay would otherwise cycle
    // SENDING -> PENDING for ever. Those become DEAD, or FAILED in ordering mode where they keep
    // blocking their aggregate until an operator acts, with last_error_class 'lease_expired'.
    Result<ReapResult> reapExpiredLeases(int maxAttempts, OrderingMode ordering = OrderingMode::None);

    // Retention: deletes up to `limit` SENT events sent more than `olderThanMs` ago; other states
    // are never touched. Returns how many were deleted.
    Result<int> deleteSentOlderThan(qint64 olderThanMs, int limit);

    Result<EventPage> list(const EventPageRequest& request);
    // By numeric id or by event_id.
    Result<OutboxEvent> find(const QString& idOrEventId);
    Result<StatusCounts> counts();

    // The claim's condition on an event row `e` (due PENDING; in ordering mode also the first
    // unfinished event of its aggregate), shared by the leased claim and HeldClaim.
    static QString dueCondition(const Dialect& d, OrderingMode ordering);
    // Databases with bigint arrays (bigintArray() not empty): the SENT marks as one row source
    // `m(id, p, o, t)` over bound arrays, for `UPDATE … FROM` (leased and held marks), and its binds.
    static QString sentMarksSource(const Dialect& d);
    static QVariantMap sentMarksBinds(const QVector<SentMark>& marks);

private:
    Result<FenceResult> fencedErrorUpdate(const QString& leaseToken, const QVector<ErrorMark>& marks,
                                          const QString& setClause, bool withDelay);
    // Applies `setClause` to those of `ids` still SENDING under the token; returns the ids changed.
    Result<QSet<qint64>> updateFenced(const QString& leaseToken, const QVariantList& ids,
                                      const QString& setClause, const QVariantMap& setBinds);

    Database& m_db;
};

} // namespace outbox
