#pragma once

#include "core/support/Result.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QVector>

namespace outbox {

class Database;

// An aggregate whose events cannot move in ordering mode (--ordering aggregate): a FAILED event
// holds back every later event of the same aggregate.
struct BlockedAggregate
{
    QString aggregateType;
    QString aggregateId;
    qint64 blockingId = 0;   // the FAILED event's row id
    QString blockingEventId; // its event_id
    QString blockingType;    // its event_type
    QString error;           // its last_error
    QString errorClass;      // its last_error_class
    int attempts = 0;
    QDateTime since;         // when the blocking event was created: its aggregate waits since then
    QDateTime oldestWaiting; // created_at of the oldest event waiting behind it
    qint64 waiting = -1;     // later PENDING events of the aggregate (-1: not counted)

    QJsonObject toJson() const;
};

struct BlockedAggregatesQuery
{
    // Only aggregates whose oldest waiting event has been due for at least this long (the doctor
    // waits a minute before it calls it a problem; a listing shows every blocked aggregate).
    qint64 minWaitMs = 0;
    int limit = 100; // aggregates listed (1..1000)
    // The waiting events are counted for the first this many aggregates (-1 for the others).
    int countWaitingFor = MaxCount;
    static constexpr int MaxCount = 1000;
};

struct BlockedAggregateList
{
    QVector<BlockedAggregate> aggregates; // at most query.limit, the longest blocked first
    int total = 0;                        // blocked aggregates found (may exceed the limit)
    bool atLeast = false;                 // more FAILED rows matched than were examined

    QJsonObject toJson() const;
};

// What unblocking one event means for the events behind it.
struct OrderingConsequence
{
    qint64 eventId = 0;
    QString aggregateType;
    QString aggregateId;
    qint64 waiting = 0; // later PENDING events of the aggregate

    QJsonObject toJson() const;
};

// The one query for blocked aggregates, behind the doctor's blocked-aggregates check, `outboxctl
// events blocked`, GET /api/v1/events/blocked and the console's Blocked page; and the consequence
// of unblocking, shown by every front end before an operator requeues or marks DEAD a blocking
// event.
//
// Blocked events cannot move, so they sit at the head of the PENDING queue: the oldest due PENDING
// events (a short walk of the PENDING index, at most PendingExamined rows) are matched against
// the FAILED events (over their partial index), never the whole table.
class BlockedAggregates
{
    Q_DECLARE_TR_FUNCTIONS(outbox::BlockedAggregates)

public:
    static constexpr int PendingExamined = 2000;
    static constexpr int MaxBlockingRows = 10000;
    static constexpr int MaxLimit = 1000;

    explicit BlockedAggregates(Database& db) : m_db(db) {}

    // Blocked aggregates, the longest blocked first.
    Result<BlockedAggregateList> list(const BlockedAggregatesQuery& query);

    // For each of `ids` (at most 10,000) that has later PENDING events in its aggregate: how many.
    Result<QVector<OrderingConsequence>> consequences(const QVector<qint64>& ids);

    // "3 later events of Order/O-42 will be sent after it" (requeue: after the event is sent
    // again; markDead: without it), one sentence per consequence.
    static QStringList describe(const QVector<OrderingConsequence>& consequences, bool markDead);

private:
    Database& m_db;
};

} // namespace outbox
