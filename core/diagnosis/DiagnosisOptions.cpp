#include "core/diagnosis/DiagnosisOptions.h"

#include "core/broker/BrokerRegistry.h"
#include "core/config/Config.h"
#include "core/diagnosis/MemberBroker.h"

#include <algorithm>

namespace outbox {

Status DiagnosisOptions::validate() const
{
    if (backlogAgeWarningMs <= 0 || backlogAgeCriticalMs < backlogAgeWarningMs)
        return Error::usage(
            QStringLiteral("[doctor] backlog_age must be positive and at most backlog_age_critical"));
    if (heartbeatIntervalMs <= 0 || staleHeartbeats <= 0)
        return Error::usage(QStringLiteral("the relays' heartbeat interval must be positive"));
    if (replayStuckAfterMs <= 0 || unconsumedOlderThanMs <= 0 || unconsumedWindowMs <= 0)
        return Error::usage(QStringLiteral(
            "[doctor] replay_stuck, unconsumed_older_than and unconsumed_window must be positive"));
    if (deadTupleRatio <= 0 || deadTupleRatio >= 1)
        return Error::usage(QStringLiteral("[doctor] dead_tuple_percent must be between 1 and 99"));
    if (maxFindingsPerCheck <= 0 || maxDistinctErrors <= 0)
        return Error::usage(QStringLiteral("the finding limits must be positive"));
    return {};
}

DiagnosisOptions DiagnosisOptions::fromConfig(const config::Config& config)
{
    DiagnosisOptions d;
    d.backlogAgeWarningMs = config.durationMs(QStringLiteral("doctor.backlog_age"));
    d.backlogAgeCriticalMs = config.durationMs(QStringLiteral("doctor.backlog_age_critical"));
    if (!config.isSet(
            QStringLiteral("doctor.backlog_age_critical"))) // a raised warning moves the default along
        d.backlogAgeCriticalMs = std::max(d.backlogAgeCriticalMs, d.backlogAgeWarningMs);
    d.staleHeartbeats = int(config.integer(QStringLiteral("doctor.relay_stale_heartbeats")));
    d.expiredLeaseGraceMs = config.durationMs(QStringLiteral("doctor.expired_lease_grace"));
    d.blockedAfterMs = config.durationMs(QStringLiteral("doctor.blocked_after"));
    d.deadRecentMs = config.durationMs(QStringLiteral("doctor.dead_recent"));
    d.replayStuckAfterMs = config.durationMs(QStringLiteral("doctor.replay_stuck"));
    d.consumers = config.list(QStringLiteral("doctor.consumers"));
    d.unconsumedOlderThanMs = config.durationMs(QStringLiteral("doctor.unconsumed_older_than"));
    d.unconsumedWindowMs = config.durationMs(QStringLiteral("doctor.unconsumed_window"));
    d.deadTupleRatio = double(config.integer(QStringLiteral("doctor.dead_tuple_percent"))) / 100.0;
    d.retentionMs = config.durationMs(QStringLiteral("relay.retention")); // what the relays keep
    d.aggregateOrdering = config.value(QStringLiteral("relay.ordering")) == QLatin1String("aggregate");
    d.brokerArguments = MemberBroker::arguments(BrokerRegistry::configuredUrl(config));
    return d;
}

} // namespace outbox
