#include "core/diagnosis/MemberBroker.h"

#include "core/broker/BrokerUrl.h"
#include "core/broker/RegisteredBroker.h"
#include "core/db/RelayStore.h"

namespace outbox {

QString MemberBroker::url(const QVector<RelayRecord>& relays, const QString& configuredUrl)
{
    const RelayRecord* freshest = nullptr;
    for (const RelayRecord& r : relays) {
        if (RegisteredBroker::url(r.brokerKind, r.brokerAddress).isEmpty())
            continue;
        if (!freshest || r.heartbeatAgeMs < freshest->heartbeatAgeMs)
            freshest = &r;
    }
    if (!freshest)
        return configuredUrl;
    const QString fromRow = RegisteredBroker::url(freshest->brokerKind, freshest->brokerAddress);
    if (!configuredUrl.isEmpty()) {
        // The same broker when both name the same kind at the same address.
        auto configured = BrokerUrl::parse(configuredUrl);
        auto registered = BrokerUrl::parse(fromRow);
        if (configured && registered && configured->kindName() == registered->kindName() &&
            configured->address() == registered->address())
            return configuredUrl;
    }
    return fromRow;
}

QStringList MemberBroker::arguments(const QVector<RelayRecord>& relays, const QString& configuredUrl)
{
    const QString broker = url(relays, configuredUrl);
    if (broker.isEmpty())
        return {};
    return {QStringLiteral("--broker=") + broker};
}

QStringList MemberBroker::arguments(Database& db, const QString& configuredUrl)
{
    auto relays = RelayStore(db).list();
    return arguments(relays ? *relays : QVector<RelayRecord>(), configuredUrl);
}

} // namespace outbox
