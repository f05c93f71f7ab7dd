#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class Runbook;

class UnconsumedCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::UnconsumedCheck)

public:
    QString id() const override { return QStringLiteral("unconsumed"); }
    QString notApplicable(DiagnosisContext& context) const override;
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
    // Its runbook page: causes and steps the findings take by key, docs/runbooks/unconsumed.md.
    Runbook runbook() const override;
};

} // namespace outbox
