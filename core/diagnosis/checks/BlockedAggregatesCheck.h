#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class Runbook;

class BlockedAggregatesCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::BlockedAggregatesCheck)

public:
    QString id() const override { return QStringLiteral("blocked-aggregates"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
    // Its runbook page: causes and steps the findings take by key, docs/runbooks/blocked-aggregates.md.
    Runbook runbook() const override;
};

} // namespace outbox
