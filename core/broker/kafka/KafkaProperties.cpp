#include "core/broker/kafka/KafkaProperties.h"

#include <QCoreApplication>

namespace outbox {

KafkaProperties::KafkaProperties()
{
    m_values = {
        {QStringLiteral("enable.idempotence"), QStringLiteral("true")},
        {QStringLiteral("acks"), QStringLiteral("all")},
        {QStringLiteral("message.timeout.ms"), QStringLiteral("10000")},
        {QStringLiteral("linger.ms"), QStringLiteral("0")},
        {QStringLiteral("compression.type"), QStringLiteral("none")},
        {QStringLiteral("socket.keepalive.enable"), QStringLiteral("true")},
        {QStringLiteral("socket.nagle.disable"),
         QStringLiteral("true")}, // small batches must not wait for delayed ACKs
        {QStringLiteral("client.id"), QStringLiteral("outbox-relay")},
    };
}

Status KafkaProperties::setFromArgument(const QString& nameEqualsValue)
{
    const int eq = nameEqualsValue.indexOf(QLatin1Char('='));
    if (eq <= 0)
        return Error::usage(QCoreApplication::translate("outbox::KafkaProperties",
                                                        "invalid Kafka property \"%1\" (expected name=value)")
                                .arg(nameEqualsValue));
    return set(nameEqualsValue.left(eq).trimmed(), nameEqualsValue.mid(eq + 1).trimmed());
}

Status KafkaProperties::set(const QString& name, const QString& value)
{
    // The outbox's promise rests on these: refuse rather than silently weaken it.
    if (name == QLatin1String("enable.idempotence") && value != QLatin1String("true"))
        return Error::usage(QCoreApplication::translate(
            "outbox::KafkaProperties", "enable.idempotence must stay true for the outbox relay"));
    if ((name == QLatin1String("acks") || name == QLatin1String("request.required.acks")) &&
        value != QLatin1String("all") && value != QLatin1String("-1"))
        return Error::usage(QCoreApplication::translate("outbox::KafkaProperties",
                                                        "acks must stay all for the outbox relay"));
    if (name == QLatin1String("enable.gapless.guarantee") || name == QLatin1String("transactional.id"))
        return Error::usage(
            QCoreApplication::translate("outbox::KafkaProperties", "%1 is not supported by the relay")
                .arg(name));
    // librdkafka's alias: one value, so that the lease check sees what librdkafka will use.
    if (name == QLatin1String("delivery.timeout.ms")) {
        m_values.insert(QStringLiteral("message.timeout.ms"), value);
        return {};
    }
    m_values.insert(name, value);
    return {};
}

qint64 KafkaProperties::messageTimeoutMs() const
{
    const QString v = m_values.value(QStringLiteral("message.timeout.ms"));
    bool ok = false;
    const qint64 ms = v.toLongLong(&ok);
    return ok ? ms : 300000;
}

} // namespace outbox
