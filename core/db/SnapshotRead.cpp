#include "core/db/SnapshotRead.h"

namespace outbox {

Result<std::unique_ptr<Database>> openForReading(const DatabaseUrl& url, const Database::Options& options)
{
    DatabaseUrl reading = url;
    if (reading.kind == DatabaseKind::Sqlite)
        reading.connectOptions = QStringLiteral("QSQLITE_OPEN_READONLY");
    return Database::open(reading, options);
}

Status beginSampleRead(Transaction& tx, const Database& db)
{
    if (db.kind() != DatabaseKind::Sqlite)
        return {};
    return tx.beginRead();
}

} // namespace outbox
