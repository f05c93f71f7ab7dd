#include "core/diagnosis/checks/FailedEventsCheck.h"

#include "core/diagnosis/FailureAdvice.h"
#include "core/diagnosis/FailureGroupFinding.h"
#include "core/diagnosis/Runbook.h"

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

// Its page of docs/runbooks/ and the lines its findings take (core/diagnosis/Runbook.h).
Runbook FailedEventsCheck::runbook() const
{
    Runbook r = Runbook::page(
        "failed-events", "Events FAILED and need an operator", "critical",
        "One finding per failure group (error class and fingerprint) of FAILED events. A FAILED event is "
        "never retried on its own: the broker refused it for a reason that retrying cannot change, or "
        "(ordering mode) its attempts ran out. The doctor picks the causes and steps below by the "
        "group's error and prepares a requeue and a mark-DEAD of the group.");
    r.extraMarkdown = FailureAdvice::runbookMarkdown(false);
    return r;
}

} // namespace outbox
