#include "core/db/RelayStore.h"

#include "core/db/Database.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>

namespace outbox {

Result<QVector<RelayRecord>> RelayStore::list()
{
    const Dialect& d = m_db.dialect();
    auto q =
        m_db.exec(QStringLiteral(
                      "SELECT worker_id, host, pid, version, started_at, heartbeat_at, desired_state, state, "
                      "claimed_total, sent_total, failed_total, fenced_total, leases_held, last_error, %1, "
                      "lease_expired_total, latency_sum_ms, latency_count, latency_buckets, broker_kind, "
                      "broker_address, wakeup FROM {relays} ORDER BY worker_id")
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
        r.leaseExpiredTotal = q->value(15).toLongLong();
        r.latencySumMs = q->value(16).toLongLong();
        r.latencyCount = q->value(17).toLongLong();
        for (const QJsonValue& v : QJsonDocument::fromJson(q->value(18).toString().toUtf8()).array())
            r.latencyBuckets << v.toInteger();
        r.brokerKind = q->value(19).toString();
        r.brokerAddress = q->value(20).toString();
        r.wakeup = q->value(21).toString();
        relays << r;
    }
    return relays;
}

} // namespace outbox

namespace outbox {

Result<QString> RelayStore::heartbeat(const RelayRecord& r)
{
    const Dialect& d = m_db.dialect();
    QVariantMap binds{{QStringLiteral(":worker"), r.workerId},
                      {QStringLiteral(":state"), r.state},
                      {QStringLiteral(":claimed"), r.claimedTotal},
                      {QStringLiteral(":sent"), r.sentTotal},
                      {QStringLiteral(":failed"), r.failedTotal},
                      {QStringLiteral(":fenced"), r.fencedTotal},
                      {QStringLiteral(":leases"), r.leasesHeld},
                      {QStringLiteral(":expired"), r.leaseExpiredTotal},
                      {QStringLiteral(":lat_sum"), r.latencySumMs},
                      {QStringLiteral(":lat_count"), r.latencyCount},
                      {QStringLiteral(":lat_buckets"),
                       [&] {
                           QJsonArray a;
                           for (qint64 b : r.latencyBuckets)
                               a.append(b);
                           return QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact));
                       }()},
                      {QStringLiteral(":broker_kind"), r.brokerKind.left(16)},
                      {QStringLiteral(":broker_address"), r.brokerAddress.left(500)},
                      {QStringLiteral(":wakeup"), r.wakeup.left(16)},
                      {QStringLiteral(":error"), r.lastError.isEmpty()
                                                     ? QVariant(QMetaType::fromType<QString>())
                                                     : QVariant(r.lastError.left(2000))}};
    auto updated = m_db.exec(
        QStringLiteral(
            "UPDATE {relays} SET heartbeat_at = %1, state = :state, claimed_total = :claimed, "
            "sent_total = :sent, failed_total = :failed, fenced_total = :fenced, "
            "leases_held = :leases, last_error = :error, lease_expired_total = :expired, "
            "latency_sum_ms = :lat_sum, latency_count = :lat_count, latency_buckets = :lat_buckets, "
            "broker_kind = :broker_kind, broker_address = :broker_address, wakeup = :wakeup WHERE worker_id "
            "= "
            ":worker")
            .arg(d.now()),
        binds);
    if (!updated)
        return updated.error();
    if (updated->numRowsAffected() == 0) {
        binds.insert(QStringLiteral(":host"), r.host);
        binds.insert(QStringLiteral(":pid"), r.pid);
        binds.insert(QStringLiteral(":version"), r.version);
        auto inserted = m_db.exec(
            QStringLiteral(
                "INSERT INTO {relays} (worker_id, host, pid, version, started_at, heartbeat_at, "
                "desired_state, state, claimed_total, sent_total, failed_total, fenced_total, "
                "leases_held, last_error, lease_expired_total, latency_sum_ms, latency_count, "
                "latency_buckets, broker_kind, broker_address, wakeup) VALUES (:worker, :host, :pid, "
                ":version, %1, %1, 'RUN', :state, :claimed, :sent, :failed, :fenced, :leases, :error, "
                ":expired, :lat_sum, :lat_count, :lat_buckets, :broker_kind, :broker_address, :wakeup)")
                .arg(d.now()),
            binds);
        if (!inserted)
            return inserted.error();
    }
    auto desired = m_db.scalar(QStringLiteral("SELECT desired_state FROM {relays} WHERE worker_id = :worker"),
                               {{QStringLiteral(":worker"), r.workerId}});
    if (!desired)
        return desired.error();
    return desired->toString();
}

Status RelayStore::remove(const QString& workerId)
{
    auto q = m_db.exec(QStringLiteral("DELETE FROM {relays} WHERE worker_id = :worker"),
                       {{QStringLiteral(":worker"), workerId}});
    if (!q)
        return q.error();
    return {};
}

} // namespace outbox
