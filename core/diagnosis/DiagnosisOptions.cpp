#include "core/diagnosis/DiagnosisOptions.h"

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

} // namespace outbox
