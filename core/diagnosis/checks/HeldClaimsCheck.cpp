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

// Its page of docs/runbooks/ and the lines its findings take (core/diagnosis/Runbook.h).
Runbook HeldClaimsCheck::runbook() const
{
    Runbook r = Runbook::page(
        "held-claims", "Held batches outlived their relay and are not reaped", "warning",
        "PostgreSQL with `relay.claim_mode = held`: journal rows of held batches are past their hold time "
        "for longer than `[doctor] expired_lease_grace`. Their relay died and no held relay reaps the "
        "journal, so the attempts of those batches are not counted.");
    r.causes = {
        {"holder-died",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The relay that held them died or was cut off while sending, and no relay runs with "
             "claim_mode = held: only held relays reap this journal.")},
        {"reaper-fails",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The held relays' reaper fails (read their logs for \"reaping held claims "
                           "failed\", e.g. missing privileges on outbox_held_claims after an upgrade).")},
    };
    r.steps = {
        {"nothing-lost",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Nothing is lost or stuck: the events went back to PENDING when their holder's "
             "connection closed, and relays send them again (consumers ignore the duplicate).")},
        {"attempts",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "What is missing is the attempt each of those batches began: until it is counted, an "
             "event that crashes every relay cannot reach its attempt limit and become DEAD.")},
        {"run-held",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Run at least one relay with --claim-mode held (or relay.claim_mode = held): it counts "
             "the attempts and removes the rows within a lease.")},
        {"grants", QT_TRANSLATE_NOOP(
                       "outbox::Runbook",
                       "A runtime role granted before migration 11 needs the grants printed by `outboxctl "
                       "migrate --print-grants` again.")},
    };
    return r;
}

} // namespace outbox
