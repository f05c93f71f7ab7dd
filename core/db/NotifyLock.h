#pragma once

#include "core/support/Result.h"

#include <optional>

namespace outbox {

class Database;

// The lock every transaction that notified takes at commit (PostgreSQL: an object lock on
// pg_database, one for the whole server, held across the commit's WAL flush), which serialises
// the commits of every writer while the wake-up trigger is on.
class NotifyLock
{
public:
    // How many sessions of this database wait for it right now; none where there is no such lock
    // (MariaDB/MySQL, SQLite).
    static Result<std::optional<qint64>> waiters(Database& db);
};

} // namespace outbox
