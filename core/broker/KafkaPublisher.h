#pragma once

#include "core/broker/KafkaMessage.h"
#include "core/broker/KafkaProperties.h"
#include "core/support/Result.h"

#include <QHash>
#include <QMutex>
#include <atomic>
#include <memory>
#include <vector>

namespace outbox {

// One batch handed to the producer; its reports fill in as the broker answers.
class PendingBatch
{
public:
    explicit PendingBatch(int size) : m_reports(size), m_slots(size) {}
    const QVector<DeliveryReport>& reports() const { return m_reports; }
    int outstanding() const { return m_outstanding.load(); }

private:
    friend class KafkaPublisher;
    struct Slot
    {
        PendingBatch* batch = nullptr;
        int index = 0;
    };
    QVector<DeliveryReport> m_reports;
    std::vector<Slot> m_slots;
    std::atomic<int> m_outstanding{0};
};

// A librdkafka producer (idempotent, acks=all) that publishes batches and waits for every
// delivery report. Connection-wide trouble (all brokers down, authentication, TLS, a fatal
// idempotence error) is tracked so the relay can keep events PENDING and back off.
class KafkaPublisher
{
public:
    static Result<std::unique_ptr<KafkaPublisher>> create(const QString& bootstrap,
                                                          const KafkaProperties& properties);
    ~KafkaPublisher();
    KafkaPublisher(const KafkaPublisher&) = delete;
    KafkaPublisher& operator=(const KafkaPublisher&) = delete;

    // Hands every message to librdkafka; local refusals become reports at once. While librdkafka's
    // queue is full it serves delivery callbacks and tries again, for at most `queueWaitMs` over the
    // whole batch: what is still not queued then is reported with notQueued (nothing was sent).
    std::unique_ptr<PendingBatch> enqueue(const QVector<KafkaMessage>& messages, qint64 queueWaitMs = 60000);
    // Serves delivery callbacks until the batch is complete or the deadline passes.
    void await(PendingBatch& batch, qint64 timeoutMs);
    // Serves delivery callbacks for up to `timeoutMs`.
    void poll(int timeoutMs) { rd_kafka_poll(m_rk, timeoutMs); }
    // Asks the cluster for metadata: succeeds when some broker answers.
    Status probe(int timeoutMs);

    bool connectionDown() const { return m_connectionDown.load(); }
    bool fatal() const { return m_fatal.load(); }
    QString connectionError() const;
    rd_kafka_t* handle() const { return m_rk; }

private:
    KafkaPublisher() = default;
    static void onDelivery(rd_kafka_t* rk, const rd_kafka_message_t* message, void* opaque);
    static void onError(rd_kafka_t* rk, int err, const char* reason, void* opaque);
    static void onLog(const rd_kafka_t* rk, int level, const char* facility, const char* buf);
    void noteConnectionError(const QString& why, bool fatal);
    // The topic's error in cluster metadata (cached for a while); deterministic topic errors such
    // as TOPIC_AUTHORIZATION_FAILED fail the topic's messages at once instead of at the timeout.
    rd_kafka_resp_err_t topicError(const QString& topic);

    struct TopicCheck
    {
        rd_kafka_resp_err_t error = RD_KAFKA_RESP_ERR_NO_ERROR;
        qint64 checkedAtMs = 0;
    };
    QHash<QString, TopicCheck> m_topicChecks;

    rd_kafka_t* m_rk = nullptr;
    std::atomic<bool> m_connectionDown{false};
    std::atomic<bool> m_fatal{false};
    mutable QMutex m_mutex;
    QString m_connectionError;
};

} // namespace outbox
