#pragma once

#include "core/support/Result.h"

#include <QString>

namespace outbox {

class Database;

// DEAD events are kept for the audit trail for `[relay] dead_retention` (SENT rows have their own
// `[relay] retention`), then removed by the relay, a batch at a time, each batch in one transaction
// with its audit row (action events.retention_dead, the ids removed): an operator can always tell
// where a DEAD event went (issue 37 item 9).
class DeadRetention
{
public:
    explicit DeadRetention(Database& db) : m_db(db) {}
    // Removes up to `limit` DEAD events created more than `olderThanMs` ago, recorded under `actor`
    // (the relay's worker id). Returns how many were removed.
    Result<int> removeOlderThan(qint64 olderThanMs, int limit, const QString& actor);

private:
    Database& m_db;
};

} // namespace outbox
