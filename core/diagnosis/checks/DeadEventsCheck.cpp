#include "core/diagnosis/checks/DeadEventsCheck.h"

#include "core/db/Database.h"
#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/FailureAdvice.h"
#include "core/diagnosis/FailureGroupFinding.h"
#include "core/diagnosis/Runbook.h"

#include <QSqlQuery>

namespace outbox {

Result<QVector<Finding>> DeadEventsCheck::run(DiagnosisContext& context)
{
    const Runbook& rb = Runbook::of(id());
    auto groups = EventErrorGroups::scan(context, QStringLiteral("DEAD"));
    if (!groups)
        return groups.error();
    Database& db = context.db();
    const QString marked =
        db.dialect().jsonArrayContainsInteger(QStringLiteral("target_ids"), QStringLiteral(":id"));
    QVector<Finding> findings;
    for (const EventErrorGroup& g : *groups) {
        // DEAD is where events end when given up on; the newest of a group tells whether that is news,
        // and the audit log whether an operator decided it (then it is a record, not a problem).
        int decided = 0;
        qint64 auditId = 0;
        QString auditReason;
        for (qint64 eventId : g.sampleIds) {
            auto q = db.exec(
                QStringLiteral("SELECT id, reason FROM {audit} WHERE action = 'events.dead' AND %1 ORDER BY "
                               "id DESC LIMIT 1")
                    .arg(marked),
                {{QStringLiteral(":id"), eventId}});
            if (!q)
                return q.error();
            if (!q->next())
                break;
            ++decided;
            if (q->value(0).toLongLong() > auditId) {
                auditId = q->value(0).toLongLong();
                auditReason = q->value(1).toString();
            }
        }
        const bool byOperator = !g.sampleIds.isEmpty() && decided == g.sampleIds.size();
        const bool recent = context.ageMs(g.newest) < context.options().deadRecentMs;
        Finding f = FailureGroupFinding::make(context, id(), QStringLiteral("DEAD"), g,
                                              recent && !byOperator ? Severity::Warning : Severity::Info);
        f.evidence.details.insert(QStringLiteral("recent_within_ms"), context.options().deadRecentMs);
        if (byOperator) {
            f.evidence.details.insert(QStringLiteral("marked_dead_by_operator"), true);
            f.evidence.details.insert(QStringLiteral("audit_id"), auditId);
            f.causes.prepend(rb.cause("operator").arg(auditId).arg(auditReason));
        }
        findings << f;
    }
    return findings;
}

// Its page of docs/runbooks/ and the lines its findings take (core/diagnosis/Runbook.h).
Runbook DeadEventsCheck::runbook() const
{
    Runbook r = Runbook::page(
        "dead-events", "Events went DEAD recently",
        "warning; info when older than `[doctor] dead_recent` or when an operator marked them DEAD",
        "One finding per error group of DEAD events: the relay gave up on them (attempts exhausted or a "
        "deterministic error), or an operator marked them DEAD. The doctor picks the causes and steps "
        "below by the group's error and prepares a requeue of the group.");
    r.causes = {
        {"operator",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "An operator marked them DEAD (audit #%1: \"%2\"); this is a record of that decision."),
         "the audit log shows an operator marked them", "AUDIT ID, REASON"},
    };
    r.extraMarkdown = FailureAdvice::runbookMarkdown(true);
    return r;
}

} // namespace outbox
