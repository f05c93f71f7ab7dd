#include "core/broker/amqp/AmqpSource.h"

#include <QElapsedTimer>
#include <QThread>
#include <algorithm>

namespace outbox {

namespace {

constexpr amqp_channel_t Channel = 1;

QByteArray bytesOf(amqp_bytes_t b)
{
    return QByteArray(static_cast<const char*>(b.bytes), int(b.len));
}

// A header value as text: strings as they are, numbers and booleans written out.
QByteArray fieldText(const amqp_field_value_t& v)
{
    switch (v.kind) {
    case AMQP_FIELD_KIND_UTF8:
    case AMQP_FIELD_KIND_BYTES:
        return bytesOf(v.value.bytes);
    case AMQP_FIELD_KIND_BOOLEAN:
        return v.value.boolean ? QByteArrayLiteral("true") : QByteArrayLiteral("false");
    case AMQP_FIELD_KIND_I8:
        return QByteArray::number(v.value.i8);
    case AMQP_FIELD_KIND_U8:
        return QByteArray::number(v.value.u8);
    case AMQP_FIELD_KIND_I16:
        return QByteArray::number(v.value.i16);
    case AMQP_FIELD_KIND_U16:
        return QByteArray::number(v.value.u16);
    case AMQP_FIELD_KIND_I32:
        return QByteArray::number(v.value.i32);
    case AMQP_FIELD_KIND_U32:
        return QByteArray::number(v.value.u32);
    case AMQP_FIELD_KIND_I64:
        return QByteArray::number(qint64(v.value.i64));
    case AMQP_FIELD_KIND_U64:
    case AMQP_FIELD_KIND_TIMESTAMP:
        return QByteArray::number(quint64(v.value.u64));
    default:
        return {};
    }
}

} // namespace

AmqpSource::~AmqpSource()
{
    close();
}

Status AmqpSource::open()
{
    m_sinceAttempt.start();
    auto c = AmqpConnection::open(m_amqp, QStringLiteral("outbox consumer %1").arg(m_settings.consumerName));
    if (!c)
        return c.error();
    std::unique_ptr<AmqpConnection> connection = std::move(c).value();
    if (Status s = connection->openChannel(Channel, false); !s)
        return s;
    // One batch in flight: the broker sends no more until the consumer acknowledges.
    amqp_basic_qos(connection->state(), Channel, 0, uint16_t(std::min(m_settings.batchSize, 65535)), 0);
    if (QString why = connection->rpcError(QStringLiteral("basic.qos"), Channel); !why.isEmpty())
        return Error::runtime(QStringLiteral("RabbitMQ: %1").arg(why));
    const QByteArray queue = m_amqp.queue.toUtf8();
    const QByteArray tag = QStringLiteral("outbox-%1").arg(m_settings.consumerName).toUtf8();
    amqp_basic_consume(connection->state(), Channel, AmqpConnection::bytes(queue), AmqpConnection::bytes(tag),
                       0, 0 /* manual acknowledgements */, 0, amqp_empty_table);
    if (QString why =
            connection->rpcError(QStringLiteral("consuming queue \"%1\"").arg(m_amqp.queue), Channel);
        !why.isEmpty())
        return Error::runtime(QStringLiteral("RabbitMQ: %1").arg(why));
    m_connection = std::move(connection);
    ++m_epoch;
    m_lastError.clear();
    return {};
}

void AmqpSource::close()
{
    m_connection.reset(); // unacknowledged deliveries go back to the queue
}

void AmqpSource::lost(const QString& why)
{
    if (why != m_lastError)
        m_log(QStringLiteral("RabbitMQ: %1; reconnecting").arg(why));
    m_lastError = why;
    if (m_connection)
        m_connection->markBroken();
    m_connection.reset();
}

InboxMessage AmqpSource::decode(const amqp_envelope_t& envelope) const
{
    InboxMessage msg;
    msg.topic = QString::fromUtf8(bytesOf(envelope.routing_key));
    msg.offset = qint64(envelope.delivery_tag);
    msg.redelivered = envelope.redelivered != 0;
    msg.sourceEpoch = m_epoch;
    msg.payload = bytesOf(envelope.message.body);
    const amqp_basic_properties_t& p = envelope.message.properties;
    if (p._flags & AMQP_BASIC_HEADERS_FLAG) {
        for (int i = 0; i < p.headers.num_entries; ++i)
            msg.headers.append({bytesOf(p.headers.entries[i].key), fieldText(p.headers.entries[i].value)});
    }
    // A publisher other than the relay may carry the id and type in the AMQP properties only.
    if ((p._flags & AMQP_BASIC_MESSAGE_ID_FLAG) && !msg.hasHeader("event_id"))
        msg.headers.append({QByteArrayLiteral("event_id"), bytesOf(p.message_id)});
    if ((p._flags & AMQP_BASIC_TYPE_FLAG) && !msg.hasHeader("event_type"))
        msg.headers.append({QByteArrayLiteral("event_type"), bytesOf(p.type)});
    msg.key = msg.header("aggregate_id");
    return msg;
}

QVector<InboxMessage> AmqpSource::poll(int max, int firstWaitMs, int moreWaitMs)
{
    QVector<InboxMessage> batch;
    if (!m_connection) {
        if (m_sinceAttempt.isValid() && m_sinceAttempt.elapsed() < 1000) {
            QThread::msleep(quint64(std::max(1, firstWaitMs)));
            return batch;
        }
        if (Status s = open(); !s) {
            lost(s.message());
            QThread::msleep(quint64(std::max(1, firstWaitMs)));
            return batch;
        }
        m_log(QStringLiteral("RabbitMQ: consuming queue %1 again").arg(m_amqp.queue));
    }
    QElapsedTimer sinceFirst;
    while (m_connection && batch.size() < max) {
        const qint64 wait =
            batch.isEmpty() ? firstWaitMs : std::max<qint64>(0, moreWaitMs - sinceFirst.elapsed());
        struct timeval tv;
        tv.tv_sec = wait / 1000;
        tv.tv_usec = (wait % 1000) * 1000;
        amqp_maybe_release_buffers(m_connection->state());
        amqp_envelope_t envelope;
        const amqp_rpc_reply_t r = amqp_consume_message(m_connection->state(), &envelope, &tv, 0);
        if (r.reply_type == AMQP_RESPONSE_NORMAL) {
            if (batch.isEmpty())
                sinceFirst.start();
            batch << decode(envelope);
            amqp_destroy_envelope(&envelope);
            continue;
        }
        if (r.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION && r.library_error == AMQP_STATUS_TIMEOUT)
            break;
        if (r.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION &&
            r.library_error == AMQP_STATUS_UNEXPECTED_STATE) {
            // Not a delivery: a close, a cancel by the broker (queue deleted), or a stray ack.
            amqp_frame_t frame;
            if (amqp_simple_wait_frame(m_connection->state(), &frame) != AMQP_STATUS_OK) {
                lost(QStringLiteral("connection lost"));
                break;
            }
            if (frame.frame_type != AMQP_FRAME_METHOD)
                continue;
            const amqp_method_t& method = frame.payload.method;
            if (method.id == AMQP_CONNECTION_CLOSE_METHOD || method.id == AMQP_CHANNEL_CLOSE_METHOD) {
                const QString text = AmqpConnection::closeText(method);
                if (method.id == AMQP_CONNECTION_CLOSE_METHOD) {
                    amqp_connection_close_ok_t ok{};
                    (void)amqp_send_method(m_connection->state(), 0, AMQP_CONNECTION_CLOSE_OK_METHOD, &ok);
                }
                lost(QStringLiteral("the broker closed the %1: %2")
                         .arg(method.id == AMQP_CONNECTION_CLOSE_METHOD ? QStringLiteral("connection")
                                                                        : QStringLiteral("channel"),
                              text));
                break;
            }
            if (method.id == AMQP_BASIC_CANCEL_METHOD) {
                lost(QStringLiteral("the broker cancelled the consumer of queue %1 (deleted?)")
                         .arg(m_amqp.queue));
                break;
            }
            continue;
        }
        lost(r.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION
                 ? QString::fromUtf8(amqp_error_string2(r.library_error))
                 : QStringLiteral("unexpected reply"));
        break;
    }
    return batch;
}

Status AmqpSource::acknowledge(const QVector<InboxMessage>& messages, int from, int to)
{
    if (from >= to)
        return {};
    const InboxMessage& last = messages.at(to - 1);
    if (!m_connection || last.sourceEpoch != m_epoch)
        return Error::runtime(
            QStringLiteral("not acknowledged: the connection that delivered them is gone (they come again)"));
    // Every message before these was acknowledged or rejected already: multiple covers exactly [from, to).
    const int rc = amqp_basic_ack(m_connection->state(), Channel, uint64_t(last.offset), 1);
    if (rc != AMQP_STATUS_OK) {
        lost(QString::fromUtf8(amqp_error_string2(rc)));
        return Error::runtime(
            QStringLiteral("basic.ack failed: %1").arg(QString::fromUtf8(amqp_error_string2(rc))));
    }
    return {};
}

Status AmqpSource::deadLettered(const InboxMessage& message)
{
    if (!m_connection || message.sourceEpoch != m_epoch)
        return Error::runtime(QStringLiteral("not settled: the connection that delivered it is gone"));
    const int rc =
        amqp_basic_reject(m_connection->state(), Channel, uint64_t(message.offset), 0 /* no requeue */);
    if (rc != AMQP_STATUS_OK) {
        lost(QString::fromUtf8(amqp_error_string2(rc)));
        return Error::runtime(
            QStringLiteral("basic.reject failed: %1").arg(QString::fromUtf8(amqp_error_string2(rc))));
    }
    return {};
}

} // namespace outbox
