#include "core/broker/amqp/AmqpAdmin.h"

#include <amqp.h>
#include <vector>

namespace outbox {

Result<std::unique_ptr<AmqpAdmin>> AmqpAdmin::connect(const AmqpOptions& options)
{
    auto c = AmqpConnection::open(options, QStringLiteral("outbox admin"));
    if (!c)
        return c.error();
    std::unique_ptr<AmqpAdmin> admin(new AmqpAdmin(std::move(c).value()));
    if (Status s = admin->ensureChannel(); !s)
        return s.error();
    return admin;
}

Status AmqpAdmin::ensureChannel()
{
    if (m_channelOpen)
        return {};
    if (m_connection->broken())
        return Error::runtime(QStringLiteral("the connection to RabbitMQ is closed"));
    m_channel = amqp_channel_t(m_channel % 2000 + 1);
    if (Status s = m_connection->openChannel(m_channel, false); !s)
        return s;
    m_channelOpen = true;
    return {};
}

Status AmqpAdmin::step(const QString& doing)
{
    const QString why = m_connection->rpcError(doing, m_channel);
    if (why.isEmpty())
        return {};
    m_channelOpen = false; // a refusal closes the channel
    return Error::runtime(QStringLiteral("RabbitMQ: %1").arg(why));
}

Status AmqpAdmin::declareExchange(const QString& name, const QString& type)
{
    if (Status s = ensureChannel(); !s)
        return s;
    const QByteArray n = name.toUtf8();
    const QByteArray t = type.toUtf8();
    amqp_exchange_declare(m_connection->state(), m_channel, AmqpConnection::bytes(n),
                          AmqpConnection::bytes(t), 0, 1 /* durable */, 0, 0, amqp_empty_table);
    return step(QStringLiteral("declaring exchange \"%1\"").arg(name));
}

Status AmqpAdmin::deleteExchange(const QString& name)
{
    if (Status s = ensureChannel(); !s)
        return s;
    const QByteArray n = name.toUtf8();
    amqp_exchange_delete(m_connection->state(), m_channel, AmqpConnection::bytes(n), 0);
    return step(QStringLiteral("deleting exchange \"%1\"").arg(name));
}

Status AmqpAdmin::declareQueue(const QString& queue, const QString& exchange, const QString& bindingKey,
                               const QString& deadLetterExchange)
{
    if (Status s = ensureChannel(); !s)
        return s;
    const QByteArray q = queue.toUtf8();
    const QByteArray dlx = deadLetterExchange.toUtf8();
    amqp_table_entry_t entry{};
    amqp_table_t arguments = amqp_empty_table;
    if (!dlx.isEmpty()) {
        entry.key = amqp_cstring_bytes("x-dead-letter-exchange");
        entry.value.kind = AMQP_FIELD_KIND_UTF8;
        entry.value.value.bytes = AmqpConnection::bytes(dlx);
        arguments.num_entries = 1;
        arguments.entries = &entry;
    }
    amqp_queue_declare(m_connection->state(), m_channel, AmqpConnection::bytes(q), 0, 1 /* durable */, 0, 0,
                       arguments);
    if (Status s = step(QStringLiteral("declaring queue \"%1\"").arg(queue)); !s)
        return s;
    if (exchange.isEmpty())
        return {};
    const QByteArray e = exchange.toUtf8();
    const QByteArray k = bindingKey.toUtf8();
    amqp_queue_bind(m_connection->state(), m_channel, AmqpConnection::bytes(q), AmqpConnection::bytes(e),
                    AmqpConnection::bytes(k), amqp_empty_table);
    return step(QStringLiteral("binding queue \"%1\" to exchange \"%2\" with \"%3\"")
                    .arg(queue, exchange, bindingKey));
}

Status AmqpAdmin::deleteQueue(const QString& queue)
{
    if (Status s = ensureChannel(); !s)
        return s;
    const QByteArray q = queue.toUtf8();
    amqp_queue_delete(m_connection->state(), m_channel, AmqpConnection::bytes(q), 0, 0);
    return step(QStringLiteral("deleting queue \"%1\"").arg(queue));
}

Result<qint64> AmqpAdmin::messageCount(const QString& queue)
{
    if (Status s = ensureChannel(); !s)
        return s.error();
    const QByteArray q = queue.toUtf8();
    amqp_queue_declare_ok_t* ok =
        amqp_queue_declare(m_connection->state(), m_channel, AmqpConnection::bytes(q), 1 /* passive */, 0, 0,
                           0, amqp_empty_table);
    if (Status s = step(QStringLiteral("looking up queue \"%1\"").arg(queue)); !s)
        return s.error();
    return qint64(ok ? ok->message_count : 0);
}

Result<bool> AmqpAdmin::exchangeExists(const QString& name)
{
    if (Status s = ensureChannel(); !s)
        return s.error();
    const QByteArray n = name.toUtf8();
    amqp_exchange_declare(m_connection->state(), m_channel, AmqpConnection::bytes(n),
                          AmqpConnection::bytes(QByteArrayLiteral("topic")), 1 /* passive */, 0, 0, 0,
                          amqp_empty_table);
    const Status s = step(QStringLiteral("looking up exchange \"%1\"").arg(name));
    if (s)
        return true;
    if (s.message().contains(QLatin1String("NOT_FOUND")))
        return false;
    return s.error();
}

} // namespace outbox
