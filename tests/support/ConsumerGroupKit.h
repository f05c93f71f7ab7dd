#pragma once

// Real broker state for lag tests: messages produced to chosen partitions of the embedded broker
// and offsets committed for a consumer group, both over the Kafka protocol (librdkafka).
#include <QMap>
#include <QString>
#include <librdkafka/rdkafka.h>

namespace outbox::test {

// Produces `count` valid outbox messages (event_id "<tag>-p<partition>-<n>", schema_version 1,
// a JSON payload) to each listed partition; false on any delivery failure.
inline bool produceToPartitions(const QString& bootstrap, const QString& topic, const QMap<int, int>& counts,
                                const QString& tag = QStringLiteral("m"))
{
    char err[512];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    if (rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.toUtf8().constData(), err, sizeof err) !=
        RD_KAFKA_CONF_OK) {
        rd_kafka_conf_destroy(conf);
        return false;
    }
    rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
    if (!rk)
        return false;
    bool ok = true;
    const QByteArray name = topic.toUtf8();
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        for (int i = 0; i < it.value(); ++i) {
            const QByteArray payload = QByteArray("{\"n\":") + QByteArray::number(i) + '}';
            const QByteArray eventId = QStringLiteral("%1-p%2-%3").arg(tag).arg(it.key()).arg(i).toUtf8();
            if (rd_kafka_producev(
                    rk, RD_KAFKA_V_TOPIC(name.constData()), RD_KAFKA_V_PARTITION(it.key()),
                    RD_KAFKA_V_VALUE(const_cast<char*>(payload.constData()), size_t(payload.size())),
                    RD_KAFKA_V_HEADER("event_id", eventId.constData(), eventId.size()),
                    RD_KAFKA_V_HEADER("schema_version", "1", 1), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                    RD_KAFKA_V_END) != RD_KAFKA_RESP_ERR_NO_ERROR)
                ok = false;
        }
    if (rd_kafka_flush(rk, 10000) != RD_KAFKA_RESP_ERR_NO_ERROR || rd_kafka_outq_len(rk) != 0)
        ok = false;
    rd_kafka_destroy(rk);
    return ok;
}

// Commits `offsets` (partition -> next offset to read) for `group`, as a consumer does.
inline bool commitGroupOffsets(const QString& bootstrap, const QString& group, const QString& topic,
                               const QMap<int, qint64>& offsets)
{
    char err[512];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    if (rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.toUtf8().constData(), err, sizeof err) !=
            RD_KAFKA_CONF_OK ||
        rd_kafka_conf_set(conf, "group.id", group.toUtf8().constData(), err, sizeof err) !=
            RD_KAFKA_CONF_OK) {
        rd_kafka_conf_destroy(conf);
        return false;
    }
    rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof err);
    if (!rk)
        return false;
    rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(offsets.size());
    for (auto it = offsets.cbegin(); it != offsets.cend(); ++it)
        rd_kafka_topic_partition_list_add(list, topic.toUtf8().constData(), it.key())->offset = it.value();
    const rd_kafka_resp_err_t e = rd_kafka_commit(rk, list, 0);
    rd_kafka_topic_partition_list_destroy(list);
    rd_kafka_consumer_close(rk);
    rd_kafka_destroy(rk);
    return e == RD_KAFKA_RESP_ERR_NO_ERROR;
}

} // namespace outbox::test
