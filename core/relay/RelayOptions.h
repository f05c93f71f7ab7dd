#pragma once

#include "core/broker/BrokerUrl.h"
#include "core/broker/Publisher.h"
#include "core/broker/amqp/AmqpOptions.h"
#include "core/broker/kafka/KafkaProperties.h"
#include "core/db/EventStore.h"
#include "core/support/Result.h"

#include <QString>
#include <memory>

namespace outbox::config {
class Config;
}

namespace outbox {

// How a relay holds the events it claimed while it publishes them (docs/architecture.md):
// Lease: the claim commits PENDING -> SENDING with a lease (every database; the console sees
// SENDING rows and their holders). Held: the claim keeps row locks in an open transaction and the
// marks commit in it (PostgreSQL): one row version per event instead of two.
enum class ClaimMode { Lease, Held };

// Everything one relay worker needs to know; validate() refuses unsafe combinations.
struct RelayOptions
{
    QString workerId;                                // empty: host-pid-random
    BrokerUrl::Kind broker = BrokerUrl::Kind::Kafka; // which publisher (core/broker/Publisher.h)
    QString bootstrap;                               // Kafka bootstrap servers
    KafkaProperties kafka;
    AmqpOptions amqp; // RabbitMQ: URL, exchange (template), window
    int batchSize = 500;
    qint64 leaseMs = 30000;
    int pollIntervalMs = 250; // fallback when NOTIFY is off or missed
    // Caught up and woken by a commit: claim no sooner than this after the previous claim began,
    // so that the commits of those milliseconds share one claim and one mark (0: claim at once).
    int lingerMs = 3;
    // Without wake-ups (trigger off, notify off, MariaDB): the first wait after an empty claim,
    // doubling up to pollIntervalMs (AdaptivePoll).
    int pollMinIntervalMs = 10;
    bool notify = true;      // PostgreSQL LISTEN/NOTIFY wake-up
    bool localWakeup = true; // wake on commits of events by writers in this process (NewEventsHub)
    int maxAttempts = 10;
    qint64 backoffBaseMs = 500;
    qint64 backoffCapMs = 60000;
    OrderingMode ordering = OrderingMode::None;
    QString topicTemplate = QStringLiteral("{aggregate_type}");
    int heartbeatMs = 2000;
    qint64 retentionMs = 7LL * 24 * 3600 * 1000; // SENT rows older than this are deleted; 0 keeps all
    int retentionBatch = 1000;
    // DEAD rows created longer ago than this are deleted, audited (DeadRetention); 0 keeps all.
    qint64 deadRetentionMs = 30LL * 24 * 3600 * 1000;
    bool pipeline = true; // claim the next batch while the current one is in flight
    ClaimMode claimMode = ClaimMode::Lease;

    // [relay] and [kafka] of the configuration; not yet validate()d. The database is a
    // DatabaseTarget of its own.
    static Result<RelayOptions> fromConfig(const config::Config& config);
    // The publisher these options name (broker, bootstrap, kafka, amqp).
    Result<std::unique_ptr<Publisher>> publisher() const;
    Status validate() const;
    Status validateCommon() const;
    // The longest a claimed event may wait for its delivery report (see validate()).
    qint64 deliveryDeadlineMs() const;
    // "Kafka 127.0.0.1:9092" or "RabbitMQ 127.0.0.1:5672 vhost /" for logs and relay pages.
    QString brokerText() const;
    // For the relay's heartbeat row: "kafka" or "amqp", and where, never credentials.
    QString brokerKindName() const;
    QString brokerAddress() const;
};

} // namespace outbox
