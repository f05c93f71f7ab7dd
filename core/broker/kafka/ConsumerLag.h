#pragma once

#include "core/support/Result.h"

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>

namespace outbox {

// How far one consumer group is behind on one partition: its committed offset against the
// partition's high watermark.
struct PartitionLag
{
    QString consumerName; // the Kafka group.id (InboxConsumer uses the consumer name)
    QString topic;
    int partition = 0;
    qint64 committed = -1; // next offset the group will read
    qint64 highWatermark = 0;
    qint64 lag = 0; // highWatermark - committed, never negative

    QJsonObject toJson() const;
};

// Asks the brokers (librdkafka, never joining the group) for the committed offsets of consumer
// groups and the high watermarks of their partitions. Only partitions the group has committed on
// are reported. Blocks the calling thread for at most a few round trips of `timeoutMs`.
class ConsumerLag
{
public:
    struct Options
    {
        QString bootstrap;
        QStringList topics;           // empty: every topic of the cluster except internal ones
        QMap<QString, QString> kafka; // extra librdkafka properties (security)
        int timeoutMs = 5000;
    };

    static Result<QVector<PartitionLag>> query(const Options& options, const QString& consumerName);
};

} // namespace outbox
