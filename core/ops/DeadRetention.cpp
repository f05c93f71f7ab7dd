#include "core/ops/DeadRetention.h"

#include "core/db/Database.h"
#include "core/db/SqlCondition.h"
#include "core/ops/AuditEntry.h"
#include "core/ops/AuditLog.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSysInfo>

namespace outbox {

Result<int> DeadRetention::removeOlderThan(qint64 olderThanMs, int limit, const QString& actor)
{
    if (olderThanMs <= 0 || limit <= 0)
        return 0;
    const Dialect& d = m_db.dialect();
    Transaction tx(m_db);
    if (Status s = tx.beginWrite(); !s)
        return s.error();
    auto q = m_db.exec(QStringLiteral("SELECT id FROM {events} WHERE status = 'DEAD' AND created_at < %1 "
                                      "ORDER BY id LIMIT :limit")
                           .arg(d.nowPlusMillis(QStringLiteral(":age"))),
                       {{QStringLiteral(":age"), -olderThanMs}, {QStringLiteral(":limit"), limit}});
    if (!q)
        return Error::runtime(QStringLiteral("DEAD retention failed: %1").arg(q.message()));
    QVariantList ids;
    QJsonArray targetIds;
    while (q->next()) {
        ids << q->value(0).toLongLong();
        if (targetIds.size() < AuditLog::MaxTargetIds)
            targetIds << q->value(0).toLongLong();
    }
    if (ids.isEmpty())
        return 0;
    SqlCondition c;
    c.addIn(QStringLiteral("id"), QStringLiteral("i"), ids);
    // Still DEAD: an operator's requeue between the SELECT and here keeps its row.
    auto deleted = m_db.exec(
        QStringLiteral("DELETE FROM {events} WHERE status = 'DEAD' AND %1").arg(c.where()), c.binds);
    if (!deleted)
        return Error::runtime(QStringLiteral("DEAD retention failed: %1").arg(deleted.message()));
    const int removed = deleted->numRowsAffected();
    AuditEntry entry;
    entry.actor = actor;
    entry.host = QSysInfo::machineHostName();
    entry.action = QStringLiteral("events.retention_dead");
    entry.targetKind = QStringLiteral("event");
    entry.targetIds = targetIds;
    entry.filter = QJsonObject{{QStringLiteral("status"), QStringLiteral("DEAD")},
                               {QStringLiteral("created_before_ms_ago"), olderThanMs}};
    entry.reason = QStringLiteral("[relay] dead_retention: DEAD events kept for %1 ms").arg(olderThanMs);
    entry.affectedCount = removed;
    entry.outcome = removed == ids.size() ? QStringLiteral("ok") : QStringLiteral("partial");
    auto audit = AuditLog(m_db).append(entry);
    if (!audit)
        return Error::runtime(QStringLiteral("DEAD retention failed: %1").arg(audit.message()));
    if (Status s = tx.commit(); !s)
        return s.error();
    return removed;
}

} // namespace outbox
