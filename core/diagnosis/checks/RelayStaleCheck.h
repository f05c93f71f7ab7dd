#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class Runbook;

class RelayStaleCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::RelayStaleCheck)

public:
    QString id() const override { return QStringLiteral("relay-stale"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
    // Its runbook page: causes and steps the findings take by key, docs/runbooks/relay-stale.md.
    Runbook runbook() const override;
};

} // namespace outbox
