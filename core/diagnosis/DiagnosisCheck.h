#pragma once

#include "core/diagnosis/Finding.h"
#include "core/diagnosis/MemberBroker.h"
#include "core/support/Result.h"

#include <QCoreApplication>
#include <QVector>

namespace outbox {

class DiagnosisContext;
class Runbook;

// One check of the doctor. `id()` is a contract (alert rules, scripts and the console match on
// it); a check returns no finding when all is well. Checks read, never write, and keep their
// queries to index ranges and small aggregates so that a whole run stays cheap on a 10M-row table.
class DiagnosisCheck
{
    Q_DECLARE_TR_FUNCTIONS(outbox::DiagnosisCheck)

public:
    virtual ~DiagnosisCheck() = default;
    virtual QString id() const = 0;
    // Empty when the check applies to this database; otherwise why it does not (reported as skipped).
    virtual QString notApplicable(DiagnosisContext& context) const;
    virtual Result<QVector<Finding>> run(DiagnosisContext& context) = 0;
    // Its page of docs/runbooks/ (what it means, the causes and steps its findings take by key),
    // written beside the check as data: a new check is its class, its line in Doctor::allChecks()
    // and its test.
    virtual Runbook runbook() const = 0;

protected:
    // "Start a relay on this database" with the broker the configuration names and the ordering the
    // events need (aggregate while an aggregate is blocked by a FAILED event). Without a configured
    // broker there is no command: commandRefused says what the operator must add.
    static Result<PreparedAction> startRelayAction(DiagnosisContext& context);

    // What the operator can do about events a check found, confirmed by typing: requeue them
    // (`operation` RequeueEvents; with --resend or --force as `flag` says) or mark them DEAD
    // (MarkEventsDead), with `label`, `consequence` and its outboxctl command line.
    enum class EventsFlag { None, Resend, Force };
    static PreparedAction eventsAction(DiagnosisContext& context, PreparedAction::Operation operation,
                                       const QVector<qint64>& ids, EventsFlag flag, const QString& label,
                                       const QString& consequence);

    // The broker a relay (or a delivering replay) started from a prepared command must publish to:
    // MemberBroker::choose() of the configured one (options().brokerArguments) and this database's
    // relay registry rows (read only when nothing is configured).
    static Result<MemberBroker::Choice> relayBroker(DiagnosisContext& context);
};

} // namespace outbox
