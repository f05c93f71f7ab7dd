#include "tests/support/TopicReader.h"

#include <QElapsedTimer>
#include <librdkafka/rdkafka.h>

namespace outbox::test {

QVector<ConsumedMessage> readTopic(const QString& bootstrap, const QString& topic, int expected, int idleMs,
                                   int maxWaitMs)
{
    QVector<ConsumedMessage> out;
    char err[512];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.toUtf8().constData(), err, sizeof err);
    rd_kafka_conf_set(conf, "group.id", "outbox-test-reader", err, sizeof err);
    rd_kafka_conf_set(conf, "enable.auto.commit", "false", err, sizeof err);
    rd_kafka_conf_set(conf, "enable.partition.eof", "false", err, sizeof err);
    rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof err);
    if (!rk)
        qFatal("cannot create test consumer: %s", err);
    rd_kafka_topic_t* rkt = rd_kafka_topic_new(rk, topic.toUtf8().constData(), nullptr);
    const struct rd_kafka_metadata* md = nullptr;
    int partitions = 0;
    for (int tries = 0; tries < 50 && partitions == 0; ++tries) {
        if (rd_kafka_metadata(rk, 0, rkt, &md, 5000) == RD_KAFKA_RESP_ERR_NO_ERROR && md->topic_cnt == 1)
            partitions = md->topics[0].partition_cnt;
        if (md)
            rd_kafka_metadata_destroy(md);
        md = nullptr;
    }
    rd_kafka_topic_destroy(rkt);
    rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(partitions);
    for (int p = 0; p < partitions; ++p)
        rd_kafka_topic_partition_list_add(list, topic.toUtf8().constData(), p)->offset =
            RD_KAFKA_OFFSET_BEGINNING;
    rd_kafka_assign(rk, list);
    rd_kafka_topic_partition_list_destroy(list);

    QElapsedTimer total, idle;
    total.start();
    idle.start();
    while ((expected <= 0 || out.size() < expected) && idle.elapsed() < idleMs &&
           total.elapsed() < maxWaitMs) {
        rd_kafka_message_t* m = rd_kafka_consumer_poll(rk, 100);
        if (!m)
            continue;
        if (!m->err) {
            ConsumedMessage c;
            c.partition = m->partition;
            c.offset = m->offset;
            c.key = QByteArray(static_cast<const char*>(m->key), int(m->key_len));
            c.payload = QByteArray(static_cast<const char*>(m->payload), int(m->len));
            rd_kafka_headers_t* hdrs = nullptr;
            if (rd_kafka_message_headers(m, &hdrs) == RD_KAFKA_RESP_ERR_NO_ERROR) {
                const char* name;
                const void* value;
                size_t size;
                for (size_t i = 0;
                     rd_kafka_header_get_all(hdrs, i, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR;
                     ++i) {
                    c.headers.insert(QByteArray(name),
                                     QByteArray(static_cast<const char*>(value), int(size)));
                    ++c.headerCount;
                }
            }
            out << c;
            idle.restart();
        }
        rd_kafka_message_destroy(m);
    }
    rd_kafka_consumer_close(rk);
    rd_kafka_destroy(rk);
    return out;
}

} // namespace outbox::test
