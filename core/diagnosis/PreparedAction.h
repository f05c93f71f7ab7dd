#pragma once

#include "core/ops/ActionTarget.h"
#include "core/support/CommandLine.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>
#include <optional>

namespace outbox {

// What an operator can do about a finding, prepared to the last detail: the operation, its exact
// target, whether it needs a typed confirmation, and the same thing as an `outboxctl` command
// line. Front ends preview it (a dry run), ask for a reason and run it through core/ops.
struct PreparedAction : ActionTarget
{
    enum class Operation {
        RequeueEvents,      // events.requeue
        MarkEventsDead,     // events.dead
        ReplayDeadLetters,  // dlq.replay
        DiscardDeadLetters, // dlq.discard
        ResumeRelays,       // relay.resume
        DrainRelays,        // relay.drain
        ForgetRelays,       // relay.forget: deletes the registration of relays that are gone
        SwitchNotifyOff,    // notify.off: the wake-up trigger off (NotifyTrigger; the table's owner only)
        RunCommand,         // outside the audited operations: the command line is the action
    };

    Operation operation = Operation::RunCommand;
    QString label;       // e.g. "Requeue the 12 FAILED events of this group"
    QString consequence; // one sentence: what happens to the targets
    // The target (ActionTarget), exactly one of: a failure group (the bulk engine's group: error
    // class and fingerprint, any unsent or DEAD status), a filter, ids or relays.
    bool force = false;
    bool resend = false;
    bool typedConfirmation = false; // bulk or irreversible: the operator types the confirmation
    // The equivalent outboxctl command line, rendered from commandLine; Doctor adds the finding's
    // reason (--reason='<finding id>: <label>') to an audited one so that it runs as printed.
    QString command;
    CommandLine commandLine{QStringLiteral("outboxctl")};
    // Why there is no command line: a database-derived word could not be printed safely (the
    // action itself, run from a front end, is not affected).
    QString commandRefused;
    // Starting a relay (a RunCommand): `outboxctl relay`'s options besides the connection (the
    // broker, the ordering), for front ends that start a relay themselves (the desktop's managed
    // relay). Without brokerKnown the broker's address is still to be given (there is no command).
    bool startsRelay = false;
    bool brokerKnown = false;
    QStringList relayArguments;

    // "events.requeue", "events.dead", "dlq.replay", "dlq.discard", "relay.resume", "relay.drain",
    // "relay.forget", "notify.off", "command": the audit log's action names.
    QString operationName() const;
    // "failure-group", "filter", "ids", "relays" or "none".
    QString targetKind() const { return kindName(); }
    bool isAudited() const { return operation != Operation::RunCommand; }
    QJsonObject toJson() const;
    // The command with more options (`--reason=…`) where options go, before `--` and the
    // positionals; empty when there is no safe command.
    QString commandWith(const QStringList& options) const;
};

} // namespace outbox
