#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class Runbook;

// Journal rows of held claims (relay.claim_mode = held) past their hold time: batches whose relay
// died or was cut off before they committed, and that no held relay has reaped.
class HeldClaimsCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::HeldClaimsCheck)

public:
    QString id() const override { return QStringLiteral("held-claims"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
    // Its runbook page: causes and steps the findings take by key, docs/runbooks/held-claims.md.
    Runbook runbook() const override;
};

} // namespace outbox
