#include "core/broker/amqp/AmqpConnection.h"

#include <QCoreApplication>
#include <amqp_ssl_socket.h>
#include <amqp_tcp_socket.h>
#include <sys/socket.h>

namespace outbox {

namespace {

amqp_table_entry_t boolEntry(const char* key, bool value)
{
    amqp_table_entry_t e{};
    e.key = amqp_cstring_bytes(key);
    e.value.kind = AMQP_FIELD_KIND_BOOLEAN;
    e.value.value.boolean = value ? 1 : 0;
    return e;
}

amqp_table_entry_t textEntry(const char* key, amqp_bytes_t value)
{
    amqp_table_entry_t e{};
    e.key = amqp_cstring_bytes(key);
    e.value.kind = AMQP_FIELD_KIND_UTF8;
    e.value.value.bytes = value;
    return e;
}

} // namespace

amqp_bytes_t AmqpConnection::bytes(const QByteArray& data)
{
    amqp_bytes_t b;
    b.len = size_t(data.size());
    b.bytes = const_cast<char*>(data.constData());
    return b;
}

QString AmqpConnection::closeText(const amqp_method_t& method, int* code)
{
    int c = 0;
    QString text;
    if (method.id == AMQP_CONNECTION_CLOSE_METHOD) {
        const auto* m = static_cast<const amqp_connection_close_t*>(method.decoded);
        c = m->reply_code;
        text = QString::fromUtf8(static_cast<const char*>(m->reply_text.bytes), int(m->reply_text.len));
    } else if (method.id == AMQP_CHANNEL_CLOSE_METHOD) {
        const auto* m = static_cast<const amqp_channel_close_t*>(method.decoded);
        c = m->reply_code;
        text = QString::fromUtf8(static_cast<const char*>(m->reply_text.bytes), int(m->reply_text.len));
    } else {
        text = QStringLiteral("unexpected method 0x%1").arg(method.id, 8, 16, QLatin1Char('0'));
    }
    if (code)
        *code = c;
    return text;
}

Result<std::unique_ptr<AmqpConnection>> AmqpConnection::open(const AmqpOptions& options,
                                                             const QString& purpose)
{
    const AmqpUrl& url = options.url;
    if (url.host.isEmpty())
        return Error::usage(
                   QCoreApplication::translate("outbox::AmqpBroker",
                                               "no AMQP broker URL given (amqp://user@host:5672/vhost)"))
            .about(QStringLiteral("broker.url"));
    std::unique_ptr<AmqpConnection> c(new AmqpConnection);
    c->m_state = amqp_new_connection();
    amqp_socket_t* socket = nullptr;
    if (url.tls) {
        socket = amqp_ssl_socket_new(c->m_state);
        if (socket && !options.caFile.isEmpty() &&
            amqp_ssl_socket_set_cacert(socket, options.caFile.toLocal8Bit().constData()) != AMQP_STATUS_OK) {
            c->m_broken = true;
            return Error::usage(QStringLiteral("cannot read the CA certificate %1").arg(options.caFile))
                .about(QStringLiteral("amqp.ca_file"));
        }
        if (socket) {
            amqp_ssl_socket_set_verify_peer(socket, 1);
            amqp_ssl_socket_set_verify_hostname(socket, 1);
        }
    } else {
        socket = amqp_tcp_socket_new(c->m_state);
    }
    if (!socket) {
        c->m_broken = true;
        return Error::runtime(QStringLiteral("cannot create an AMQP socket"));
    }
    const QString where = url.address();
    struct timeval connectTimeout;
    connectTimeout.tv_sec = options.connectTimeoutMs / 1000;
    connectTimeout.tv_usec = (options.connectTimeoutMs % 1000) * 1000;
    const int opened =
        amqp_socket_open_noblock(socket, url.host.toUtf8().constData(), url.port, &connectTimeout);
    if (opened != AMQP_STATUS_OK) {
        c->m_broken = true;
        return Error::runtime(QStringLiteral("RabbitMQ unreachable at %1: %2")
                                  .arg(where, QString::fromUtf8(amqp_error_string2(opened))));
    }
    // The handshake as a whole within the connect timeout, whatever the broker sends (rabbitmq-c's
    // own timeouts bound single waits: a broker that trickles Connection.Start held it for minutes).
    c->m_waitLimitMs = std::max(1000, options.connectTimeoutMs);
    c->m_deadline.watch(amqp_get_sockfd(c->m_state));
    AmqpDeadlineScope handshake(c->m_deadline, c->m_waitLimitMs, QStringLiteral("the handshake"));
    // Every later RPC (channel open, declare, qos) gives up instead of hanging on a silent broker.
    struct timeval rpcTimeout;
    rpcTimeout.tv_sec = 10;
    rpcTimeout.tv_usec = 0;
    amqp_set_rpc_timeout(c->m_state, &rpcTimeout);
    amqp_set_handshake_timeout(c->m_state, &connectTimeout);

    amqp_table_entry_t capabilities[] = {boolEntry("publisher_confirms", true), boolEntry("basic.nack", true),
                                         boolEntry("connection.blocked", true),
                                         boolEntry("authentication_failure_close", true),
                                         boolEntry("consumer_cancel_notify", true)};
    const QByteArray name = purpose.toUtf8();
    amqp_table_entry_t client[3];
    client[0] = textEntry("product", amqp_cstring_bytes("outbox-console"));
    client[1] = textEntry("connection_name", bytes(name));
    client[2].key = amqp_cstring_bytes("capabilities");
    client[2].value.kind = AMQP_FIELD_KIND_TABLE;
    client[2].value.value.table.num_entries = int(sizeof capabilities / sizeof capabilities[0]);
    client[2].value.value.table.entries = capabilities;
    amqp_table_t properties;
    properties.num_entries = 3;
    properties.entries = client;
    const QByteArray user = url.user.toUtf8();
    const QByteArray password = url.password.toUtf8();
    const QByteArray vhost = url.vhost.toUtf8();
    const amqp_rpc_reply_t login = amqp_login_with_properties(
        c->m_state, vhost.constData(), 0, 131072, options.heartbeatSeconds, &properties,
        AMQP_SASL_METHOD_PLAIN, user.constData(), password.constData());
    if (login.reply_type != AMQP_RESPONSE_NORMAL) {
        QString why = c->replyError(login, QStringLiteral("login"));
        c->m_broken = true;
        if (c->m_deadline.expired())
            return Error::runtime(
                QStringLiteral("RabbitMQ at %1 gave %2").arg(where, c->m_deadline.expiredText()));
        if (why.contains(QLatin1String("ACCESS_REFUSED")))
            why += QStringLiteral(" (check the user in the broker URL and its password: [broker] password, "
                                  "OUTBOX_BROKER_PASSWORD or [amqp] password_file)");
        else if (why.contains(QLatin1String("NOT_ALLOWED")) || why.contains(QLatin1String("vhost")))
            why += QStringLiteral(" (does vhost \"%1\" exist, and may user \"%2\" use it?)")
                       .arg(url.vhost, url.user);
        return Error::runtime(QStringLiteral("RabbitMQ at %1 refused the connection: %2").arg(where, why));
    }
    return c;
}

AmqpConnection::~AmqpConnection()
{
    if (!m_state)
        return;
    if (!m_broken) {
        struct timeval t;
        t.tv_sec = 1;
        t.tv_usec = 0;
        amqp_set_rpc_timeout(m_state, &t);
        AmqpDeadlineScope closing(m_deadline, 1000, QStringLiteral("closing the connection"));
        (void)amqp_connection_close(m_state, AMQP_REPLY_SUCCESS);
    }
    m_deadline.watch(-1); // the descriptor is closed next, and its number may be reused at once
    amqp_destroy_connection(m_state);
}

void AmqpConnection::interrupt()
{
    const int fd = amqp_get_sockfd(m_state);
    if (fd >= 0)
        ::shutdown(fd, SHUT_RDWR);
    m_broken = true;
}

Status AmqpConnection::openChannel(amqp_channel_t channel, bool confirms)
{
    AmqpDeadlineScope opening(m_deadline, m_waitLimitMs, QStringLiteral("opening a channel"));
    amqp_channel_open(m_state, channel);
    if (QString why = rpcError(QStringLiteral("channel.open"), channel); !why.isEmpty())
        return Error::runtime(why);
    if (confirms) {
        amqp_confirm_select(m_state, channel);
        if (QString why = rpcError(QStringLiteral("confirm.select"), channel); !why.isEmpty())
            return Error::runtime(why);
    }
    return {};
}

QString AmqpConnection::rpcError(const QString& doing, amqp_channel_t channel)
{
    return replyError(amqp_get_rpc_reply(m_state), doing, channel);
}

QString AmqpConnection::replyError(const amqp_rpc_reply_t& r, const QString& doing, amqp_channel_t channel)
{
    switch (r.reply_type) {
    case AMQP_RESPONSE_NORMAL:
        return {};
    case AMQP_RESPONSE_NONE:
        m_broken = true;
        return QStringLiteral("%1: no reply from the broker").arg(doing);
    case AMQP_RESPONSE_LIBRARY_EXCEPTION:
        m_broken = true;
        if (m_deadline.expired()) // the socket was cut because the broker took too long
            return QStringLiteral("%1: %2").arg(doing, m_deadline.expiredText());
        return QStringLiteral("%1: %2").arg(doing, QString::fromUtf8(amqp_error_string2(r.library_error)));
    case AMQP_RESPONSE_SERVER_EXCEPTION:
        break;
    }
    int code = 0;
    const QString text = closeText(r.reply, &code);
    if (r.reply.id == AMQP_CONNECTION_CLOSE_METHOD) {
        amqp_connection_close_ok_t ok{};
        (void)amqp_send_method(m_state, 0, AMQP_CONNECTION_CLOSE_OK_METHOD, &ok);
        m_broken = true;
    } else if (r.reply.id == AMQP_CHANNEL_CLOSE_METHOD) {
        amqp_channel_close_ok_t ok{};
        (void)amqp_send_method(m_state, channel, AMQP_CHANNEL_CLOSE_OK_METHOD, &ok);
    }
    return QStringLiteral("%1: %2 (%3)").arg(doing, text).arg(code);
}

} // namespace outbox
