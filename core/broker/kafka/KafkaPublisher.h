#pragma once

#include "core/broker/BrokerMessage.h"
#include "core/broker/Publisher.h"
#include "core/broker/kafka/KafkaProperties.h"
#include "core/support/Result.h"

#include <QHash>
#include <QMutex>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace outbox {

// A librdkafka producer (idempotent, acks=all) that publishes batches and waits for every
// delivery report. Delivery reports (and error callbacks) are served on a thread of the
// publisher's own, so a report is taken and time-stamped when the broker's answer arrives, not when
// the caller's thread is next free (a relay inside a claim or mark statement). Connection-wide trouble (all
// brokers down, authentication, TLS, a fatal idempotence error) is tracked so the relay can keep events
// PENDING and back off.
class KafkaPublisher final : public Publisher
{
public:
    static Result<std::unique_ptr<KafkaPublisher>> create(const QString& bootstrap,
                                                          const KafkaProperties& properties);
    ~KafkaPublisher() override;
    KafkaPublisher(const KafkaPublisher&) = delete;
    KafkaPublisher& operator=(const KafkaPublisher&) = delete;

    // Hands every message to librdkafka; local refusals become reports at once. While librdkafka's
    // queue is full it serves delivery callbacks and tries again, for at most `queueWaitMs` over the
    // whole batch: what is still not queued then is reported with notQueued (nothing was sent).
    std::unique_ptr<PendingBatch> enqueue(const QVector<BrokerMessage>& messages,
                                          qint64 queueWaitMs = 60000) override;
    // Waits until the batch is complete or the deadline passes; what is unanswered by then is
    // reported as an unknown outcome.
    void await(PendingBatch& batch, qint64 timeoutMs) override;
    // Waits up to `timeoutMs` for a batch to complete (any batch of this publisher).
    void poll(int timeoutMs) override;
    // Asks the cluster for metadata: succeeds when some broker answers.
    Status probe(int timeoutMs) override;

    bool connectionDown() const override { return m_connectionDown.load(); }
    bool fatal() const override { return m_fatal.load(); }
    QString connectionError() const override;
    QString kind() const override { return QStringLiteral("Kafka"); }
    rd_kafka_t* handle() const { return m_rk; }

private:
    KafkaPublisher() = default;
    static void onDelivery(rd_kafka_t* rk, const rd_kafka_message_t* message, void* opaque);
    static void onError(rd_kafka_t* rk, int err, const char* reason, void* opaque);
    static void onLog(const rd_kafka_t* rk, int level, const char* facility, const char* buf);
    void noteConnectionError(const QString& why, bool fatal);
    void serveReports();
    void batchCompleted();
    // Waits until `done` holds or `timeoutMs` passes; woken whenever a batch completes.
    template <typename Done> void waitFor(qint64 timeoutMs, Done done);
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
    std::thread m_reportThread;
    std::atomic<bool> m_stopping{false};
    std::mutex m_completedMutex;
    std::condition_variable m_completed; // a batch became complete
    quint64 m_completedCount = 0;        // guarded by m_completedMutex
    std::atomic<bool> m_connectionDown{false};
    std::atomic<bool> m_fatal{false};
    mutable QMutex m_mutex;
    QString m_connectionError;
};

} // namespace outbox
