#pragma once

#include "core/broker/MessageSource.h"

#include <QMap>
#include <librdkafka/rdkafka.h>

namespace outbox {

// A member of the Kafka consumer group named after the consumer: offsets are committed only by
// acknowledge() (never automatically), one commit per partition for a batch.
class KafkaSource final : public MessageSource
{
public:
    // `properties`: extra librdkafka consumer properties ([kafka]); KafkaBroker checked them.
    KafkaSource(Settings settings, QString bootstrap, QMap<QString, QString> properties, Logger log)
        : m_settings(std::move(settings)), m_bootstrap(std::move(bootstrap)),
          m_properties(std::move(properties)), m_log(std::move(log))
    {
    }
    ~KafkaSource() override;

    Status open() override;
    QVector<InboxMessage> poll(int max, int firstWaitMs, int moreWaitMs) override;
    Status acknowledge(const QVector<InboxMessage>& messages, int from, int to) override;
    Status deadLettered(const InboxMessage& message) override;
    void close() override;

private:
    static InboxMessage decode(const rd_kafka_message_t* raw);

    Settings m_settings;
    QString m_bootstrap;
    QMap<QString, QString> m_properties;
    Logger m_log;
    rd_kafka_t* m_rk = nullptr;
    QString m_lastError;
};

} // namespace outbox
