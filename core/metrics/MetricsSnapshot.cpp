#include "core/metrics/MetricsSnapshot.h"

#include "core/broker/BrokerRegistry.h"

#include <QJsonArray>

namespace outbox {

qint64 MetricsSnapshot::unsent() const
{
    return events.value(QStringLiteral("PENDING")) + events.value(QStringLiteral("SENDING")) +
           events.value(QStringLiteral("FAILED"));
}

int MetricsSnapshot::staleRelays(qint64 staleAfterMs) const
{
    int n = 0;
    for (const RelayRecord& r : relays)
        n += r.heartbeatAgeMs > staleAfterMs ? 1 : 0;
    return n;
}

QJsonObject MetricsSnapshot::toJson() const
{
    QJsonObject ev;
    for (auto it = events.cbegin(); it != events.cend(); ++it)
        ev[it.key()] = it.value();
    QJsonObject attempts;
    for (auto it = attemptsOfUnsent.cbegin(); it != attemptsOfUnsent.cend(); ++it)
        attempts[QString::number(it.key())] = it.value();
    QJsonArray holders;
    for (const LeaseHolder& h : leaseHolders)
        holders.append(QJsonObject{{QStringLiteral("worker_id"), h.workerId},
                                   {QStringLiteral("sending"), h.sending},
                                   {QStringLiteral("expired"), h.expired},
                                   {QStringLiteral("held"), h.held}});
    QJsonArray relayArray;
    for (const RelayRecord& r : relays) {
        QJsonObject relay = r.toJson();
        // Where it publishes, for people ("RabbitMQ mq:5672 vhost /"): front ends show it as it is.
        const QString broker = BrokerRegistry::describe(r.brokerKind, r.brokerAddress);
        relay[QStringLiteral("broker")] = broker.isEmpty() ? QJsonValue() : QJsonValue(broker);
        relayArray.append(relay);
    }
    QJsonObject dlq;
    for (auto it = deadLetters.cbegin(); it != deadLetters.cend(); ++it)
        dlq[it.key()] = it.value();
    QJsonArray consumerArray;
    for (const ConsumerStats& c : consumers)
        consumerArray.append(QJsonObject{{QStringLiteral("consumer"), c.consumerName},
                                         {QStringLiteral("processed_recently"), c.processedRecently},
                                         {QStringLiteral("failed"), c.failed}});
    QJsonObject unconsumedObject;
    for (auto it = unconsumed.cbegin(); it != unconsumed.cend(); ++it)
        unconsumedObject[it.key()] = it.value();
    return QJsonObject{
        {QStringLiteral("taken_at"), takenAt.toString(Qt::ISODateWithMs)},
        {QStringLiteral("unconsumed"), unconsumedObject},
        {QStringLiteral("unconsumed_older_than_ms"), unconsumedOlderThanMs},
        {QStringLiteral("unconsumed_window_ms"), unconsumedWindowMs},
        {QStringLiteral("query_ms"), queryMillis},
        {QStringLiteral("events"), ev},
        {QStringLiteral("sent_is_estimate"), sentIsEstimate},
        {QStringLiteral("oldest_pending_age_seconds"),
         oldestPendingAgeMs < 0 ? QJsonValue() : QJsonValue(double(oldestPendingAgeMs) / 1000.0)},
        {QStringLiteral("attempts_of_unsent"), attempts},
        {QStringLiteral("lease_holders"), holders},
        {QStringLiteral("relays"), relayArray},
        {QStringLiteral("relay_sent_total"), relaySentTotal},
        {QStringLiteral("relay_failed_total"), relayFailedTotal},
        {QStringLiteral("relay_fenced_total"), relayFencedTotal},
        {QStringLiteral("relay_lease_expired_total"), relayLeaseExpiredTotal},
        {QStringLiteral("latency_count"), latencyCount},
        {QStringLiteral("latency_sum_seconds"), latencySumSeconds},
        {QStringLiteral("dead_letters"), dlq},
        {QStringLiteral("consumers"), consumerArray},
        {QStringLiteral("recent_window_seconds"), recentWindowSeconds},
    };
}

} // namespace outbox
