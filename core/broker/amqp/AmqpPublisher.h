#pragma once

#include "core/broker/Publisher.h"
#include "core/broker/amqp/AmqpConnection.h"
#include "core/broker/amqp/AmqpOptions.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMutex>
#include <atomic>
#include <map>
#include <memory>

namespace outbox {

// Publishes to RabbitMQ over AMQP 0-9-1 (rabbitmq-c) with publisher confirms: a channel in confirm
// mode, up to `window` unconfirmed publishes in flight, a report Success only on the broker's
// basic.ack. Every publish is mandatory: a basic.return (NO_ROUTE: no queue bound for the routing
// key) makes that message a deterministic failure with the broker's text, the rest go on. A
// publish to a missing exchange closes the channel (404): the messages for that exchange fail
// deterministically, the channel is reopened and the others are published again. A broker that
// goes away, refuses the login or blocks the connection (memory or disk alarm) is connection-wide:
// connectionDown() says so, what was never written is reported ConnectionWide, what was written and
// not confirmed is an unknown outcome, and the next enqueue() or probe() reconnects.
//
// Single-threaded: the broker's answers are read inside enqueue(), await(), poll() and probe() on the
// caller's thread (a rabbitmq-c connection is not thread-safe); the relay polls between its steps.
class AmqpPublisher final : public Publisher
{
public:
    static Result<std::unique_ptr<AmqpPublisher>> create(const AmqpOptions& options);
    ~AmqpPublisher() override;

    std::unique_ptr<PendingBatch> enqueue(const QVector<BrokerMessage>& messages,
                                          qint64 queueWaitMs = 60000) override;
    void await(PendingBatch& batch, qint64 timeoutMs) override;
    void poll(int timeoutMs) override;
    Status probe(int timeoutMs) override;
    bool connectionDown() const override { return m_connectionDown; }
    QString connectionError() const override { return m_connectionError; }
    QString kind() const override { return QStringLiteral("RabbitMQ"); }
    int inFlightLimit() const override { return m_options.window; }

    int inFlight() const { return int(m_inFlight.size()); }

private:
    struct InFlight
    {
        std::weak_ptr<int> alive;
        PendingBatch* batch = nullptr;
        int index = 0;
        BrokerMessage message;
        qint64 publishedAtMs = 0;
        QString returned; // a basic.return's text: fails when its ack arrives
    };

    explicit AmqpPublisher(AmqpOptions options) : m_options(std::move(options)) {}
    bool ensureConnected();
    Status connect();
    // Publishes one message on the channel within `deadlineMs` (0: the connection's wait limit); false
    // when the connection broke.
    bool publish(PendingBatch& batch, int index, const BrokerMessage& message, qint64 deadlineMs = 0);
    // Reads the broker's frames for up to `timeoutMs`; returns early once a batch completes.
    void serve(qint64 timeoutMs);
    void handleFrame(const amqp_frame_t& frame);
    void settle(quint64 tag, bool multiple, bool acked);
    void channelClosed(const amqp_method_t& method);
    void connectionLost(const QString& why);
    // The deadline's sentence when it cut the connection ("RabbitMQ at … gave no answer: …"), else
    // `otherwise`.
    QString lostBecause(const QString& otherwise) const;
    void expireUnconfirmed();
    void report(PendingBatch& batch, int index, DeliveryClass c, const QString& message,
                bool possiblyPersisted, qint64 tag = -1);
    // Deterministic failure of a recently missing exchange, or empty.
    QString missingExchange(const QString& exchange) const;
    QString exchangeOf(const BrokerMessage& m) const;

    AmqpOptions m_options;
    std::unique_ptr<AmqpConnection> m_connection;
    amqp_channel_t m_channel = 1;
    quint64 m_nextTag = 1; // delivery tag of the next publish on the channel
    std::map<quint64, InFlight> m_inFlight;
    bool m_connectionDown = false;
    bool m_blocked = false;
    QString m_connectionError;
    QElapsedTimer m_sinceConnectAttempt;
    quint64 m_completed = 0; // batches completed, to end poll() early
    struct Missing
    {
        QString text;
        qint64 atMs = 0;
    };
    QHash<QString, Missing> m_missingExchanges;
};

} // namespace outbox
