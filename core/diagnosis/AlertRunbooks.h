#pragma once

#include "core/diagnosis/Runbook.h"

namespace outbox {

// The runbook pages of alerts about the doctor itself (their lines marked with QT_TRANSLATE_NOOP in
// full, context "outbox::Runbook", as every check's: lupdate expands no macro of ours), not findings of a
// check (Runbook::finding false): each one small function of data, as a check's own page is beside its check.
class AlertRunbooks
{
public:
    static Runbook doctorFailing();       // docs/runbooks/doctor-failing.md
    static Runbook metricsMissing();      // docs/runbooks/metrics-missing.md
    static Runbook databaseUnreachable(); // docs/runbooks/database-unreachable.md
};

} // namespace outbox
