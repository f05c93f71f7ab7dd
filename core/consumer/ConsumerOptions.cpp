#include "core/consumer/ConsumerOptions.h"

#include "core/broker/BrokerRegistry.h"
#include "core/config/Config.h"

#include <algorithm>

namespace outbox {

MessageSource::Settings ConsumerOptions::sourceSettings() const
{
    MessageSource::Settings settings;
    settings.consumerName = consumerName;
    settings.topics = topics;
    settings.batchSize = batchSize;
    return settings;
}

Status ConsumerOptions::validate() const
{
    if (consumerName.trimmed().isEmpty())
        return Error::usage(QStringLiteral("the consumer needs a name"))
            .about(QStringLiteral("consumer.name"));
    if (consumerName.size() > 191)
        return Error::usage(QStringLiteral("a consumer name is limited to 191 characters"));
    if (Status s = broker->validateForConsumer(sourceSettings()); !s)
        return s;
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
    return {};
}

Result<ConsumerOptions> ConsumerOptions::fromConfig(const config::Config& config)
{
    ConsumerOptions o;
    o.consumerName = config.value(QStringLiteral("consumer.name"));
    auto broker = BrokerRegistry::fromConfig(config);
    if (!broker)
        return broker.error();
    o.broker = std::move(broker).value();
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
    return o;
}

} // namespace outbox
