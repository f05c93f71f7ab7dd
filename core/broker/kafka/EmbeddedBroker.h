#pragma once

#include "core/support/Result.h"

#include <QString>
#include <QVector>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <memory>

namespace outbox {

class TcpForwarder;

// A Kafka-protocol cluster inside this process: librdkafka's mock cluster, listening on
// 127.0.0.1 with the real wire protocol. The embedded default broker of the demo and the tests,
// with hooks to inject request errors, take brokers down and add latency.
// What it keeps: per partition the newest 5 MiB or 100,000 produce batches, whichever is less
// (librdkafka 2.0.2's mock cluster, not configurable); older messages are dropped without a word.
// Its brokers listen on ports the system picks; bootstrapOn() puts a fixed bootstrap port before
// them.
class EmbeddedBroker
{
public:
    static Result<std::unique_ptr<EmbeddedBroker>> start(int brokers = 1);
    ~EmbeddedBroker();
    EmbeddedBroker(const EmbeddedBroker&) = delete;
    EmbeddedBroker& operator=(const EmbeddedBroker&) = delete;

    QString bootstrap() const { return m_bootstrap; }
    // Serves bootstrap connections on 127.0.0.1:port (0: any free port) and makes bootstrap() that
    // one address; clients then reach the brokers at the addresses the metadata names.
    Status bootstrapOn(quint16 port);
    // The newest bytes each partition keeps (librdkafka's mock cluster, fixed).
    static constexpr qint64 KeptBytesPerPartition = 5LL * 1024 * 1024;
    int brokerCount() const { return m_brokers; }

    Status createTopic(const QString& topic, int partitions, int replication = 1);
    // Every metadata answer for the topic carries this error (e.g. TOPIC_AUTHORIZATION_FAILED).
    void setTopicError(const QString& topic, rd_kafka_resp_err_t error);
    // The next produce requests (any broker) fail with these errors, in order.
    void pushProduceErrors(const QVector<rd_kafka_resp_err_t>& errors);
    void clearProduceErrors();
    void setBrokerDown(int brokerId);
    void setBrokerUp(int brokerId);
    void setAllBrokersDown();
    void setAllBrokersUp();
    // Adds round-trip latency to a broker (0 removes it).
    void setLatency(int brokerId, int ms);

private:
    EmbeddedBroker() = default;

    rd_kafka_t* m_rk = nullptr;
    rd_kafka_mock_cluster_t* m_cluster = nullptr;
    std::unique_ptr<TcpForwarder> m_bootstrapPort;
    QString m_bootstrap;
    int m_brokers = 0;
};

} // namespace outbox
