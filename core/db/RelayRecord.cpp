#include "core/db/RelayRecord.h"

namespace outbox {

QJsonObject RelayRecord::toJson() const
{
    QJsonObject o;
    o[QStringLiteral("worker_id")] = workerId;
    o[QStringLiteral("host")] = host;
    o[QStringLiteral("pid")] = pid;
    o[QStringLiteral("version")] = version;
    o[QStringLiteral("started_at")] = startedAt.toString(Qt::ISODateWithMs);
    o[QStringLiteral("heartbeat_at")] = heartbeatAt.toString(Qt::ISODateWithMs);
    o[QStringLiteral("heartbeat_age_ms")] = heartbeatAgeMs;
    o[QStringLiteral("desired_state")] = desiredState;
    o[QStringLiteral("state")] = state;
    o[QStringLiteral("claimed_total")] = claimedTotal;
    o[QStringLiteral("sent_total")] = sentTotal;
    o[QStringLiteral("failed_total")] = failedTotal;
    o[QStringLiteral("fenced_total")] = fencedTotal;
    o[QStringLiteral("leases_held")] = leasesHeld;
    o[QStringLiteral("last_error")] = lastError.isNull() ? QJsonValue() : QJsonValue(lastError);
    o[QStringLiteral("lease_expired_total")] = leaseExpiredTotal;
    o[QStringLiteral("latency_count")] = latencyCount;
    o[QStringLiteral("latency_sum_ms")] = latencySumMs;
    o[QStringLiteral("wakeup")] = wakeup.isEmpty() ? QJsonValue() : QJsonValue(wakeup);
    o[QStringLiteral("broker_kind")] = brokerKind.isEmpty() ? QJsonValue() : QJsonValue(brokerKind);
    o[QStringLiteral("broker_address")] = brokerAddress.isEmpty() ? QJsonValue() : QJsonValue(brokerAddress);
    return o;
}

} // namespace outbox
