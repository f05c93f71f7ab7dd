#pragma once

#include "core/consumer/MessageSource.h"

#include <librdkafka/rdkafka.h>

namespace outbox {

// A member of the Kafka consumer group named after the consumer: offsets are committed only by
// acknowledge() (never automatically), one commit per partition for a batch.
class KafkaSource final : public MessageSource
{
public:
    KafkaSource(ConsumerOptions options, Logger log) : m_options(std::move(options)), m_log(std::move(log)) {}
    ~KafkaSource() override;

    Status open() override;
    QVector<InboxMessage> poll(int max, int firstWaitMs, int moreWaitMs) override;
    Status acknowledge(const QVector<InboxMessage>& messages, int from, int to) override;
    Status deadLettered(const InboxMessage& message) override;
    void close() override;

private:
    static InboxMessage decode(const rd_kafka_message_t* raw);

    ConsumerOptions m_options;
    Logger m_log;
    rd_kafka_t* m_rk = nullptr;
    QString m_lastError;
};

} // namespace outbox
