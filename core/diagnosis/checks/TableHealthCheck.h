#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class Runbook;

class TableHealthCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::TableHealthCheck)

public:
    QString id() const override { return QStringLiteral("table-health"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
    // Its runbook page: causes and steps the findings take by key, docs/runbooks/table-health.md.
    Runbook runbook() const override;
};

} // namespace outbox
