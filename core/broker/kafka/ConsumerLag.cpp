#include "core/broker/kafka/ConsumerLag.h"

#include <QCoreApplication>
#include <QSet>
#include <algorithm>
#include <librdkafka/rdkafka.h>
#include <memory>

namespace outbox {

namespace {

struct HandleDeleter
{
    void operator()(rd_kafka_t* rk) const { rd_kafka_destroy(rk); }
};
struct ListDeleter
{
    void operator()(rd_kafka_topic_partition_list_t* l) const { rd_kafka_topic_partition_list_destroy(l); }
};

void quietLog(const rd_kafka_t*, int, const char*, const char*) {}

} // namespace

QJsonObject PartitionLag::toJson() const
{
    return {
        {QStringLiteral("consumer"), consumerName},        {QStringLiteral("topic"), topic},
        {QStringLiteral("partition"), partition},          {QStringLiteral("committed_offset"), committed},
        {QStringLiteral("high_watermark"), highWatermark}, {QStringLiteral("lag"), lag}};
}

Result<QVector<PartitionLag>> ConsumerLag::query(const Options& o, const QString& consumerName)
{
    if (o.bootstrap.trimmed().isEmpty())
        return Error::usage(
                   QCoreApplication::translate("outbox::KafkaBroker", "no Kafka bootstrap servers given"))
            .about(QStringLiteral("kafka.bootstrap"));
    if (consumerName.trimmed().isEmpty())
        return Error::usage(QStringLiteral("consumer lag needs a consumer name"));
    char err[512];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    QMap<QString, QString> properties = o.kafka;
    properties.insert(QStringLiteral("bootstrap.servers"), o.bootstrap);
    properties.insert(QStringLiteral("group.id"), consumerName);
    properties.insert(QStringLiteral("enable.auto.commit"), QStringLiteral("false"));
    properties.insert(QStringLiteral("client.id"), QStringLiteral("outbox-lag"));
    for (auto it = properties.cbegin(); it != properties.cend(); ++it) {
        if (rd_kafka_conf_set(conf, it.key().toUtf8().constData(), it.value().toUtf8().constData(), err,
                              sizeof err) != RD_KAFKA_CONF_OK) {
            rd_kafka_conf_destroy(conf);
            return Error::usage(
                QStringLiteral("Kafka property %1: %2").arg(it.key(), QString::fromUtf8(err)));
        }
    }
    rd_kafka_conf_set_log_cb(conf, &quietLog);
    std::unique_ptr<rd_kafka_t, HandleDeleter> rk(rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof err));
    if (!rk) {
        rd_kafka_conf_destroy(conf);
        return Error::usage(QStringLiteral("cannot create the Kafka client: %1").arg(QString::fromUtf8(err)));
    }

    const rd_kafka_metadata_t* md = nullptr;
    rd_kafka_resp_err_t e = rd_kafka_metadata(rk.get(), 1, nullptr, &md, o.timeoutMs);
    if (e != RD_KAFKA_RESP_ERR_NO_ERROR)
        return Error::runtime(QStringLiteral("cannot read the Kafka metadata from %1: %2")
                                  .arg(o.bootstrap, QString::fromUtf8(rd_kafka_err2str(e))));
    const QSet<QString> wanted(o.topics.cbegin(), o.topics.cend());
    std::unique_ptr<rd_kafka_topic_partition_list_t, ListDeleter> partitions(
        rd_kafka_topic_partition_list_new(16));
    for (int t = 0; t < md->topic_cnt; ++t) {
        const rd_kafka_metadata_topic_t& topic = md->topics[t];
        const QString name = QString::fromUtf8(topic.topic);
        if (topic.err != RD_KAFKA_RESP_ERR_NO_ERROR || name.startsWith(QStringLiteral("__")))
            continue;
        if (!wanted.isEmpty() && !wanted.contains(name))
            continue;
        for (int p = 0; p < topic.partition_cnt; ++p)
            rd_kafka_topic_partition_list_add(partitions.get(), topic.topic, topic.partitions[p].id);
    }
    rd_kafka_metadata_destroy(md);
    QVector<PartitionLag> result;
    if (partitions->cnt == 0)
        return result;

    e = rd_kafka_committed(rk.get(), partitions.get(), o.timeoutMs);
    if (e != RD_KAFKA_RESP_ERR_NO_ERROR)
        return Error::runtime(QStringLiteral("cannot read the committed offsets of group %1: %2")
                                  .arg(consumerName, QString::fromUtf8(rd_kafka_err2str(e))));
    for (int i = 0; i < partitions->cnt; ++i) {
        const rd_kafka_topic_partition_t& p = partitions->elems[i];
        if (p.err != RD_KAFKA_RESP_ERR_NO_ERROR || p.offset < 0)
            continue; // the group never committed here
        int64_t low = 0;
        int64_t high = 0;
        e = rd_kafka_query_watermark_offsets(rk.get(), p.topic, p.partition, &low, &high, o.timeoutMs);
        if (e != RD_KAFKA_RESP_ERR_NO_ERROR)
            return Error::runtime(QStringLiteral("cannot read the high watermark of %1/%2: %3")
                                      .arg(QString::fromUtf8(p.topic))
                                      .arg(p.partition)
                                      .arg(QString::fromUtf8(rd_kafka_err2str(e))));
        PartitionLag lag;
        lag.consumerName = consumerName;
        lag.topic = QString::fromUtf8(p.topic);
        lag.partition = p.partition;
        lag.committed = p.offset;
        lag.highWatermark = high;
        lag.lag = std::max<qint64>(0, high - p.offset);
        result << lag;
    }
    std::sort(result.begin(), result.end(), [](const PartitionLag& a, const PartitionLag& b) {
        return a.topic != b.topic ? a.topic < b.topic : a.partition < b.partition;
    });
    return result;
}

} // namespace outbox
