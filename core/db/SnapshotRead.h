#pragma once

#include "core/db/Database.h"

#include <memory>

namespace outbox {

// A reader that samples a database and never writes to it (the fleet's sampler).
//
// openForReading: SQLite opens the file read-only (SqliteDialect::connectOptions): SQLite never
// creates it, and closing the last connection neither checkpoints nor deletes the -wal file that
// the next reader would create again. Servers: an ordinary connection.
Result<std::unique_ptr<Database>> openForReading(const DatabaseUrl& url, const Database::Options& options);

// Begins the read transaction of one sample where it saves work: SQLite takes one WAL read lock
// for the whole sample instead of one per statement (each takes SQLite's process-wide mutex).
// Servers keep one statement per transaction (a failing check must not abort the ones after it):
// nothing begun. `tx` rolls back on scope exit.
Status beginSampleRead(Transaction& tx, const Database& db);

} // namespace outbox
