#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class Runbook;

class DeadLettersCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::DeadLettersCheck)

public:
    QString id() const override { return QStringLiteral("dead-letters"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
    // Its runbook page: causes and steps the findings take by key, docs/runbooks/dead-letters.md.
    Runbook runbook() const override;
};

} // namespace outbox
