#pragma once

#include "core/db/DeadLetter.h"
#include "core/db/DeadLetterFilter.h"
#include "core/support/Result.h"

#include <QMap>
#include <QVector>

namespace outbox {

class Database;

struct DeadLetterPage
{
    QVector<DeadLetter> letters;
    qint64 nextAfterId = 0;
};

class DeadLetterStore
{
public:
    explicit DeadLetterStore(Database& db) : m_db(db) {}

    // Records a message a consumer gave up on (inside the caller's transaction, if any).
    Result<qint64> insert(const DeadLetter& letter);
    Result<DeadLetterPage> list(const DeadLetterFilter& filter, qint64 afterId, int limit);
    Result<DeadLetter> find(qint64 id);
    Result<QMap<QString, qint64>> countsByStatus();
    // Whether the consumer already dead-lettered the message at this topic/partition/offset (a
    // redelivery after a crash between the dead-letter commit and the acknowledgement).
    Result<bool> existsForSource(const QString& consumerName, const QString& eventId, const QString& topic,
                                 int partition, qint64 offset);
    // REPLAYING dead letters after `afterId`, oldest first; only those of `token` when given.
    Result<QVector<DeadLetter>> replaying(int limit, const QString& token = {}, qint64 afterId = 0);
    // REPLAYING -> REPLAYED once the broker acknowledged the replay, fenced by the replay token:
    // false when the row is no longer REPLAYING with that token (replayed by someone else, re-armed).
    Result<bool> markReplayed(qint64 id, const QString& token);

private:
    Database& m_db;
};

} // namespace outbox
