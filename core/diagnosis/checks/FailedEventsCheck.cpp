#include "core/diagnosis/checks/FailedEventsCheck.h"

#include "core/diagnosis/FailureGroupFinding.h"

namespace outbox {

Result<QVector<Finding>> FailedEventsCheck::run(DiagnosisContext& context)
{
    auto groups = EventErrorGroups::scan(context, QStringLiteral("FAILED"));
    if (!groups)
        return groups.error();
    QVector<Finding> findings;
    for (const EventErrorGroup& g : *groups)
        findings << FailureGroupFinding::make(context, id(), QStringLiteral("FAILED"), g, Severity::Critical);
    return findings;
}

} // namespace outbox
