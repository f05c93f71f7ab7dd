#pragma once

#include "core/metrics/MetricsSnapshot.h"
#include "core/support/Result.h"

namespace outbox {

class Database;

// The one query set behind a MetricsSnapshot. Each count is shaped to use the partial (or, on
// MariaDB, composite) indexes of the migration, so a tick stays cheap on a 10M-row table: exact
// counts for the unsent states, an estimate for SENT once the table is large.
class MetricsQuery
{
public:
    // Above this many rows SENT is estimated from the table statistics instead of counted.
    static constexpr qint64 ExactSentLimit = 1000000;

    explicit MetricsQuery(Database& db) : m_db(db) {}
    Result<MetricsSnapshot> sample(int recentWindowSeconds = 300);

private:
    Result<qint64> estimatedRows();

    Database& m_db;
};

} // namespace outbox
