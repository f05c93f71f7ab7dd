#pragma once

#include "core/broker/kafka/EmbeddedBroker.h"
#include "core/broker/kafka/KafkaPublisher.h"
#include "core/consumer/InboxConsumer.h"

#include <QThread>
#include <atomic>
#include <memory>

namespace outbox::test {

// Runs one InboxConsumer on its own thread until stop().
class ConsumerThread
{
public:
    ConsumerThread(const DatabaseUrl& url, ConsumerOptions options, InboxConsumer::Handler handler)
        : m_target(url, QString()), m_options(std::move(options)), m_handler(std::move(handler))
    {
    }
    ~ConsumerThread() { stop(); }
    void setBatchHandler(InboxConsumer::BatchHandler handler) { m_batchHandler = std::move(handler); }
    void start()
    {
        m_thread.reset(QThread::create([this] {
            InboxConsumer consumer(m_target, m_options, m_handler, m_stats,
                                   [](const QString& line) { qDebug("%s", qPrintable(line)); });
            consumer.setBatchHandler(m_batchHandler);
            Status s = consumer.run(m_stop);
            if (!s)
                qWarning("consumer: %s", qPrintable(s.message()));
        }));
        m_thread->start();
    }
    void stop()
    {
        m_stop = true;
        if (m_thread) {
            m_thread->wait();
            m_thread.reset();
        }
    }
    InboxConsumerStats& stats() { return m_stats; }

private:
    DatabaseTarget m_target;
    ConsumerOptions m_options;
    InboxConsumer::Handler m_handler;
    InboxConsumer::BatchHandler m_batchHandler;
    InboxConsumerStats m_stats;
    std::atomic<bool> m_stop{false};
    std::unique_ptr<QThread> m_thread;
};

inline std::unique_ptr<EmbeddedBroker> startBroker(const QString& topic, int partitions)
{
    auto b = EmbeddedBroker::start(1);
    if (!b || !(*b)->createTopic(topic, partitions))
        qFatal("cannot start the embedded broker");
    return std::move(b).value();
}

// Produces the messages and waits for every ack.
inline void produce(const QString& bootstrap, const QVector<BrokerMessage>& messages)
{
    auto publisher = KafkaPublisher::create(bootstrap, KafkaProperties());
    if (!publisher)
        qFatal("%s", qPrintable(publisher.message()));
    auto pending = (*publisher)->enqueue(messages);
    (*publisher)->await(*pending, 30000);
    for (const DeliveryReport& r : pending->reports())
        if (r.deliveryClass != DeliveryClass::Success)
            qFatal("produce failed: %s", qPrintable(r.message));
}

inline BrokerMessage orderMessage(const QString& topic, const QString& eventId, const QString& orderId,
                                  const QString& sku, int quantity = 1)
{
    BrokerMessage m;
    m.topic = topic;
    m.key = orderId.toUtf8();
    m.payload = QStringLiteral("{\"order_id\":\"%1\",\"sku\":\"%2\",\"quantity\":%3}")
                    .arg(orderId, sku)
                    .arg(quantity)
                    .toUtf8();
    m.headers = {{"event_id", eventId.toUtf8()},
                 {"event_type", "OrderCreated"},
                 {"aggregate_type", "Order"},
                 {"aggregate_id", orderId.toUtf8()},
                 {"schema_version", "1"}};
    return m;
}

inline ConsumerOptions testConsumerOptions(const QString& bootstrap, const QString& topic,
                                           const QString& name)
{
    ConsumerOptions o;
    o.consumerName = name;
    o.bootstrap = bootstrap;
    o.topics = {topic};
    o.maxAttempts = 3;
    o.backoffBaseMs = 20;
    o.backoffCapMs = 100;
    o.pollMs = 50;
    o.kafka.insert(QStringLiteral("session.timeout.ms"), QStringLiteral("6000"));
    return o;
}

} // namespace outbox::test
