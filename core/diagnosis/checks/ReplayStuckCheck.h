#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class Runbook;

class ReplayStuckCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::ReplayStuckCheck)

public:
    QString id() const override { return QStringLiteral("replay-stuck"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
    // Its runbook page: causes and steps the findings take by key, docs/runbooks/replay-stuck.md.
    Runbook runbook() const override;
};

} // namespace outbox
