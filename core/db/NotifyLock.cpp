#include "core/db/NotifyLock.h"

#include "core/db/Database.h"

namespace outbox {

Result<std::optional<qint64>> NotifyLock::waiters(Database& db)
{
    if (db.kind() != DatabaseKind::PostgreSql)
        return std::optional<qint64>{};
    // PreCommit_Notify: LockSharedObject(DatabaseRelationId, InvalidOid, 0, AccessExclusiveLock);
    // its waiters show wait_event_type Lock, wait_event object (on COMMIT, or on the INSERT of an
    // autocommitted statement).
    auto n = db.scalar(
        QStringLiteral("SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                       "WHERE l.locktype = 'object' AND l.classid = CAST('pg_database' AS regclass) "
                       "AND l.objid = 0 AND NOT l.granted AND a.datname = current_database()"));
    if (!n)
        return n.error();
    return std::optional<qint64>{n->toLongLong()};
}

} // namespace outbox
