#pragma once

#include "core/diagnosis/DiagnosisCheck.h"

namespace outbox {

class Runbook;

// PostgreSQL's wake-up trigger switched off (outboxctl notify off): relays poll, so commit -> ack
// takes milliseconds more under load and up to relay.poll_ms after an idle spell. Information when
// the audit log says who switched it off and why; a warning when nothing recorded it.
class NotifyOffCheck final : public DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::NotifyOffCheck)

public:
    QString id() const override { return QStringLiteral("notify-off"); }
    Result<QVector<Finding>> run(DiagnosisContext& context) override;
    // Its runbook page: causes and steps the findings take by key, docs/runbooks/notify-off.md.
    Runbook runbook() const override;
};

} // namespace outbox
