#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class Runbook;

class NoRelayCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::NoRelayCheck)

public:
    QString id() const override { return QStringLiteral("no-relay"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
    // Its runbook page: causes and steps the findings take by key, docs/runbooks/no-relay.md.
    Runbook runbook() const override;
};

} // namespace outbox
