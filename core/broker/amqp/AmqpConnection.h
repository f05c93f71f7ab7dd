#pragma once

#include "core/broker/amqp/AmqpDeadline.h"
#include "core/broker/amqp/AmqpOptions.h"
#include "core/support/Result.h"

#include <QByteArray>
#include <QString>
#include <amqp.h>
#include <memory>

namespace outbox {

// One logged-in AMQP 0-9-1 connection (rabbitmq-c), shared by the publisher, the consumer source and
// the admin steps (declare, bind). It announces the capabilities the outbox relies on
// (publisher_confirms, basic.nack, connection.blocked, authentication_failure_close) and turns the
// library's and the broker's errors into sentences.
class AmqpConnection
{
public:
    // `purpose` names the connection in the broker's management views ("outbox relay").
    static Result<std::unique_ptr<AmqpConnection>> open(const AmqpOptions& options, const QString& purpose);
    ~AmqpConnection();
    AmqpConnection(const AmqpConnection&) = delete;
    AmqpConnection& operator=(const AmqpConnection&) = delete;

    amqp_connection_state_t state() const { return m_state; }
    // Opens a channel; with `confirms`, in publisher-confirm mode.
    Status openChannel(amqp_channel_t channel, bool confirms);
    // The last RPC's failure as a sentence, and the broker's close answered (close-ok) so the
    // connection or channel is left in a clean state. Empty when it succeeded.
    QString rpcError(const QString& doing, amqp_channel_t channel = 1);
    // The same for a reply the caller holds (amqp_login's).
    QString replyError(const amqp_rpc_reply_t& reply, const QString& doing, amqp_channel_t channel = 1);
    // After a socket error or a connection.close: no close handshake when destroyed.
    void markBroken() { m_broken = true; }
    bool broken() const { return m_broken; }
    // Wakes a thread blocked on the socket (shutdown(2)); the connection is broken afterwards.
    void interrupt();
    // The overall deadline of whatever waits on this connection's socket (AmqpDeadline): arm it
    // around a call that may block, ask it why the call failed.
    AmqpDeadline& deadline() { return m_deadline; }
    // How long a connect, the handshake, a channel's opening or a publish may wait on the broker.
    qint64 waitLimitMs() const { return m_waitLimitMs; }

    static amqp_bytes_t bytes(const QByteArray& data);
    // "NOT_FOUND - no exchange 'x' in vhost '/'" of a channel.close or connection.close method.
    static QString closeText(const amqp_method_t& method, int* code = nullptr);

private:
    AmqpConnection() = default;
    amqp_connection_state_t m_state = nullptr;
    bool m_broken = false;
    qint64 m_waitLimitMs = 5000;
    AmqpDeadline m_deadline;
};

} // namespace outbox
