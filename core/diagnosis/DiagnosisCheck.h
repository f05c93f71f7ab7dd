#pragma once

#include "core/diagnosis/Finding.h"
#include "core/support/Result.h"

#include <QCoreApplication>
#include <QVector>

namespace outbox {

class DiagnosisContext;

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

protected:
    // "Start a relay on this database" with the broker the configuration names and the ordering the
    // events need (aggregate while an aggregate is blocked by a FAILED event). Without a configured
    // broker there is no command: commandRefused says what the operator must add.
    static Result<PreparedAction> startRelayAction(DiagnosisContext& context);

    // The broker a relay (or a delivering replay) started from a prepared command must publish to,
    // as argv words (--broker=…, never a password): the configured one (options().brokerArguments),
    // else the Kafka bootstrap this database's most recently alive relay registered. Empty, with
    // `refused` saying what is missing, when neither tells: a command naming another database's
    // broker would publish this database's events there and mark them SENT (issue 36 H1).
    struct RelayBroker
    {
        QStringList arguments;
        QString refused;
    };
    static Result<RelayBroker> relayBroker(DiagnosisContext& context);
};

} // namespace outbox
