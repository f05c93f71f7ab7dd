#include "core/broker/kafka/KafkaBroker.h"

#include "core/broker/BrokerUrl.h"
#include "core/broker/kafka/EmbeddedBroker.h"
#include "core/broker/kafka/KafkaPublisher.h"
#include "core/broker/kafka/KafkaSource.h"
#include "core/config/Config.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace outbox {

Result<std::unique_ptr<KafkaBroker>> KafkaBroker::fromConfig(const config::Config& config,
                                                             const QString& bootstrap)
{
    auto broker = std::make_unique<KafkaBroker>(bootstrap);
    for (const config::Setting& p : config.kafkaProperties()) {
        broker->m_consumer.insert(p.key, p.value);
        if (Status s = broker->m_producer.set(p.key, p.value); !s && broker->m_producerRefusal)
            broker->m_producerRefusal = config.located(QStringLiteral("kafka.") + p.key, s.error());
    }
    return broker;
}

Result<QString> KafkaBroker::parseUrl(const QString& input)
{
    const QString text = input.trimmed();
    auto scheme = BrokerUrl::scheme(text);
    if (!scheme)
        return scheme.error();
    if (*scheme != QLatin1String("kafka"))
        return BrokerUrl::invalid(text, QStringLiteral("Kafka's URL is kafka://host:port[,host:port…]"));
    static const QRegularExpression hostPort(
        QStringLiteral("^(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9._-]+):[0-9]{1,5}$"));
    const QStringList hosts = text.mid(scheme->size() + 3).split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (hosts.isEmpty())
        return BrokerUrl::invalid(text, QStringLiteral("kafka:// needs host:port[,host:port…]"));
    QStringList clean;
    for (const QString& h : hosts) {
        const QString t = h.trimmed();
        if (!hostPort.match(t).hasMatch())
            return BrokerUrl::invalid(text, QStringLiteral("\"%1\" is not host:port").arg(t.left(100)));
        const int port = t.section(QLatin1Char(':'), -1).toInt();
        if (port < 1 || port > 65535)
            return BrokerUrl::invalid(text, QStringLiteral("port %1 is out of range").arg(port));
        clean << t;
    }
    return clean.join(QLatin1Char(','));
}

QString KafkaBroker::urlFromRegistryRow(const QString& address)
{
    auto bootstrap = parseUrl(QStringLiteral("kafka://") + address);
    return bootstrap ? QStringLiteral("kafka://") + *bootstrap : QString();
}

std::unique_ptr<Broker> KafkaBroker::clone() const
{
    return std::make_unique<KafkaBroker>(*this);
}

QString KafkaBroker::kindName() const
{
    return QStringLiteral("Kafka");
}

QString KafkaBroker::scheme() const
{
    return QStringLiteral("kafka");
}

QString KafkaBroker::address() const
{
    return m_bootstrap;
}

QString KafkaBroker::redactedUrl() const
{
    const QString bootstrap = m_bootstrap.trimmed();
    return bootstrap.isEmpty() ? QString() : QStringLiteral("kafka://") + bootstrap;
}

Result<std::unique_ptr<Publisher>> KafkaBroker::publisher() const
{
    if (!m_producerRefusal)
        return m_producerRefusal.error();
    auto p = KafkaPublisher::create(m_bootstrap, m_producer);
    if (!p)
        return p.error();
    return std::unique_ptr<Publisher>(std::move(p).value());
}

qint64 KafkaBroker::deliveryDeadlineMs() const
{
    return m_producer.messageTimeoutMs() + 2000;
}

Status KafkaBroker::validateForRelay(qint64 leaseMs) const
{
    if (!m_producerRefusal)
        return m_producerRefusal;
    if (m_bootstrap.trimmed().isEmpty())
        return Error::usage(
                   QCoreApplication::translate("outbox::KafkaBroker", "no Kafka bootstrap servers given"))
            .about(QStringLiteral("kafka.bootstrap"));
    // A claimed event is produced at once and librdkafka reports it within message.timeout.ms; the
    // mark follows. All of it must end before the lease does, or another relay would send it too.
    if (m_producer.messageTimeoutMs() <= 0)
        return Error::usage(
            QCoreApplication::translate(
                "outbox::KafkaBroker",
                "message.timeout.ms=0 means no delivery timeout at all in librdkafka: a claimed "
                "event could wait for its report longer than any lease, and another relay would "
                "send it too; give a timeout below the lease (%1 ms)")
                .arg(leaseMs));
    const qint64 worstCase = deliveryDeadlineMs();
    if (m_producer.messageTimeoutMs() >= leaseMs || worstCase >= leaseMs)
        return Error::usage(
                   QCoreApplication::translate(
                       "outbox::KafkaBroker",
                       "message.timeout.ms (%1 ms) is too long for the lease (%2 ms): the lease must exceed "
                       "%3 ms; lower message.timeout.ms or lengthen the lease")
                       .arg(m_producer.messageTimeoutMs())
                       .arg(leaseMs)
                       .arg(worstCase))
            .about(QStringLiteral("relay.lease_ms"));
    return {};
}

void KafkaBroker::setClientId(const QString& clientId)
{
    (void)m_producer.set(QStringLiteral("client.id"), clientId);
}

Result<std::unique_ptr<MessageSource>> KafkaBroker::source(const MessageSource::Settings& settings,
                                                           MessageSource::Logger log) const
{
    return std::unique_ptr<MessageSource>(new KafkaSource(settings, m_bootstrap, m_consumer, std::move(log)));
}

Status KafkaBroker::validateForConsumer(const MessageSource::Settings& settings) const
{
    if (m_bootstrap.trimmed().isEmpty())
        return Error::usage(
                   QCoreApplication::translate("outbox::KafkaBroker", "no Kafka bootstrap servers given"))
            .about(QStringLiteral("kafka.bootstrap"));
    if (settings.topics.isEmpty())
        return Error::usage(
            QCoreApplication::translate("outbox::KafkaBroker", "the consumer needs at least one topic"));
    // Offsets move only after the database commit; these would let librdkafka move them on its own.
    for (const char* name : {"enable.auto.commit", "enable.auto.offset.store"}) {
        const QString value = m_consumer.value(QLatin1String(name));
        if (!value.isEmpty() && value != QLatin1String("false"))
            return Error::usage(
                QCoreApplication::translate(
                    "outbox::KafkaBroker",
                    "%1 must stay false: the consumer acknowledges only after its database commit")
                    .arg(QLatin1String(name)));
    }
    if (m_consumer.contains(QStringLiteral("group.id")))
        return Error::usage(QCoreApplication::translate(
                                "outbox::KafkaBroker",
                                "group.id cannot be set: the consumer group is named after the consumer"))
            .about(QStringLiteral("consumer.name"));
    return {};
}

QString KafkaBroker::sourceText(const MessageSource::Settings& settings) const
{
    return QStringLiteral("Kafka %1 topics %2").arg(m_bootstrap, settings.topics.join(QLatin1Char(',')));
}

Result<BrokerDemo> KafkaBroker::prepareDemo(const QString& route, int partitions, const QString& refusedRoute,
                                            const QString& consumerName, qint64 maxMessageBytes) const
{
    (void)consumerName; // the consumer's group is named after it when it subscribes
    auto started = EmbeddedBroker::start(1);
    if (!started)
        return started.error();
    std::shared_ptr<EmbeddedBroker> embedded = std::move(started).value();
    if (Status b = embedded->createTopic(route, partitions); !b)
        return b.error();
    if (Status b = embedded->createTopic(refusedRoute, 1); !b)
        return b.error();
    embedded->setTopicError(refusedRoute, RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED);
    // The embedded broker is not the configured one: none of the configured [kafka] properties apply.
    auto broker = std::make_unique<KafkaBroker>(embedded->bootstrap());
    (void)broker->m_producer.set(QStringLiteral("message.max.bytes"), QString::number(maxMessageBytes));
    (void)broker->m_producer.set(QStringLiteral("message.timeout.ms"), QStringLiteral("5000"));
    BrokerDemo demo;
    demo.where = QStringLiteral("  kafka bootstrap %1  (topic \"%2\", %3 partitions)\n")
                     .arg(broker->m_bootstrap, route)
                     .arg(partitions);
    demo.refusals = QStringLiteral("                  every 97th event goes to a topic the broker refuses,\n"
                                   "                  every 211th is larger than message.max.bytes: both end "
                                   "FAILED\n");
    demo.look = QStringLiteral("  kcat -b %1 -C -t %2 -o beginning -e -f '%k %h\\n'\n")
                    .arg(broker->m_bootstrap, route);
    demo.broker = std::move(broker);
    demo.running = std::move(embedded);
    return demo;
}

} // namespace outbox
