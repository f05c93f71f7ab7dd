#include "core/diagnosis/checks/HeldClaimsCheck.h"

#include "core/db/HeldClaim.h"
#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/Runbook.h"

namespace outbox {

Result<QVector<Finding>> HeldClaimsCheck::run(DiagnosisContext& context)
{
    const Runbook& rb = Runbook::of(id());
    const qint64 grace = context.options().expiredLeaseGraceMs;
    auto overdue = HeldClaim::overdue(context.db(), grace, Finding::MaxSamples);
    if (!overdue)
        return overdue.error();
    if (overdue->batches == 0)
        return QVector<Finding>{};
    Finding f;
    f.id = id();
    f.key = id();
    f.severity = Severity::Warning;
    f.evidence.count = overdue->batches;
    f.evidence.unit = QStringLiteral("batches");
    f.evidence.oldest = overdue->oldest;
    f.evidence.newest = overdue->newest;
    f.evidence.sampleKind = QStringLiteral("relay");
    f.evidence.sampleNames = overdue->workers;
    f.evidence.details.insert(QStringLiteral("events"), overdue->events);
    f.evidence.details.insert(QStringLiteral("grace_ms"), grace);
    f.title = tr("%1 held batch(es) of %2 event(s) outlived their relay %3 ago and are not reaped")
                  .arg(overdue->batches)
                  .arg(overdue->events)
                  .arg(DiagnosisContext::duration(context.ageMs(overdue->oldest)));
    f.causes << rb.cause("holder-died") << rb.cause("reaper-fails");
    f.runbook << rb.step("nothing-lost") << rb.step("attempts") << rb.step("run-held") << rb.step("grants");
    return QVector<Finding>{f};
}

} // namespace outbox
