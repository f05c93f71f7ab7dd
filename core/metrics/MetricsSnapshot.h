#pragma once

#include "core/broker/kafka/ConsumerLag.h"
#include "core/db/RelayRecord.h"

#include <QDateTime>
#include <QJsonObject>
#include <QMap>
#include <QMetaType>
#include <QString>
#include <QVector>

namespace outbox {

// Events in flight per relay: SENDING rows under its lease plus, for held claims (PostgreSQL,
// relay.claim_mode = held), the rows of its held batches, which stay PENDING while locked; and how
// many of those are past their lease or hold time.
struct LeaseHolder
{
    QString workerId;
    qint64 sending = 0; // in flight: leased + held
    qint64 expired = 0;
    qint64 held = 0; // of `sending`, rows of held batches (the journal, HeldClaim::inFlight)
};

// Inbox progress of one consumer.
struct ConsumerStats
{
    QString consumerName;
    qint64 processedRecently = 0; // PROCESSED in the last window
    qint64 failed = 0;
};

// One sample of the outbox's health, shared by the console, the web page and /metrics.
struct MetricsSnapshot
{
    QDateTime takenAt;            // database clock, UTC
    qint64 queryMillis = 0;       // how long the query set took
    QMap<QString, qint64> events; // per status; SENT may be an estimate (see sentIsEstimate)
    bool sentIsEstimate = false;
    qint64 oldestPendingAgeMs = -1;     // -1: nothing pending
    QMap<int, qint64> attemptsOfUnsent; // attempts -> count, over PENDING, SENDING and FAILED
    QVector<LeaseHolder> leaseHolders;
    QVector<RelayRecord> relays;
    qint64 relaySentTotal = 0; // sum of the relays' counters, for rates between samples
    qint64 relayFailedTotal = 0;
    qint64 relayFencedTotal = 0;
    qint64 relayLeaseExpiredTotal = 0;
    // Commit -> ack latency over all registered relays (Prometheus histogram parts).
    QVector<double> latencyBucketBounds; // seconds
    QVector<qint64> latencyBucketCounts; // cumulative
    double latencySumSeconds = 0;
    qint64 latencyCount = 0;
    QMap<QString, qint64> deadLetters; // per status
    QVector<ConsumerStats> consumers;
    // Per configured consumer: SENT more than unconsumedOlderThanMs ago, created within the last
    // unconsumedWindowMs, not PROCESSED (see MetricsQuery::setUnconsumedConsumers). Empty when no
    // consumer is configured.
    QMap<QString, qint64> unconsumed;
    qint64 unconsumedOlderThanMs = 0;
    // Per consumer: inbox rows PROCESSED, and redeliveries skipped as duplicates (consumer_counters).
    QMap<QString, qint64> consumerProcessedTotal;
    QMap<QString, qint64> consumerDuplicatesTotal;
    // With a Kafka bootstrap (MetricsSampler::setConsumerLag): lag per consumer and partition.
    QVector<PartitionLag> consumerLag;
    QString consumerLagError;
    qint64 unconsumedWindowMs = 0;
    int recentWindowSeconds = 300;

    qint64 unsent() const;
    // Relays whose heartbeat is older than `staleAfterMs`.
    int staleRelays(qint64 staleAfterMs) const;
    QJsonObject toJson() const;
};

} // namespace outbox

Q_DECLARE_METATYPE(outbox::MetricsSnapshot)
