#include "core/broker/kafka/KafkaSource.h"

#include "core/support/TerminalText.h"

#include <QElapsedTimer>
#include <algorithm>
#include <cstdio>

namespace outbox {

namespace {

void logKafka(const rd_kafka_t*, int level, const char* facility, const char* buf)
{
    if (level <= 3)
        std::fprintf(stderr, "kafka consumer: %s: %s\n", facility,
                     qPrintable(TerminalText::escape(QString::fromUtf8(buf))));
}

} // namespace

KafkaSource::~KafkaSource()
{
    close();
}

Status KafkaSource::open()
{
    char err[512];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    QMap<QString, QString> properties{
        {QStringLiteral("auto.offset.reset"), QStringLiteral("earliest")},
        {QStringLiteral("enable.partition.eof"), QStringLiteral("false")},
        // A crashed member's partitions are handed on once its session has expired: with 6 s (the
        // broker's group.min.session.timeout.ms default) a restarted or surviving member resumes
        // them within about 8 s; with 10 s it took 12-13 s (issue 37 item 6,
        // tests/consumer/failover-test.sh).
        {QStringLiteral("session.timeout.ms"), QStringLiteral("6000")},
        {QStringLiteral("heartbeat.interval.ms"), QStringLiteral("1000")},
        {QStringLiteral("client.id"), QStringLiteral("outbox-consumer")},
    };
    for (auto it = m_properties.cbegin(); it != m_properties.cend(); ++it)
        properties.insert(it.key(), it.value());
    // Not overridable: the offset moves only when acknowledge() commits it, after the database commit.
    properties.insert(QStringLiteral("bootstrap.servers"), m_bootstrap);
    properties.insert(QStringLiteral("group.id"), m_settings.consumerName);
    properties.insert(QStringLiteral("enable.auto.commit"), QStringLiteral("false"));
    properties.insert(QStringLiteral("enable.auto.offset.store"), QStringLiteral("false"));
    for (auto it = properties.cbegin(); it != properties.cend(); ++it) {
        if (rd_kafka_conf_set(conf, it.key().toUtf8().constData(), it.value().toUtf8().constData(), err,
                              sizeof err) != RD_KAFKA_CONF_OK) {
            rd_kafka_conf_destroy(conf);
            return Error::usage(
                QStringLiteral("Kafka consumer property %1: %2").arg(it.key(), QString::fromUtf8(err)));
        }
    }
    rd_kafka_conf_set_log_cb(conf, &logKafka);
    m_rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof err);
    if (!m_rk) {
        rd_kafka_conf_destroy(conf);
        return Error::usage(
            QStringLiteral("cannot create the Kafka consumer: %1").arg(QString::fromUtf8(err)));
    }
    rd_kafka_poll_set_consumer(m_rk);
    rd_kafka_topic_partition_list_t* topics =
        rd_kafka_topic_partition_list_new(int(m_settings.topics.size()));
    for (const QString& t : m_settings.topics)
        rd_kafka_topic_partition_list_add(topics, t.toUtf8().constData(), RD_KAFKA_PARTITION_UA);
    const rd_kafka_resp_err_t e = rd_kafka_subscribe(m_rk, topics);
    rd_kafka_topic_partition_list_destroy(topics);
    if (e != RD_KAFKA_RESP_ERR_NO_ERROR)
        return Error::runtime(
            QStringLiteral("cannot subscribe to %1: %2")
                .arg(m_settings.topics.join(QStringLiteral(", ")), QString::fromUtf8(rd_kafka_err2str(e))));
    return {};
}

void KafkaSource::close()
{
    if (!m_rk)
        return;
    rd_kafka_consumer_close(m_rk); // leaves the group; nothing is committed here
    rd_kafka_destroy(m_rk);
    m_rk = nullptr;
}

QVector<InboxMessage> KafkaSource::poll(int max, int firstWaitMs, int moreWaitMs)
{
    QVector<InboxMessage> batch;
    QElapsedTimer sinceFirst;
    while (m_rk && batch.size() < max) {
        const int wait =
            batch.isEmpty() ? firstWaitMs : int(std::max<qint64>(0, moreWaitMs - sinceFirst.elapsed()));
        rd_kafka_message_t* m = rd_kafka_consumer_poll(m_rk, wait);
        if (!m)
            break;
        if (m->err) {
            const QString why = QString::fromUtf8(rd_kafka_message_errstr(m));
            if (m->err != RD_KAFKA_RESP_ERR__PARTITION_EOF && why != m_lastError)
                m_log(QStringLiteral("Kafka: %1").arg(why));
            m_lastError = why;
            rd_kafka_message_destroy(m);
            if (batch.isEmpty())
                break;
            continue;
        }
        if (batch.isEmpty())
            sinceFirst.start();
        batch << decode(m);
        rd_kafka_message_destroy(m);
    }
    return batch;
}

InboxMessage KafkaSource::decode(const rd_kafka_message_t* m)
{
    InboxMessage msg;
    msg.topic = QString::fromUtf8(rd_kafka_topic_name(m->rkt));
    msg.partition = m->partition;
    msg.offset = m->offset;
    if (m->key)
        msg.key = QByteArray(static_cast<const char*>(m->key), int(m->key_len));
    if (m->payload)
        msg.payload = QByteArray(static_cast<const char*>(m->payload), int(m->len));
    rd_kafka_headers_t* headers = nullptr;
    if (rd_kafka_message_headers(m, &headers) == RD_KAFKA_RESP_ERR_NO_ERROR) {
        const char* name = nullptr;
        const void* value = nullptr;
        size_t size = 0;
        for (size_t i = 0;
             rd_kafka_header_get_all(headers, i, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; ++i)
            msg.headers.append({QByteArray(name), value
                                                      ? QByteArray(static_cast<const char*>(value), int(size))
                                                      : QByteArray()});
    }
    return msg;
}

Status KafkaSource::acknowledge(const QVector<InboxMessage>& messages, int from, int to)
{
    if (!m_rk || from >= to)
        return {};
    rd_kafka_topic_partition_list_t* offsets = rd_kafka_topic_partition_list_new(8);
    for (int i = from; i < to; ++i) {
        const InboxMessage& m = messages.at(i);
        const QByteArray topic = m.topic.toUtf8();
        rd_kafka_topic_partition_t* p =
            rd_kafka_topic_partition_list_find(offsets, topic.constData(), m.partition);
        if (!p)
            p = rd_kafka_topic_partition_list_add(offsets, topic.constData(), m.partition);
        p->offset = std::max<int64_t>(p->offset, m.offset + 1);
    }
    const rd_kafka_resp_err_t e = rd_kafka_commit(m_rk, offsets, 0 /* synchronous */);
    rd_kafka_topic_partition_list_destroy(offsets);
    if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
        const InboxMessage& first = messages.at(from);
        return Error::runtime(QStringLiteral("offset commit for %1 message(s) from %2/%3@%4 failed: %5")
                                  .arg(to - from)
                                  .arg(first.topic)
                                  .arg(first.partition)
                                  .arg(first.offset)
                                  .arg(QString::fromUtf8(rd_kafka_err2str(e))));
    }
    return {};
}

Status KafkaSource::deadLettered(const InboxMessage& message)
{
    return acknowledge(QVector<InboxMessage>{message}, 0, 1);
}

} // namespace outbox
