#pragma once

#include "core/diagnosis/EventErrorGroups.h"
#include "core/diagnosis/Finding.h"

#include <QCoreApplication>

namespace outbox {

class DiagnosisContext;

// Turns a failure group of FAILED or DEAD events into a finding: the evidence, the cause-specific
// causes and runbook (FailureAdvice), and the prepared requeue / mark-DEAD actions on exactly that
// group, with their outboxctl command lines.
class FailureGroupFinding
{
    Q_DECLARE_TR_FUNCTIONS(outbox::FailureGroupFinding)

public:
    static Finding make(DiagnosisContext& context, const QString& checkId, const QString& status,
                        const EventErrorGroup& group, Severity severity);
    // The requeue or mark-DEAD action on one group of events in `status`.
    static PreparedAction action(DiagnosisContext& context, PreparedAction::Operation operation,
                                 const QString& status, const EventErrorGroup& group);
};

} // namespace outbox
