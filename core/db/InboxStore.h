#pragma once

#include "core/db/InboxRecord.h"
#include "core/support/Result.h"

#include <QHash>
#include <QMap>
#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <QVariantList>
#include <QVector>
#include <optional>

namespace outbox {

class Database;

// The consumer's idempotency records (inbox_events): one row per (event_id, consumer_name).
// The write methods run inside the caller's transaction, next to the business change.
class InboxStore
{
public:
    explicit InboxStore(Database& db) : m_db(db) {}

    // PROCESSED, FAILED, or an empty string when the consumer has no record of the event.
    Result<QString> status(const QString& eventId, const QString& consumerName);
    // Records the event as PROCESSED (a new row, or a FAILED one taken over). False: some other
    // delivery already processed it, so the caller must roll back and only acknowledge.
    Result<bool> recordProcessed(const QString& eventId, const QString& consumerName,
                                 const QString& aggregateId, int attempts, const QString& traceparent = {});
    // Records that the consumer gave up on the event (it went to dead_letters); never downgrades
    // a PROCESSED row.
    Status recordFailed(const QString& eventId, const QString& consumerName, const QString& aggregateId,
                        int attempts, const QString& error, const QString& traceparent = {});

    // Batches (the consumer's hot path)
    // The status of each of `eventIds` for the consumer (PostgreSQL: one kept-prepared statement, an
    // index probe per id; elsewhere one query per 500 ids); ids the consumer has no record of are
    // absent from the answer.
    Result<QHash<QString, QString>> statuses(const QStringList& eventIds, const QString& consumerName);
    struct NewRecord
    {
        QString eventId;
        QString aggregateId;
        int attempts = 1;
        QString traceparent; // the message's W3C traceparent header, empty when it had none
    };
    // Inserts PROCESSED rows for events the consumer has no record of, in one statement per 64
    // rows; returns how many were inserted. Fewer than rows.size(): another delivery recorded one
    // meanwhile, and the caller must roll back.
    Result<int> recordProcessedNew(const QVector<NewRecord>& rows, const QString& consumerName);
    // The inbox browser: rows matching every filter, newest id first, keyset-paged below afterId.
    Result<InboxPage> list(const InboxFilter& filter, qint64 afterId, int limit);
    // Counts one redelivery the consumer skipped because it had PROCESSED the event already
    // (outbox_consumer_duplicates_total). Runs in its own statement, outside any transaction.
    Status countDuplicate(const QString& consumerName);
    // The same for `count` redeliveries at once (a batch's duplicates).
    Status countDuplicates(const QString& consumerName, qint64 count);
    // consumer name -> duplicates counted so far.
    Result<QMap<QString, qint64>> duplicateCounts();
    // Records the topics the consumer subscribes to (consumer_counters.topics), replacing what an
    // earlier start recorded; empty `topics`: not known (every topic counts as the consumer's).
    Status recordTopics(const QString& consumerName, const QStringList& topics);
    // The topics `consumerName` recorded; nullopt when it recorded none (unknown).
    Result<std::optional<QStringList>> topicsOf(const QString& consumerName);

private:
    Database& m_db;
};

} // namespace outbox
