#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class Runbook;

class BacklogAgeCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::BacklogAgeCheck)

public:
    QString id() const override { return QStringLiteral("backlog-age"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
    // Its runbook page: causes and steps the findings take by key, docs/runbooks/backlog-age.md.
    Runbook runbook() const override;
};

} // namespace outbox
