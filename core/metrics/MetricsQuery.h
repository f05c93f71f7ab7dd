#pragma once

#include "core/metrics/MetricsSnapshot.h"
#include "core/support/Result.h"

#include <QElapsedTimer>
#include <QStringList>

namespace outbox {

class Database;

// What a sampler keeps from one tick to the next. A count whose cost grows with the history (the
// inbox's PROCESSED rows per consumer: every message a consumer ever handled) is repeated no
// sooner than RepeatFactor times what it last took, so it never takes more than about 2 % of a
// database core however large the inbox grows; in between the last figures are reported again.
struct MetricsQueryMemory
{
    static constexpr qint64 RepeatFactor = 50;
    QMap<QString, qint64> processedTotals;
    QElapsedTimer processedAge; // invalid: never counted
    qint64 processedCostMs = 0;
};

// The one query set behind a MetricsSnapshot. Each count is shaped to use the partial (or, on
// MariaDB, composite) indexes of the migration, so a tick stays cheap on a 10M-row table: exact
// counts for the unsent states, an estimate for SENT once the table is large.
class MetricsQuery
{
public:
    // Above this many rows, or this many bytes of table, SENT is estimated from the table
    // statistics instead of counted (a count reads the whole table). The count's cost grows with
    // the table and comes every tick of every console: 60 ms per second on 100,000 SENT rows,
    // taken from the cores the relay and the writers need (issue 30: a third of the relay's p99
    // with a console open). Up to these limits a count costs about 5 ms.
    static constexpr qint64 ExactSentLimit = 20000;
    static constexpr qint64 ExactSentMaxBytes = 8 * 1024 * 1024;

    explicit MetricsQuery(Database& db) : m_db(db) {}
    Result<MetricsSnapshot> sample(int recentWindowSeconds = 300);
    // The first part of sample() on its own, for a status line: takenAt, the events per status
    // (sentIsEstimate) and the oldest PENDING event's age; the rest of the snapshot stays empty.
    Result<MetricsSnapshot> counts();

    // Adds, per listed consumer, the events SENT more than `olderThanMs` ago that it has not
    // PROCESSED (outbox_unconsumed_events). To stay cheap on a 10M-row table the count is only
    // made for consumers named here and only over events created in the last `windowMs` (a
    // range on the created_at index, plus one inbox lookup per candidate row).
    void setUnconsumedConsumers(const QStringList& consumers, qint64 olderThanMs = 60000,
                                qint64 windowMs = 3600000);
    // A sampler's memory across ticks (see MetricsQueryMemory); without one every count is made.
    void setMemory(MetricsQueryMemory* memory) { m_memory = memory; }

private:
    // The table statistics: rows and bytes, -1 where the database keeps none (SQLite).
    struct TableEstimate
    {
        qint64 rows = -1;
        qint64 bytes = -1;
    };
    Result<TableEstimate> estimate();

    Database& m_db;
    QStringList m_unconsumedConsumers;
    qint64 m_unconsumedOlderThanMs = 60000;
    qint64 m_unconsumedWindowMs = 3600000;
    MetricsQueryMemory* m_memory = nullptr;
};

} // namespace outbox
