#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class Runbook;

class FailedEventsCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::FailedEventsCheck)

public:
    QString id() const override { return QStringLiteral("failed-events"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
    // Its runbook page: causes and steps the findings take by key, docs/runbooks/failed-events.md.
    Runbook runbook() const override;
};

} // namespace outbox
