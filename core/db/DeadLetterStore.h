#pragma once

#include "core/db/DeadLetter.h"
#include "core/db/DeadLetterFilter.h"
#include "core/support/Result.h"

#include <QJsonObject>
#include <QMap>
#include <QVector>
#include <optional>

namespace outbox {

class Database;

struct DeadLetterPage
{
    QVector<DeadLetter> letters;
    qint64 nextAfterId = 0;
};

// What a replayer asks for: REPLAYING rows nobody holds, under a lease of its own.
struct ReplayClaimRequest
{
    QString workerId;
    int limit = 100;
    qint64 leaseMs = 30000;
    int maxAttempts = 10;       // rows that used them up go back to NEW instead of being claimed
    QString replayToken;        // only the rows of this operator request, when given
    bool ignoreBackoff = false; // an operator's explicit delivery does not wait for the backoff
};

struct ReplayClaim
{
    QString leaseToken;
    QVector<DeadLetter> letters; // in id order, replayAttempts already counting this one
    int gaveUp = 0;              // rows out of attempts whose last lease expired: back to NEW
};

// How a failed replay ends for now.
enum class ReplayFailure {
    RetryLater, // stays REPLAYING, next try after the delay; the attempt counts
    Release,    // nothing was sent (queue full, no broker): stays REPLAYING, the attempt does not count
    GiveUp,     // back to NEW with the error: an operator discards it or replays it again
};

class DeadLetterStore
{
public:
    explicit DeadLetterStore(Database& db) : m_db(db) {}

    // Records a message a consumer gave up on (inside the caller's transaction, if any). Never
    // fails on the message's content: what does not fit a column as it is is kept exactly in the
    // binary columns, shortened or hashed where it must be, and said so in storage_note.
    Result<qint64> insert(const DeadLetter& letter);
    // previewChars > 0: summaries (DeadLetter::summaryColumns): payloads and stack traces cut by
    // the database to that many characters (bytes when binary), with their full sizes.
    Result<DeadLetterPage> list(const DeadLetterFilter& filter, qint64 afterId, int limit,
                                int previewChars = 0);
    Result<DeadLetter> find(qint64 id);
    Result<QMap<QString, qint64>> countsByStatus();
    // Whether the consumer already dead-lettered the message at this topic/partition/offset (a
    // redelivery after a crash between the dead-letter commit and the acknowledgement).
    Result<bool> existsForSource(const QString& consumerName, const QString& eventId, const QString& topic,
                                 int partition, qint64 offset);
    // REPLAYING dead letters after `afterId`, oldest first; only those of `token` when given. A
    // read-only view: deliver only what claimReplays() handed out.
    Result<QVector<DeadLetter>> replaying(int limit, const QString& token = {}, qint64 afterId = 0);

    // One short transaction, like the claim of events: up to `limit` REPLAYING rows whose lease is
    // free or expired and whose backoff has passed get a fresh lease token (replay_attempts + 1).
    // Rows locked by another claimer are skipped (SKIP LOCKED; SQLite's write lock serialises).
    Result<ReplayClaim> claimReplays(const ReplayClaimRequest& request);
    // REPLAYING -> REPLAYED once the broker acknowledged the replay, fenced by the lease token:
    // false when the row is no longer REPLAYING under that lease (expired and taken over, re-armed).
    Result<bool> markReplayed(qint64 id, const QString& leaseToken);
    // Records a failed replay (fenced like markReplayed); `retryDelayMs` for RetryLater/Release.
    Result<bool> markReplayFailed(qint64 id, const QString& leaseToken, ReplayFailure how,
                                  const QString& error, qint64 retryDelayMs = 0);
    // REPLAYING rows of `token` (all when empty) that are still to be delivered.
    Result<int> countReplaying(const QString& token = {});

    // An operator's edit (core/ops/DeadLetterEditor runs it with its audit row, inside the caller's
    // transaction, `current` read under its lock): the new payload bytes and/or headers (a JSON
    // object of strings) take the place of the message, stored like insert() stores one (exact
    // bytes); the first edit keeps the message as it came in the original_* columns. Only a NEW
    // dead letter changes; false when it is not NEW (any more).
    Result<bool> replaceMessage(const DeadLetter& current, const std::optional<QByteArray>& payload,
                                const std::optional<QJsonObject>& headers, const QString& editedBy);

private:
    Database& m_db;
};

} // namespace outbox
