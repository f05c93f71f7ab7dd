#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class Runbook;

class RelayDegradedCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::RelayDegradedCheck)

public:
    QString id() const override { return QStringLiteral("relay-degraded"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
    // Its runbook page: causes and steps the findings take by key, docs/runbooks/relay-degraded.md.
    Runbook runbook() const override;
};

} // namespace outbox
