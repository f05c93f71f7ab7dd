#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QVector>

namespace outbox {

// One row of outbox_relays, with its heartbeat age as the database sees it.
struct RelayRecord
{
    QString workerId;
    QString host;
    qint64 pid = 0;
    QString version;
    QDateTime startedAt;
    QDateTime heartbeatAt;
    qint64 heartbeatAgeMs = 0;
    QString desiredState;
    QString state;
    qint64 claimedTotal = 0;
    qint64 sentTotal = 0;
    qint64 failedTotal = 0;
    qint64 fencedTotal = 0;
    int leasesHeld = 0;
    QString lastError;
    qint64 leaseExpiredTotal = 0; // expired leases this relay's reaper returned
    qint64 latencySumMs = 0;      // commit -> ack latency of its deliveries
    qint64 latencyCount = 0;
    QVector<qint64> latencyBuckets; // cumulative counts per RelayStats::LatencyBuckets bound
    // The broker it publishes to (migration 14): "kafka" or "amqp", and where, never credentials
    // ("127.0.0.1:9092", "mq.internal:5672 vhost /"); empty for relays older than that.
    QString brokerKind;
    QString brokerAddress;
    // What wakes it (migration 19): "notify" (the trigger, opt-in), "doorbell" (a temporary logical
    // replication slot), "data_version" (SQLite's change counter) or "poll"; empty for older relays.
    QString wakeup;

    QJsonObject toJson() const;
};

} // namespace outbox
