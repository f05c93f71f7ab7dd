#include "core/diagnosis/MemberBroker.h"

#include "core/broker/BrokerRegistry.h"

namespace outbox {

QStringList MemberBroker::arguments(const QString& brokerUrl)
{
    return brokerUrl.isEmpty() ? QStringList() : QStringList{QStringLiteral("--broker=") + brokerUrl};
}

MemberBroker::Choice MemberBroker::choose(const QStringList& configured, const QVector<RelayRecord>& relays,
                                          const QString& whatToSet)
{
    Choice choice;
    if (!configured.isEmpty()) {
        choice.arguments = configured;
        return choice;
    }
    const RelayRecord* freshest = nullptr;
    for (const RelayRecord& r : relays)
        if (!r.brokerKind.isEmpty() && !r.brokerAddress.isEmpty() &&
            (!freshest || r.heartbeatAgeMs < freshest->heartbeatAgeMs))
            freshest = &r;
    const QString what =
        whatToSet.isEmpty()
            ? tr("set [kafka] bootstrap (or [broker] url) in the configuration, or give the broker's address "
                 "with --kafka-bootstrap when you start outboxctl relay with this database's connection "
                 "options")
            : whatToSet;
    if (freshest) {
        if (const QString url =
                BrokerRegistry::urlFromRegistryRow(freshest->brokerKind, freshest->brokerAddress);
            !url.isEmpty()) {
            choice.arguments = arguments(url);
            return choice;
        }
    }
    if (freshest)
        choice.refused =
            tr("this database's relays publish to %1, but the relay registry does not record "
               "the user they log in as: %2")
                .arg(BrokerRegistry::describe(freshest->brokerKind, freshest->brokerAddress), what);
    else
        choice.refused = tr("the broker is not configured and no relay has registered one: %1").arg(what);
    return choice;
}

} // namespace outbox
