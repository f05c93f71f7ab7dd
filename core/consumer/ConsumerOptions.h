#pragma once

#include "core/broker/BrokerUrl.h"
#include "core/broker/amqp/AmqpOptions.h"
#include "core/support/Result.h"

#include <QMap>
#include <QSet>
#include <QString>
#include <QStringList>

namespace outbox::config {
class Config;
}

namespace outbox {

// Everything an InboxConsumer needs to know; validate() refuses what would break "ACK after commit".
struct ConsumerOptions
{
    QString consumerName;                            // inbox consumer_name and Kafka group.id
    BrokerUrl::Kind broker = BrokerUrl::Kind::Kafka; // which message source (core/consumer/MessageSource.h)
    QString bootstrap;                               // Kafka bootstrap servers
    QStringList topics;                              // Kafka
    AmqpOptions amqp;                                // RabbitMQ: URL and amqp.queue
    QSet<int> schemaVersions{1};                     // messages with another schema_version are dead letters
    int maxAttempts = 5; // transient failures of one message before it becomes a dead letter
    qint64 backoffBaseMs = 200;
    qint64 backoffCapMs = 5000;
    int pollMs = 100;
    // Messages processed in one database transaction (savepoints only after a handler failed,
    // offsets committed after the transaction) and how long a batch waits for more after its first message.
    int batchSize = 500;
    int batchMaxWaitMs = 5;
    QMap<QString, QString> kafka; // extra librdkafka consumer properties

    // [consumer] and [kafka] of the configuration. The database is a DatabaseTarget of its own.
    static Result<ConsumerOptions> fromConfig(const config::Config& config);
    Status validate() const;
    // "Kafka 127.0.0.1:9092 topics order" or "RabbitMQ 127.0.0.1:5672 vhost / queue inventory".
    QString sourceText() const;
};

} // namespace outbox
