#include "core/diagnosis/DiagnosisCheck.h"

#include "core/db/BlockedAggregates.h"
#include "core/diagnosis/DiagnosisContext.h"

namespace outbox {

QString DiagnosisCheck::notApplicable(DiagnosisContext&) const
{
    return {};
}

Result<DiagnosisCheck::RelayBroker> DiagnosisCheck::relayBroker(DiagnosisContext& context)
{
    const DiagnosisOptions& o = context.options();
    RelayBroker broker;
    if (!o.brokerArguments.isEmpty()) {
        broker.arguments = o.brokerArguments;
        return broker;
    }
    auto relays = context.relays();
    if (!relays)
        return relays.error();
    const RelayRecord* latest = nullptr;
    for (const RelayRecord& r : *relays)
        if (!r.brokerKind.isEmpty() && !r.brokerAddress.isEmpty() &&
            (!latest || r.heartbeatAgeMs < latest->heartbeatAgeMs))
            latest = &r;
    const QString what =
        o.brokerUnknown.isEmpty()
            ? tr("set [kafka] bootstrap (or [broker] url) in the configuration, or give the broker's address "
                 "with --kafka-bootstrap when you start outboxctl relay with this database's connection "
                 "options")
            : o.brokerUnknown;
    if (latest && latest->brokerKind == QLatin1String("kafka")) {
        broker.arguments = QStringList{QStringLiteral("--broker=kafka://") + latest->brokerAddress};
        return broker;
    }
    if (latest)
        // A RabbitMQ row records where (host, port, vhost), not the user to log in as: a URL made from
        // it would log in as someone else.
        broker.refused = tr("this database's relays publish to %1, but the relay registry does not record "
                            "the user they log in as: %2")
                             .arg(latest->brokerText(), what);
    else
        broker.refused = tr("the broker is not configured and no relay has registered one: %1").arg(what);
    return broker;
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
