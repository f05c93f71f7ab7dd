#pragma once

#include "core/broker/kafka/ConsumerLag.h"
#include "core/support/Result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QVariantMap>
#include <QVector>
#include <atomic>
#include <memory>

namespace outbox {

class Database;

struct ConsumerOverview;

// What an operator asks about one consumer: "did it get it, and is it keeping up?"
struct ConsumerSummary
{
    QString consumerName;
    qint64 processed = 0;  // inbox rows PROCESSED
    qint64 failed = 0;     // inbox rows FAILED (given up, dead-lettered)
    qint64 duplicates = 0; // redeliveries skipped because already PROCESSED (consumer_counters)
    QDateTime lastProcessedAt;
    qint64 deadLettersNew = 0;
    qint64 unconsumed = -1; // the reconciliation (Reconciler); -1 when not asked for
    // PROCESSED per bucket, oldest first; bucket i covers [rateSince + i*bucketMs, + bucketMs).
    QVector<qint64> rateCounts;
    QVector<PartitionLag> lag;

    qint64 totalLag() const;
    QJsonObject toJson(const ConsumerOverview& overview) const;
};

struct ConsumerOverview
{
    QDateTime takenAt; // database clock, UTC
    QDateTime rateSince;
    qint64 bucketMs = 0;
    qint64 unconsumedOlderThanMs = 0;
    bool reconciled = false;
    bool lagQueried = false;
    QString lagError; // the broker could not be asked; everything else is still there
    QVector<ConsumerSummary> consumers;

    QJsonObject toJson() const;
    // This overview's figures with the unconsumed counts and lag of `counted`, a later load of the
    // same consumers with figures = false (the slow part of a page that shows the fast part first).
    ConsumerOverview withCountsOf(const ConsumerOverview& counted) const;
};

// Builds the ConsumerOverview from the inbox, dead_letters and consumer_counters tables, the
// reconciliation, and (with a bootstrap) the brokers' committed offsets. Every value is bound.
class ConsumerOverviewQuery
{
public:
    struct Options
    {
        QString consumerName;          // empty: every consumer the database knows
        qint64 rateWindowMs = 3600000; // processing-rate history
        int rateBuckets = 30;          // 1..240
        bool reconcile = true;         // count unconsumed events (walks the SENT events)
        qint64 unconsumedOlderThanMs = 5 * 60 * 1000;
        ConsumerLag::Options lag;   // lag.bootstrap empty: no lag
        QStringList extraConsumers; // configured names that may have no rows yet
        // Non-empty: exactly these consumers, in this order (the ones a fast first load found).
        QStringList consumers;
        // False: only the unconsumed count and the lag, none of the counts and rates (which read
        // the consumer's inbox rows again: seconds on a million of them).
        bool figures = true;
        // Set from another thread: the reconciliation stops before its next consumer and load()
        // returns an error (an operator cancelled a slow count on a big inbox).
        std::shared_ptr<std::atomic<bool>> cancelled;
    };

    explicit ConsumerOverviewQuery(Database& db) : m_db(db) {}
    Result<ConsumerOverview> load(const Options& options);
    // Every consumer name with an inbox row, a dead letter or a counter, sorted.
    Result<QStringList> consumerNames();

private:
    Status loadFigures(ConsumerSummary& c, const QString& rateSql, const QVariantMap& rateBinds,
                       int rateBuckets);

    Database& m_db;
};

} // namespace outbox
