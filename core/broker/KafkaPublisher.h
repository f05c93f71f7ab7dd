#pragma once

#include "core/broker/KafkaMessage.h"
#include "core/broker/KafkaProperties.h"
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

// One batch handed to the producer; its reports fill in as the broker answers. The reports are
// written on the publisher's delivery thread: read report i once isReported(i) is true, and all
// of them once outstanding() is 0.
class PendingBatch
{
public:
    explicit PendingBatch(int size) : m_reports(size_t(size)), m_slots(size_t(size)), m_states(size_t(size))
    {
    }
    const std::vector<DeliveryReport>& reports() const { return m_reports; }
    int outstanding() const { return m_outstanding.load(); }
    bool isReported(int i) const { return m_states[size_t(i)].load(std::memory_order_acquire) == Done; }
    // Messages librdkafka's full queue never took (reported with notQueued by enqueue()).
    int notQueued() const { return m_notQueued; }

private:
    friend class KafkaPublisher;
    enum State : int { Open, Writing, Done };
    struct Slot
    {
        PendingBatch* batch = nullptr;
        int index = 0;
    };
    // Report i is written by exactly one writer (the delivery callback, a local refusal, or the
    // deadline): begin() picks it, finish() publishes it.
    DeliveryReport* begin(int i);
    bool finish(int i); // true when that was the batch's last report

    std::vector<DeliveryReport> m_reports;
    std::vector<Slot> m_slots;
    std::vector<std::atomic<int>> m_states;
    std::atomic<int> m_outstanding{0};
    int m_notQueued = 0;
};

// A librdkafka producer (idempotent, acks=all) that publishes batches and waits for every
// delivery report. Delivery reports (and error callbacks) are served on a thread of the
// publisher's own, so a report is taken and time-stamped when the broker's answer arrives, not when
// the caller's thread is next free (a relay inside a claim or mark statement). Connection-wide trouble (all
// brokers down, authentication, TLS, a fatal idempotence error) is tracked so the relay can keep events
// PENDING and back off.
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
    // Waits until the batch is complete or the deadline passes; what is unanswered by then is
    // reported as an unknown outcome.
    void await(PendingBatch& batch, qint64 timeoutMs);
    // Waits up to `timeoutMs` for a batch to complete (any batch of this publisher).
    void poll(int timeoutMs);
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
