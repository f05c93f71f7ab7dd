#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class Runbook;

class ExpiredLeasesCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::ExpiredLeasesCheck)

public:
    QString id() const override { return QStringLiteral("expired-leases"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
    // Its runbook page: causes and steps the findings take by key, docs/runbooks/expired-leases.md.
    Runbook runbook() const override;
};

} // namespace outbox
