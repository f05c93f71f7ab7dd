#include "core/relay/RelayOptions.h"

#include "core/broker/BrokerRegistry.h"
#include "core/config/Config.h"
#include "core/db/TopicRouter.h"
#include "core/support/CommandLine.h"

#include <QCoreApplication>

namespace outbox {

Status RelayOptions::validateCommon() const
{
    // The worker id is printed in doctor's prepared commands and human output: one that starts with
    // a dash reads as an option, control characters drive the terminal that shows it.
    if (workerId.startsWith(QLatin1Char('-')) || !CommandLine::isPrintable(workerId))
        return Error::usage(
                   QStringLiteral("a worker id must not start with \"-\" nor hold control characters"))
            .about(QStringLiteral("relay.worker_id"));
    if (batchSize < 1 || batchSize > 10000)
        return Error::usage(QCoreApplication::translate("outbox::RelayOptions",
                                                        "the batch size must be between 1 and 10000"));
    if (leaseMs < 1000)
        return Error::usage(
            QCoreApplication::translate("outbox::RelayOptions", "the lease must be at least 1000 ms"));
    if (maxAttempts < 1)
        return Error::usage(
            QCoreApplication::translate("outbox::RelayOptions", "max attempts must be at least 1"));
    if (backoffBaseMs < 1 || backoffCapMs < backoffBaseMs)
        return Error::usage(QCoreApplication::translate("outbox::RelayOptions",
                                                        "the backoff cap must not be below its base"));
    if (pollIntervalMs < 10 || heartbeatMs < 100)
        return Error::usage(
            QCoreApplication::translate("outbox::RelayOptions", "poll interval and heartbeat are too short"));
    if (lingerMs < 0 || lingerMs > 1000)
        return Error::usage(QCoreApplication::translate("outbox::RelayOptions",
                                                        "the linger must be between 0 and 1000 ms"))
            .about(QStringLiteral("relay.linger_ms"));
    return {};
}

Status RelayOptions::validate() const
{
    if (Status s = validateCommon(); !s)
        return s;
    if (Status s = broker->validateForRelay(leaseMs); !s)
        return s;
    if (const QString exchange = broker->exchangeTemplate(); !exchange.isEmpty()) {
        if (Status s = TopicRouter::validateTemplate(exchange); !s)
            return Error::usage(QStringLiteral("invalid exchange \"%1\" (letters, digits, . _ - and "
                                               "{aggregate_type}, {event_type})")
                                    .arg(exchange))
                .about(QStringLiteral("amqp.exchange"));
    }
    return TopicRouter::validateTemplate(topicTemplate);
}

Result<RelayOptions> RelayOptions::fromConfig(const config::Config& config)
{
    RelayOptions o;
    o.workerId = config.value(QStringLiteral("relay.worker_id"));
    auto broker = BrokerRegistry::fromConfig(config);
    if (!broker)
        return broker.error();
    o.broker = std::move(broker).value();
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
