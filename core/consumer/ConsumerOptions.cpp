#include "core/consumer/ConsumerOptions.h"

#include "core/broker/BrokerConfig.h"
#include "core/config/Config.h"

#include <algorithm>

namespace outbox {

QString ConsumerOptions::sourceText() const
{
    if (broker == BrokerUrl::Kind::Amqp)
        return QStringLiteral("RabbitMQ %1 queue %2").arg(amqp.url.address(), amqp.queue);
    return QStringLiteral("Kafka %1 topics %2").arg(bootstrap, topics.join(QLatin1Char(',')));
}

Status ConsumerOptions::validate() const
{
    if (consumerName.trimmed().isEmpty())
        return Error::usage(QStringLiteral("the consumer needs a name"))
            .about(QStringLiteral("consumer.name"));
    if (consumerName.size() > 191)
        return Error::usage(QStringLiteral("a consumer name is limited to 191 characters"));
    if (broker == BrokerUrl::Kind::Amqp) {
        if (amqp.url.kind != BrokerUrl::Kind::Amqp || amqp.url.host.isEmpty())
            return Error::usage(QStringLiteral("no AMQP broker URL given"))
                .about(QStringLiteral("broker.url"));
        if (amqp.queue.trimmed().isEmpty())
            return Error::usage(QStringLiteral("a consumer on RabbitMQ needs a queue"))
                .about(QStringLiteral("consumer.queue"));
    } else {
        if (bootstrap.trimmed().isEmpty())
            return Error::usage(QStringLiteral("no Kafka bootstrap servers given"))
                .about(QStringLiteral("kafka.bootstrap"));
        if (topics.isEmpty())
            return Error::usage(QStringLiteral("the consumer needs at least one topic"));
    }
    if (schemaVersions.isEmpty())
        return Error::usage(QStringLiteral("the consumer needs at least one supported schema_version"));
    if (maxAttempts < 1 || maxAttempts > 1000)
        return Error::usage(QStringLiteral("max attempts must be between 1 and 1000"));
    if (batchSize < 1 || batchSize > 10000)
        return Error::usage(QStringLiteral("the consumer batch size must be between 1 and 10000"))
            .about(QStringLiteral("consumer.batch_size"));
    if (batchMaxWaitMs < 0 || batchMaxWaitMs > 10000)
        return Error::usage(QStringLiteral("the consumer batch wait must be between 0 and 10000 ms"))
            .about(QStringLiteral("consumer.batch_max_wait_ms"));
    if (backoffBaseMs < 1 || backoffCapMs < backoffBaseMs)
        return Error::usage(
            QStringLiteral("the backoff cap must be at least the backoff base (both positive)"));
    // The consumer does not poll Kafka while it retries one message; librdkafka's default
    // max.poll.interval.ms (300 s) would take the partitions away in the middle.
    if (qint64(maxAttempts) * backoffCapMs >= 240000)
        return Error::usage(QStringLiteral("max attempts x backoff cap must stay below 240 s (the consumer "
                                           "does not poll while it retries)"));
    // Offsets move only after the database commit; these would let librdkafka move them on its own.
    for (const char* name : {"enable.auto.commit", "enable.auto.offset.store"}) {
        const QString value = kafka.value(QLatin1String(name));
        if (!value.isEmpty() && value != QLatin1String("false"))
            return Error::usage(
                QStringLiteral("%1 must stay false: the consumer acknowledges only after its database commit")
                    .arg(QLatin1String(name)));
    }
    if (kafka.contains(QStringLiteral("group.id")))
        return Error::usage(
                   QStringLiteral("group.id cannot be set: the consumer group is named after the consumer"))
            .about(QStringLiteral("consumer.name"));
    return {};
}

Result<ConsumerOptions> ConsumerOptions::fromConfig(const config::Config& config)
{
    ConsumerOptions o;
    o.consumerName = config.value(QStringLiteral("consumer.name"));
    if (Status s = brokerFromConfig(config, o.broker, o.bootstrap, o.amqp); !s)
        return s.error();
    o.topics = config.list(QStringLiteral("consumer.topics"));
    o.schemaVersions.clear();
    for (const QString& part : config.list(QStringLiteral("consumer.schema_versions"))) {
        bool ok = false;
        const int v = part.toInt(&ok);
        if (!ok || v < 1)
            return config.located(QStringLiteral("consumer.schema_versions"),
                                  Error::usage(QStringLiteral("takes positive numbers separated by commas")));
        o.schemaVersions.insert(v);
    }
    o.maxAttempts = int(config.integer(QStringLiteral("consumer.max_attempts")));
    o.backoffBaseMs = config.integer(QStringLiteral("consumer.backoff_base_ms"));
    o.backoffCapMs = std::max(config.integer(QStringLiteral("consumer.backoff_cap_ms")), o.backoffBaseMs);
    o.batchSize = int(config.integer(QStringLiteral("consumer.batch_size")));
    o.batchMaxWaitMs = int(config.integer(QStringLiteral("consumer.batch_max_wait_ms")));
    for (const config::Setting& p : config.kafkaProperties())
        o.kafka.insert(p.key, p.value);
    return o;
}

} // namespace outbox
