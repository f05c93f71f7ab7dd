#include "tests/support/AmqpTestKit.h"

#include "core/broker/amqp/AmqpConnection.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QProcessEnvironment>
#include <amqp.h>

namespace outbox::test {

namespace {

QString text(amqp_bytes_t b)
{
    return QString::fromUtf8(static_cast<const char*>(b.bytes), int(b.len));
}

} // namespace

bool amqpAvailable()
{
    return !qEnvironmentVariable("OUTBOX_TEST_AMQP").isEmpty();
}

QString testAmqpUrl()
{
    return QStringLiteral("amqp://guest@%1/%2f").arg(qEnvironmentVariable("OUTBOX_TEST_AMQP"));
}

AmqpOptions testAmqpOptions(const QString& exchange)
{
    AmqpOptions o;
    auto url = BrokerUrl::parse(testAmqpUrl());
    if (!url)
        qFatal("%s", qPrintable(url.message()));
    o.url = *url;
    o.url.password = QStringLiteral("guest");
    o.exchange = exchange;
    o.confirmTimeoutMs = 3000;
    o.connectTimeoutMs = 2000;
    return o;
}

Status rabbitmqctl(const QStringList& arguments, int timeoutMs)
{
    const QString dir = qEnvironmentVariable("OUTBOX_TEST_RABBITMQ_DIR");
    const QString script = qEnvironmentVariable("OUTBOX_TEST_RABBITMQ_SCRIPT");
    if (dir.isEmpty() || script.isEmpty())
        return Error::usage(QStringLiteral("OUTBOX_TEST_RABBITMQ_DIR/SCRIPT not set"));
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("bash"), QStringList{script, QStringLiteral("ctl"), dir} + arguments);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return Error::runtime(
            QStringLiteral("rabbitmqctl %1 timed out").arg(arguments.join(QLatin1Char(' '))));
    }
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return Error::runtime(QStringLiteral("rabbitmqctl %1 failed: %2")
                                  .arg(arguments.join(QLatin1Char(' ')), QString::fromUtf8(p.readAll())));
    return {};
}

QVector<AmqpReadMessage> readQueue(const QString& queue, int expected, int idleMs)
{
    QVector<AmqpReadMessage> out;
    auto c = AmqpConnection::open(testAmqpOptions(), QStringLiteral("outbox test reader"));
    if (!c)
        qFatal("%s", qPrintable(c.message()));
    AmqpConnection& conn = **c;
    if (Status s = conn.openChannel(1, false); !s)
        qFatal("%s", qPrintable(s.message()));
    amqp_basic_qos(conn.state(), 1, 0, 1000, 0);
    const QByteArray q = queue.toUtf8();
    amqp_basic_consume(conn.state(), 1, AmqpConnection::bytes(q), amqp_empty_bytes, 0, 1 /* no ack */, 0,
                       amqp_empty_table);
    if (QString why = conn.rpcError(QStringLiteral("basic.consume")); !why.isEmpty())
        qFatal("%s", qPrintable(why));
    QElapsedTimer idle;
    idle.start();
    while (out.size() < expected && idle.elapsed() < idleMs) {
        amqp_envelope_t envelope;
        amqp_maybe_release_buffers(conn.state());
        struct timeval tv;
        tv.tv_sec = 0;
        tv.tv_usec = 100000;
        const amqp_rpc_reply_t r = amqp_consume_message(conn.state(), &envelope, &tv, 0);
        if (r.reply_type != AMQP_RESPONSE_NORMAL) {
            if (r.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION && r.library_error == AMQP_STATUS_TIMEOUT)
                continue;
            qFatal("reading queue %s failed", qPrintable(queue));
        }
        idle.restart();
        AmqpReadMessage m;
        m.routingKey = text(envelope.routing_key);
        m.exchange = text(envelope.exchange);
        m.redelivered = envelope.redelivered;
        const amqp_basic_properties_t& p = envelope.message.properties;
        if (p._flags & AMQP_BASIC_MESSAGE_ID_FLAG)
            m.messageId = text(p.message_id);
        if (p._flags & AMQP_BASIC_TYPE_FLAG)
            m.type = text(p.type);
        if (p._flags & AMQP_BASIC_CONTENT_TYPE_FLAG)
            m.contentType = text(p.content_type);
        if (p._flags & AMQP_BASIC_DELIVERY_MODE_FLAG)
            m.deliveryMode = p.delivery_mode;
        if (p._flags & AMQP_BASIC_TIMESTAMP_FLAG)
            m.timestamp = p.timestamp;
        if (p._flags & AMQP_BASIC_HEADERS_FLAG) {
            for (int i = 0; i < p.headers.num_entries; ++i) {
                const amqp_table_entry_t& e = p.headers.entries[i];
                if (e.value.kind == AMQP_FIELD_KIND_UTF8 || e.value.kind == AMQP_FIELD_KIND_BYTES)
                    m.headers.insert(text(e.key).toUtf8(), text(e.value.value.bytes).toUtf8());
            }
        }
        m.body =
            QByteArray(static_cast<const char*>(envelope.message.body.bytes), int(envelope.message.body.len));
        amqp_destroy_envelope(&envelope);
        out << m;
    }
    return out;
}

} // namespace outbox::test
