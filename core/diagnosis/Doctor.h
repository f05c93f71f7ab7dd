#pragma once

#include "core/diagnosis/DiagnosisOptions.h"
#include "core/diagnosis/DiagnosisReport.h"
#include "core/support/Result.h"

#include <QStringList>
#include <memory>
#include <vector>

namespace outbox {

class DiagnosisCheck;

class Database;

// Runs the diagnosis checks against one database and collects their findings, worst first, with
// the time each check took. The same report feeds `outboxctl doctor`, the console's Recovery page,
// the web API (/api/v1/findings), the dashboard and /metrics (outbox_findings).
class Doctor
{
public:
    Doctor(Database& db, DiagnosisOptions options = {});

    // Every check id, in the order the checks run (a contract: alert rules match on these).
    static QStringList checkIds();
    // Every check, in the order the doctor runs them (and the runbook index lists them).
    static std::vector<std::unique_ptr<DiagnosisCheck>> allChecks();

    // Fails only when the database cannot be asked anything at all; a check that fails is reported
    // in the report's checks (outcome "failed") and the others still run.
    Result<DiagnosisReport> run();

private:
    Database& m_db;
    DiagnosisOptions m_options;
};

} // namespace outbox
