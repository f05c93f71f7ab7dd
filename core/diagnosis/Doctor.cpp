#include "core/diagnosis/Doctor.h"

#include "core/db/Database.h"
#include "core/db/Migrator.h"
#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/checks/BacklogAgeCheck.h"
#include "core/diagnosis/checks/BlockedAggregatesCheck.h"
#include "core/diagnosis/checks/ContractCheck.h"
#include "core/diagnosis/checks/DeadEventsCheck.h"
#include "core/diagnosis/checks/DeadLettersCheck.h"
#include "core/diagnosis/checks/ExpiredLeasesCheck.h"
#include "core/diagnosis/checks/FailedEventsCheck.h"
#include "core/diagnosis/checks/HeldClaimsCheck.h"
#include "core/diagnosis/checks/NoRelayCheck.h"
#include "core/diagnosis/checks/NotifyLockWaitCheck.h"
#include "core/diagnosis/checks/RelayDegradedCheck.h"
#include "core/diagnosis/checks/RelayStaleCheck.h"
#include "core/diagnosis/checks/ReplayStuckCheck.h"
#include "core/diagnosis/checks/SchemaOutdatedCheck.h"
#include "core/diagnosis/checks/TableHealthCheck.h"
#include "core/diagnosis/checks/UnconsumedCheck.h"

#include <QElapsedTimer>
#include <algorithm>
#include <memory>
#include <vector>

namespace outbox {

std::vector<std::unique_ptr<DiagnosisCheck>> Doctor::allChecks()
{
    std::vector<std::unique_ptr<DiagnosisCheck>> checks;
    checks.push_back(std::make_unique<NoRelayCheck>());
    checks.push_back(std::make_unique<RelayStaleCheck>());
    checks.push_back(std::make_unique<RelayDegradedCheck>());
    checks.push_back(std::make_unique<BacklogAgeCheck>());
    checks.push_back(std::make_unique<ExpiredLeasesCheck>());
    checks.push_back(std::make_unique<HeldClaimsCheck>());
    checks.push_back(std::make_unique<FailedEventsCheck>());
    checks.push_back(std::make_unique<DeadEventsCheck>());
    checks.push_back(std::make_unique<BlockedAggregatesCheck>());
    checks.push_back(std::make_unique<DeadLettersCheck>());
    checks.push_back(std::make_unique<ReplayStuckCheck>());
    checks.push_back(std::make_unique<UnconsumedCheck>());
    checks.push_back(std::make_unique<ContractCheck>());
    checks.push_back(std::make_unique<TableHealthCheck>());
    checks.push_back(std::make_unique<NotifyLockWaitCheck>());
    checks.push_back(std::make_unique<SchemaOutdatedCheck>());
    return checks;
}

Doctor::Doctor(Database& db, DiagnosisOptions options) : m_db(db), m_options(std::move(options)) {}

QStringList Doctor::checkIds()
{
    QStringList ids;
    for (const auto& check : allChecks())
        ids << check->id();
    return ids;
}

Result<DiagnosisReport> Doctor::run()
{
    if (Status s = m_options.validate(); !s)
        return s.error();
    const QStringList known = checkIds();
    for (const QString& only : m_options.onlyChecks)
        if (!known.contains(only))
            return Error::usage(QStringLiteral("unknown check \"%1\" (known: %2)")
                                    .arg(only, known.join(QStringLiteral(", "))));
    QElapsedTimer total;
    total.start();
    DiagnosisReport report;
    report.database = m_db.url().redacted();
    auto now = m_db.scalar(QStringLiteral("SELECT %1").arg(m_db.dialect().now()));
    if (!now)
        return now.error();
    report.takenAt = m_db.dialect().toDateTime(*now);
    auto version = Migrator(m_db).currentVersion();
    if (!version)
        return version.error();
    const bool noSchema = *version == 0;

    DiagnosisContext context(m_db, m_options, report.takenAt);
    const QString schemaCheck = SchemaOutdatedCheck().id();
    for (const auto& check : allChecks()) {
        if (!m_options.onlyChecks.isEmpty() && !m_options.onlyChecks.contains(check->id()))
            continue;
        CheckRun run;
        run.id = check->id();
        QElapsedTimer timer;
        timer.start();
        const QString skip = noSchema && check->id() != schemaCheck
                                 ? QStringLiteral("the database has no outbox schema")
                                 : check->notApplicable(context);
        if (!skip.isEmpty()) {
            run.outcome = CheckRun::Outcome::Skipped;
            run.note = skip;
        } else {
            auto findings = check->run(context);
            if (findings) {
                run.findings = int(findings->size());
                report.findings << *findings;
            } else {
                run.outcome = CheckRun::Outcome::Failed;
                run.note = findings.message();
            }
        }
        run.elapsedMs = double(timer.nsecsElapsed()) / 1e6;
        report.checks << run;
    }
    // Advice is code: an audited command refuses to run without a reason, so the printed one
    // carries the finding's (the operator may change it); pasted as printed it runs, asking for
    // the confirmation on a terminal (or add --yes).
    for (Finding& f : report.findings)
        for (PreparedAction& a : f.actions)
            if (a.isAudited() && !a.command.isEmpty())
                a.command =
                    a.commandWith({QStringLiteral("--reason=") + f.id + QStringLiteral(": ") + a.label});
    // Worst first; within a severity, in check order (the order findings were added).
    std::stable_sort(report.findings.begin(), report.findings.end(),
                     [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
    report.elapsedMs = double(total.nsecsElapsed()) / 1e6;
    return report;
}

} // namespace outbox
