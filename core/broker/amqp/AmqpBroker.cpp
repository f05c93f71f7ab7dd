#include "core/broker/amqp/AmqpBroker.h"

#include "core/broker/amqp/AmqpAdmin.h"
#include "core/broker/amqp/AmqpPublisher.h"
#include "core/broker/amqp/AmqpSource.h"
#include "core/config/Config.h"

#include <QCoreApplication>
#include <QFile>

namespace outbox {

Result<std::unique_ptr<AmqpBroker>> AmqpBroker::fromConfig(const config::Config& config, AmqpUrl url)
{
    const QString urlKey = QStringLiteral("broker.url");
    AmqpOptions amqp;
    amqp.exchange = config.value(QStringLiteral("amqp.exchange"));
    amqp.window = int(config.integer(QStringLiteral("amqp.window")));
    amqp.confirmTimeoutMs = config.integer(QStringLiteral("amqp.confirm_timeout_ms"));
    amqp.caFile = config.value(QStringLiteral("amqp.ca_file"));
    amqp.queue = config.value(QStringLiteral("consumer.queue"));
    if (!url.password.isEmpty() && config.source(urlKey).kind == config::Source::Flag)
        return config.located(
            urlKey, Error::usage(QCoreApplication::translate(
                        "outbox::AmqpBroker",
                        "a password does not belong on the command line (other users see it in the process "
                        "list): give it in OUTBOX_BROKER_PASSWORD or [amqp] password_file")));
    if (url.password.isEmpty())
        url.password = config.value(QStringLiteral("broker.password"));
    const QString passwordFile = config.value(QStringLiteral("amqp.password_file"));
    if (url.password.isEmpty() && !passwordFile.isEmpty()) {
        QFile file(passwordFile);
        if (!file.open(QIODevice::ReadOnly))
            return config.located(
                QStringLiteral("amqp.password_file"),
                Error::usage(QCoreApplication::translate("outbox::AmqpBroker", "cannot read %1: %2")
                                 .arg(passwordFile, file.errorString())));
        url.password = QString::fromUtf8(file.readLine(4096)).trimmed();
    }
    if (url.password.isEmpty() && url.user == QLatin1String("guest"))
        url.password = QStringLiteral("guest"); // RabbitMQ's own default user (loopback only)
    amqp.url = url;
    return std::make_unique<AmqpBroker>(std::move(amqp));
}

std::unique_ptr<Broker> AmqpBroker::clone() const
{
    return std::make_unique<AmqpBroker>(*this);
}

QString AmqpBroker::kindName() const
{
    return QStringLiteral("RabbitMQ");
}

QString AmqpBroker::scheme() const
{
    return QStringLiteral("amqp");
}

QString AmqpBroker::address() const
{
    return m_options.url.address();
}

QString AmqpBroker::redactedUrl() const
{
    return m_options.url.host.isEmpty() ? QString() : m_options.url.redacted();
}

Result<std::unique_ptr<Publisher>> AmqpBroker::publisher() const
{
    auto p = AmqpPublisher::create(m_options);
    if (!p)
        return p.error();
    return std::unique_ptr<Publisher>(std::move(p).value());
}

qint64 AmqpBroker::deliveryDeadlineMs() const
{
    return m_options.confirmTimeoutMs + 2000;
}

Status AmqpBroker::validateUrl() const
{
    if (m_options.url.host.isEmpty())
        return Error::usage(QCoreApplication::translate("outbox::AmqpBroker", "no AMQP broker URL given"))
            .about(QStringLiteral("broker.url"));
    return {};
}

Status AmqpBroker::validateForRelay(qint64 leaseMs) const
{
    if (Status s = validateUrl(); !s)
        return s;
    if (m_options.window < 1 || m_options.window > 65535)
        return Error::usage(QCoreApplication::translate(
                                "outbox::AmqpBroker", "the AMQP publish window must be between 1 and 65535"))
            .about(QStringLiteral("amqp.window"));
    // A claimed event is published at once and confirmed (or given up) within the confirm timeout;
    // the mark follows. All of it must end before the lease does.
    if (deliveryDeadlineMs() >= leaseMs)
        return Error::usage(QCoreApplication::translate(
                                "outbox::AmqpBroker",
                                "the lease (%1 ms) must exceed the AMQP confirm deadline (%2 ms)")
                                .arg(leaseMs)
                                .arg(deliveryDeadlineMs()))
            .about(QStringLiteral("relay.lease_ms"));
    return {}; // the exchange template is checked with the topic template (RelayOptions::validate())
}

QString AmqpBroker::exchangeTemplate() const
{
    return m_options.exchange;
}

Result<std::unique_ptr<MessageSource>> AmqpBroker::source(const MessageSource::Settings& settings,
                                                          MessageSource::Logger log) const
{
    return std::unique_ptr<MessageSource>(new AmqpSource(settings, m_options, std::move(log)));
}

Status AmqpBroker::validateForConsumer(const MessageSource::Settings&) const
{
    if (Status s = validateUrl(); !s)
        return s;
    if (m_options.queue.trimmed().isEmpty())
        return Error::usage(
                   QCoreApplication::translate("outbox::AmqpBroker", "a consumer on RabbitMQ needs a queue"))
            .about(QStringLiteral("consumer.queue"));
    return {};
}

QString AmqpBroker::sourceText(const MessageSource::Settings&) const
{
    return QStringLiteral("RabbitMQ %1 queue %2").arg(m_options.url.address(), m_options.queue);
}

Result<QString> AmqpBroker::declareExchange(const QString& exchange) const
{
    auto admin = AmqpAdmin::connect(m_options);
    if (!admin)
        return admin.error();
    if (Status s = (*admin)->declareExchange(exchange); !s)
        return s.error();
    return QStringLiteral("exchange \"%1\" (topic, durable) on RabbitMQ %2")
        .arg(exchange, m_options.url.address());
}

Result<BrokerDemo> AmqpBroker::prepareDemo(const QString& route, int partitions, const QString& refusedRoute,
                                           const QString& consumerName, qint64 maxMessageBytes) const
{
    // The consumer's queue takes `route` only: events on `refusedRoute` come back NO_ROUTE (FAILED).
    (void)partitions;
    (void)refusedRoute;
    (void)maxMessageBytes;
    auto broker = std::make_unique<AmqpBroker>(*this);
    AmqpOptions& amqp = broker->m_options;
    if (amqp.queue.isEmpty())
        amqp.queue = consumerName;
    auto admin = AmqpAdmin::connect(amqp);
    if (!admin)
        return admin.error();
    if (Status d = (*admin)->declareExchange(amqp.exchange); !d)
        return d.error();
    if (Status d = (*admin)->declareQueue(amqp.queue, amqp.exchange, route); !d)
        return d.error();
    BrokerDemo demo;
    demo.where =
        QStringLiteral("  rabbitmq        %1  (exchange \"%2\" -> queue \"%3\", routing key \"%4\")\n")
            .arg(amqp.url.redacted(), amqp.exchange, amqp.queue, route);
    demo.refusals =
        QStringLiteral("                  every 97th event has a routing key no queue is bound for "
                       "(NO_ROUTE): FAILED\n");
    demo.look = QStringLiteral("  rabbitmqctl list_queues name messages_ready messages_unacknowledged\n");
    demo.broker = std::move(broker);
    return demo;
}

} // namespace outbox
