#include "core/diagnosis/checks/HeldClaimsCheck.h"

#include "core/db/HeldClaim.h"
#include "core/diagnosis/DiagnosisContext.h"

namespace outbox {

Result<QVector<Finding>> HeldClaimsCheck::run(DiagnosisContext& context)
{
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
    f.causes << tr("The relay that held them died or was cut off while sending, and no relay runs with "
                   "claim_mode = held: only held relays reap this journal.")
             << tr("The held relays' reaper fails (read their logs for \"reaping held claims failed\", "
                   "e.g. missing privileges on outbox_held_claims after an upgrade).");
    f.runbook << tr("Nothing is lost or stuck: the events went back to PENDING when their holder's "
                    "connection closed, and relays send them again (consumers ignore the duplicate).")
              << tr("What is missing is the attempt each of those batches began: until it is counted, an "
                    "event that crashes every relay cannot reach its attempt limit and become DEAD.")
              << tr("Run at least one relay with --claim-mode held (or relay.claim_mode = held): it "
                    "counts the attempts and removes the rows within a lease.")
              << tr("A runtime role granted before migration 11 needs the grants printed by "
                    "`outboxctl migrate --print-grants` again.");
    return QVector<Finding>{f};
}

} // namespace outbox
