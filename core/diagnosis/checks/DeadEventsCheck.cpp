#include "core/diagnosis/checks/DeadEventsCheck.h"

#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/FailureGroupFinding.h"

namespace outbox {

Result<QVector<Finding>> DeadEventsCheck::run(DiagnosisContext& context)
{
    auto groups = EventErrorGroups::scan(context, QStringLiteral("DEAD"));
    if (!groups)
        return groups.error();
    QVector<Finding> findings;
    for (const EventErrorGroup& g : *groups) {
        // DEAD is where events end when given up on; the newest of a group tells whether that is news.
        const bool recent = context.ageMs(g.newest) < context.options().deadRecentMs;
        Finding f = FailureGroupFinding::make(context, id(), QStringLiteral("DEAD"), g,
                                              recent ? Severity::Warning : Severity::Info);
        f.evidence.details.insert(QStringLiteral("recent_within_ms"), context.options().deadRecentMs);
        findings << f;
    }
    return findings;
}

} // namespace outbox
