#include "core/db/RelayStore.h"

#include "core/db/Database.h"

#include <QSqlQuery>

namespace outbox {

Result<QVector<RelayRecord>> RelayStore::list()
{
    const Dialect& d = m_db.dialect();
    auto q = m_db.exec(QStringLiteral("SELECT worker_id, host, pid, version, started_at, heartbeat_at, desired_state, state, "
                                      "claimed_total, sent_total, failed_total, fenced_total, leases_held, last_error, %1 "
                                      "FROM {relays} ORDER BY worker_id")
                           .arg(d.now()));
    if (!q)
        return q.error();
    QVector<RelayRecord> relays;
    while (q->next()) {
        RelayRecord r;
        r.workerId = q->value(0).toString();
        r.host = q->value(1).toString();
        r.pid = q->value(2).toLongLong();
        r.version = q->value(3).toString();
        r.startedAt = d.toDateTime(q->value(4));
        r.heartbeatAt = d.toDateTime(q->value(5));
        r.desiredState = q->value(6).toString();
        r.state = q->value(7).toString();
        r.claimedTotal = q->value(8).toLongLong();
        r.sentTotal = q->value(9).toLongLong();
        r.failedTotal = q->value(10).toLongLong();
        r.fencedTotal = q->value(11).toLongLong();
        r.leasesHeld = q->value(12).toInt();
        r.lastError = q->value(13).toString();
        r.heartbeatAgeMs = std::max<qint64>(0, r.heartbeatAt.msecsTo(d.toDateTime(q->value(14))));
        relays << r;
    }
    return relays;
}

} // namespace outbox
