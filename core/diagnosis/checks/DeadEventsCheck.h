#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class Runbook;

class DeadEventsCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::DeadEventsCheck)

public:
    QString id() const override { return QStringLiteral("dead-events"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
    // Its runbook page: causes and steps the findings take by key, docs/runbooks/dead-events.md.
    Runbook runbook() const override;
};

} // namespace outbox
