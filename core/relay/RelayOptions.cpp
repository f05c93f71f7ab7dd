#include "core/relay/RelayOptions.h"

#include "core/broker/BrokerConfig.h"
#include "core/config/Config.h"
#include "core/db/TopicRouter.h"
#include "core/support/CommandLine.h"

namespace outbox {

qint64 RelayOptions::deliveryDeadlineMs() const
{
    if (broker == BrokerUrl::Kind::Amqp)
        return amqp.confirmTimeoutMs + 2000;
    return kafka.messageTimeoutMs() + 2000;
}

QString RelayOptions::brokerText() const
{
    if (broker == BrokerUrl::Kind::Amqp)
        return QStringLiteral("RabbitMQ ") + amqp.url.address();
    return QStringLiteral("Kafka ") + bootstrap;
}

QString RelayOptions::brokerKindName() const
{
    return broker == BrokerUrl::Kind::Amqp ? QStringLiteral("amqp") : QStringLiteral("kafka");
}

QString RelayOptions::brokerAddress() const
{
    return broker == BrokerUrl::Kind::Amqp ? amqp.url.address() : bootstrap;
}

Status RelayOptions::validateCommon() const
{
    // The worker id is printed in doctor's prepared commands and human output: one that starts with
    // a dash reads as an option, control characters drive the terminal that shows it.
    if (workerId.startsWith(QLatin1Char('-')) || !CommandLine::isPrintable(workerId))
        return Error::usage(
                   QStringLiteral("a worker id must not start with \"-\" nor hold control characters"))
            .about(QStringLiteral("relay.worker_id"));
    if (batchSize < 1 || batchSize > 10000)
        return Error::usage(QStringLiteral("the batch size must be between 1 and 10000"));
    if (leaseMs < 1000)
        return Error::usage(QStringLiteral("the lease must be at least 1000 ms"));
    if (maxAttempts < 1)
        return Error::usage(QStringLiteral("max attempts must be at least 1"));
    if (backoffBaseMs < 1 || backoffCapMs < backoffBaseMs)
        return Error::usage(QStringLiteral("the backoff cap must not be below its base"));
    if (pollIntervalMs < 10 || heartbeatMs < 100)
        return Error::usage(QStringLiteral("poll interval and heartbeat are too short"));
    if (lingerMs < 0 || lingerMs > 1000)
        return Error::usage(QStringLiteral("the linger must be between 0 and 1000 ms"))
            .about(QStringLiteral("relay.linger_ms"));
    return {};
}

Status RelayOptions::validate() const
{
    if (Status s = validateCommon(); !s)
        return s;
    if (broker == BrokerUrl::Kind::Amqp) {
        if (amqp.url.kind != BrokerUrl::Kind::Amqp || amqp.url.host.isEmpty())
            return Error::usage(QStringLiteral("no AMQP broker URL given"))
                .about(QStringLiteral("broker.url"));
        if (amqp.window < 1 || amqp.window > 65535)
            return Error::usage(QStringLiteral("the AMQP publish window must be between 1 and 65535"))
                .about(QStringLiteral("amqp.window"));
        // A claimed event is published at once and confirmed (or given up) within the confirm timeout;
        // the mark follows. All of it must end before the lease does.
        if (deliveryDeadlineMs() >= leaseMs)
            return Error::usage(
                       QStringLiteral("the lease (%1 ms) must exceed the AMQP confirm deadline (%2 ms)")
                           .arg(leaseMs)
                           .arg(deliveryDeadlineMs()))
                .about(QStringLiteral("relay.lease_ms"));
        if (!amqp.exchange.isEmpty()) {
            if (Status s = TopicRouter::validateTemplate(amqp.exchange); !s)
                return Error::usage(QStringLiteral("invalid exchange \"%1\" (letters, digits, . _ - and "
                                                   "{aggregate_type}, {event_type})")
                                        .arg(amqp.exchange))
                    .about(QStringLiteral("amqp.exchange"));
        }
        return TopicRouter::validateTemplate(topicTemplate);
    }
    if (bootstrap.trimmed().isEmpty())
        return Error::usage(QStringLiteral("no Kafka bootstrap servers given"))
            .about(QStringLiteral("kafka.bootstrap"));
    // A claimed event is produced at once and librdkafka reports it within message.timeout.ms; the
    // mark follows. All of it must end before the lease does, or another relay would send it too.
    if (kafka.messageTimeoutMs() <= 0)
        return Error::usage(
            QStringLiteral("message.timeout.ms=0 means no delivery timeout at all in librdkafka: a claimed "
                           "event could wait for its report longer than any lease, and another relay would "
                           "send it too; give a timeout below the lease (%1 ms)")
                .arg(leaseMs));
    const qint64 worstCase = deliveryDeadlineMs();
    if (kafka.messageTimeoutMs() >= leaseMs || worstCase >= leaseMs)
        return Error::usage(
                   QStringLiteral(
                       "message.timeout.ms (%1 ms) is too long for the lease (%2 ms): the lease must exceed "
                       "%3 ms; lower message.timeout.ms or lengthen the lease")
                       .arg(kafka.messageTimeoutMs())
                       .arg(leaseMs)
                       .arg(worstCase))
            .about(QStringLiteral("relay.lease_ms"));
    return TopicRouter::validateTemplate(topicTemplate);
}

Result<std::unique_ptr<Publisher>> RelayOptions::publisher() const
{
    return Publisher::create(broker, bootstrap, kafka, amqp);
}

Result<RelayOptions> RelayOptions::fromConfig(const config::Config& config)
{
    RelayOptions o;
    o.workerId = config.value(QStringLiteral("relay.worker_id"));
    if (Status s = brokerFromConfig(config, o.broker, o.bootstrap, o.amqp); !s)
        return s.error();
    for (const config::Setting& p : config.kafkaProperties()) {
        if (Status s = o.kafka.set(p.key, p.value); !s)
            return config.located(QStringLiteral("kafka.") + p.key, s.error());
    }
    o.batchSize = int(config.integer(QStringLiteral("relay.batch_size")));
    o.leaseMs = config.integer(QStringLiteral("relay.lease_ms"));
    o.pollIntervalMs = int(config.integer(QStringLiteral("relay.poll_ms")));
    o.lingerMs = int(config.integer(QStringLiteral("relay.linger_ms")));
    o.pollMinIntervalMs = int(config.integer(QStringLiteral("relay.poll_min_ms")));
    o.maxAttempts = int(config.integer(QStringLiteral("relay.max_attempts")));
    o.backoffBaseMs = config.integer(QStringLiteral("relay.backoff_base_ms"));
    o.backoffCapMs = config.integer(QStringLiteral("relay.backoff_cap_ms"));
    o.ordering = config.value(QStringLiteral("relay.ordering")) == QLatin1String("aggregate")
                     ? OrderingMode::Aggregate
                     : OrderingMode::None;
    o.topicTemplate = config.value(QStringLiteral("relay.topic_template"));
    o.retentionMs = config.durationMs(QStringLiteral("relay.retention"));
    o.deadRetentionMs = config.durationMs(QStringLiteral("relay.dead_retention"));
    o.notify = config.boolean(QStringLiteral("relay.notify"));
    o.pipeline = config.boolean(QStringLiteral("relay.pipeline"));
    o.claimMode = config.value(QStringLiteral("relay.claim_mode")) == QLatin1String("held")
                      ? ClaimMode::Held
                      : ClaimMode::Lease;
    return o;
}

} // namespace outbox
