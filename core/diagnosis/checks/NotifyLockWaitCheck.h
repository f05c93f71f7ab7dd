#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class Runbook;

// PostgreSQL's wake-up trigger switched on (`outboxctl notify on`, the opt-in since migration 19)
// while writers' commits queue for the lock every notifying commit takes: the cost the outbox puts
// into the services' own transactions (issue 42). Samples the lock's waiters for about half a
// second; a warning with the prepared, audited switch back to the default (notify off).
class NotifyLockWaitCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::NotifyLockWaitCheck)

public:
    static constexpr int Samples = 20;
    static constexpr int SampleSpacingMs = 25;

    QString id() const override { return QStringLiteral("notify-lock-wait"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
    // Its runbook page: causes and steps the findings take by key, docs/runbooks/notify-lock-wait.md.
    Runbook runbook() const override;
};

} // namespace outbox
