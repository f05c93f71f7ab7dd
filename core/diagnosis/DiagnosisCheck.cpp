#include "core/diagnosis/DiagnosisCheck.h"

#include "core/db/BlockedAggregates.h"
#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/MemberBroker.h"

namespace outbox {

QString DiagnosisCheck::notApplicable(DiagnosisContext&) const
{
    return {};
}

Result<MemberBroker::Choice> DiagnosisCheck::relayBroker(DiagnosisContext& context)
{
    const DiagnosisOptions& o = context.options();
    if (!o.brokerArguments.isEmpty())
        return MemberBroker::choose(o.brokerArguments, {}, o.brokerUnknown);
    auto relays = context.relays();
    if (!relays)
        return relays.error();
    return MemberBroker::choose({}, *relays, o.brokerUnknown);
}

PreparedAction DiagnosisCheck::eventsAction(DiagnosisContext& context, PreparedAction::Operation operation,
                                            const QVector<qint64>& ids, EventsFlag flag, const QString& label,
                                            const QString& consequence)
{
    Q_ASSERT(operation == PreparedAction::Operation::RequeueEvents ||
             operation == PreparedAction::Operation::MarkEventsDead);
    PreparedAction action;
    action.operation = operation;
    action.resend = flag == EventsFlag::Resend;
    action.force = flag == EventsFlag::Force;
    action.ids = ids;
    action.typedConfirmation = true;
    action.label = label;
    action.consequence = consequence;
    CommandLine command(QStringLiteral("outboxctl"),
                        {operation == PreparedAction::Operation::RequeueEvents ? QStringLiteral("requeue")
                                                                               : QStringLiteral("dead")});
    if (action.resend)
        command.flag(QStringLiteral("resend"));
    if (action.force)
        command.flag(QStringLiteral("force"));
    for (qint64 eventId : ids)
        command.positional(QString::number(eventId));
    context.prepareCommand(action, command);
    return action;
}

Result<PreparedAction> DiagnosisCheck::startRelayAction(DiagnosisContext& context)
{
    const DiagnosisOptions& o = context.options();
    bool aggregateOrdering = o.aggregateOrdering;
    if (!aggregateOrdering) {
        // A relay without aggregate ordering would send an aggregate's later events past its FAILED
        // one: while any aggregate is blocked, the relay must keep the order.
        BlockedAggregatesQuery query;
        query.limit = 1;
        query.countWaitingFor = 0;
        auto blocked = BlockedAggregates(context.db()).list(query);
        if (!blocked)
            return blocked.error();
        aggregateOrdering = blocked->total > 0;
    }
    auto broker = relayBroker(context);
    if (!broker)
        return broker.error();
    PreparedAction start;
    start.operation = PreparedAction::Operation::RunCommand;
    start.startsRelay = true;
    start.brokerKnown = !broker->arguments.isEmpty();
    start.relayArguments = broker->arguments;
    if (aggregateOrdering)
        start.relayArguments << QStringLiteral("--ordering=aggregate");
    start.label = tr("Start a relay on this database");
    start.consequence =
        aggregateOrdering
            ? tr("A relay claims the PENDING events in id order and sends them to the broker; an "
                 "aggregate blocked by a FAILED event keeps waiting (--ordering=aggregate).")
            : tr("A relay claims the PENDING events in id order and sends them to the broker.");
    if (!start.brokerKnown) {
        // No placeholder that runs: an address pasted wrong overrides nothing, it is simply missing.
        start.commandLine = CommandLine(QStringLiteral("outboxctl"), {QStringLiteral("relay")})
                                .options(start.relayArguments)
                                .options(o.connectionArguments);
        start.commandRefused = broker->refused;
        return start;
    }
    context.prepareCommand(
        start,
        CommandLine(QStringLiteral("outboxctl"), {QStringLiteral("relay")}).options(start.relayArguments));
    return start;
}

} // namespace outbox
