#pragma once

#include "core/consumer/ConsumerOptions.h"
#include "core/consumer/HandlerResult.h"
#include "core/consumer/InboxConsumerStats.h"
#include "core/consumer/InboxMessage.h"
#include "core/consumer/MessageSource.h"
#include "core/db/Database.h"
#include "core/db/DatabaseTarget.h"
#include "core/support/Backoff.h"

#include <QDateTime>
#include <QHash>
#include <QStringList>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace outbox {

class InboxStore;

// A consumer (of a Kafka consumer group or a RabbitMQ queue: core/consumer/MessageSource.h) that
// processes each message exactly once in effect, through the
// inbox table (the article's consumption order): validate headers and payload; skip what this
// consumer already PROCESSED; otherwise, in ONE database transaction, write the inbox row and run
// the handler; commit; only then acknowledge it to the broker (Kafka offset, AMQP basic.ack). Transient
// failures are retried with backoff and never acknowledged; poison messages and permanent failures become
// dead letters and are acknowledged, so their partition moves on. run() blocks the calling thread.
//
// Messages are taken in batches (options.batchSize, waiting at most options.batchMaxWaitMs for
// more after the first): one query finds the batch's duplicates, one transaction holds the rest
// (their inbox rows in a few multi-row statements), and the offsets are committed once, after that
// transaction. The batch runs without savepoints first; when a handler fails, the transaction is
// rolled back and the batch done again with a SAVEPOINT before that message and each one after
// it, so a failing message is rolled back to its savepoint alone; a transient failure is tried
// once more at once. If it still fails, the messages before it commit, it is retried
// with backoff or dead-lettered on its own (in order: nothing after it in the batch is processed
// first), then batching goes on with the next one. A crash between the commit and the
// offset commit brings the batch again, and the inbox skips it (duplicates, nothing lost).
// With a batch handler (setBatchHandler()) the new messages of a batch go to it in one call
// instead of one handler call each; a failure there is narrowed down to the failing message with
// savepoints, as described at BatchHandler.
class InboxConsumer
{
public:
    // Runs inside the open transaction; the database is the consumer's own connection. It may be
    // called again for a message whose earlier call was rolled back (a batch done again after
    // another message's handler failed, like a crash before the commit): keep its effects in
    // that transaction.
    using Handler = std::function<HandlerResult(Database& db, const InboxMessage& message)>;
    // Optional (setBatchHandler()): the batch's new messages at once, in order, in the same
    // transaction, so their business rows can go in a few multi-row statements instead of one
    // round trip per message. It gets only messages this consumer has not processed, each event_id
    // at most once per call, every one at attempt 1. The consumer takes a SAVEPOINT before the
    // call; when it reports a failure, everything the call wrote is rolled back to it and:
    //  - with the failing message's index: the messages before it are given to the batch handler
    //    again, the failing one goes through the per-message Handler on its own under a savepoint
    //    (the batch's failure is its attempt 1: a transient one is tried once more at once, a
    //    permanent one is dead-lettered), then the batch handler gets the messages after it;
    //  - without an index: every message of that call goes through the per-message Handler, each
    //    under its own savepoint.
    // A handler that names every failure at once (BatchHandlerResult::doneExcept) keeps the call's
    // other changes: nothing is rolled back or done again, and each named message then goes through
    // the per-message Handler on its own as above. Should one of them need a retry after a pause
    // (a transient failure twice), the transaction is rolled back and done again with each such
    // call cut before its first failure, as with failedAt().
    // A message that fails for good in the batch (permanent, or transient at the attempt limit)
    // gets its dead letter and inbox FAILED row in the batch's transaction, and the batch goes on.
    // Either way one failing message does not undo the others, and the offsets are committed only
    // after the batch's transaction. The per-message Handler stays required: it also runs messages
    // on their own after database trouble and replayed dead letters.
    using BatchHandler =
        std::function<BatchHandlerResult(Database& db, const QVector<const InboxMessage*>& messages)>;
    using Logger = std::function<void(const QString&)>;

    InboxConsumer(DatabaseTarget target, ConsumerOptions options, Handler handler, InboxConsumerStats& stats,
                  Logger log = {});
    ~InboxConsumer();
    // Before run(); an empty one (the default) runs every message through the per-message Handler.
    void setBatchHandler(BatchHandler handler) { m_batchHandler = std::move(handler); }
    InboxConsumer(const InboxConsumer&) = delete;
    InboxConsumer& operator=(const InboxConsumer&) = delete;

    // Returns an error only when the consumer cannot start (options, database, broker).
    Status run(const std::atomic<bool>& stopRequested);

private:
    enum class Disposition { Acknowledge, DeadLettered, Stop };
    struct Attempt
    {
        enum class Kind { Processed, Duplicate, Transient, Permanent } kind = Kind::Processed;
        QString error;
        QString context;
        bool databaseError = false;
        QDateTime at = QDateTime::currentDateTimeUtc(); // when it ended (a dead letter's first/last failure)
    };
    struct Failure
    {
        QString error;
        QString context;
        int attempts = 1;
        QDateTime first;
        QDateTime last;
    };

    // What one batch transaction did with messages [from, to).
    struct BatchOutcome
    {
        int done = 0;              // messages from `from` on that are committed or duplicates
        QVector<Attempt> failed;   // the handler's failures of message from + done (rolled back)
        bool individually = false; // database trouble: process message from + done on its own
        int unguardedFailure = -1; // this message's handler failed with no savepoint: all rolled back
        // A message whose failures a batch call named at once needs a retry after a pause, and
        // later messages of that call were done in the transaction: all rolled back, to be done
        // again with the call cut before each failure.
        bool cutAtFailures = false;
    };

    Status connectDatabase();
    // False: stop (the rest of the batch is not acknowledged).
    bool processBatch(QVector<InboxMessage>& messages, const std::atomic<bool>& stop);
    BatchOutcome transact(QVector<InboxMessage>& messages, int from, int to);
    // One try at the batch's transaction: a savepoint before each message from `guardFrom` on;
    // `earlier`: the failed attempts of messages an earlier try stopped at; `cutAtFailures`: a
    // batch call's failures named at once are taken like failedAt() of the first of them.
    BatchOutcome transactOnce(QVector<InboxMessage>& messages, int from, int to,
                              const QHash<QString, QString>& known, int guardFrom,
                              const QHash<int, QVector<Attempt>>& earlier, bool cutAtFailures);
    // One message on its own (poison, a failed handler, database trouble): retries with backoff,
    // dead letters. `earlier`: the outcomes of the attempts the batch already made.
    Disposition handle(InboxMessage& message, const QString& invalid, const std::atomic<bool>& stop,
                       const QVector<Attempt>& earlier = {});
    // event_id, event_type, aggregate_id and x-replay-count from the headers the source delivered.
    static void completeFromHeaders(InboxMessage& message);
    QString validate(InboxMessage& message) const;
    Attempt tryOnce(const InboxMessage& message);
    // Writes the dead letter (and the inbox FAILED row); retries until it is stored or a stop.
    bool deadLetter(const InboxMessage& message, const Failure& failure, const std::atomic<bool>& stop);
    // The same writes in the open transaction, once: the dead letter's id, or 0 when it was stored
    // before (a crash before the acknowledgement).
    Result<qint64> storeDeadLetter(const InboxMessage& message, const Failure& failure);
    // transactOnce()'s message with no attempt left: its dead letter in the batch's transaction,
    // logged in `deadLetters` once the batch commits.
    Status deadLetterInBatch(const InboxMessage& msg, const QVector<Attempt>& failures,
                             QVector<std::pair<qint64, QString>>& deadLetters);
    // A committed batch's counts: stats, the log's dead-letter lines, the inbox's duplicate counter.
    void countCommitted(InboxStore& inbox, const QVector<std::pair<qint64, QString>>& deadLetters,
                        qint64 processed, qint64 duplicates, qint64 retries);
    // A handler's failure (transient or permanent) as one attempt of its message.
    static Attempt failedAttempt(const HandlerResult& failure);
    // What a message's failed attempts (in order, at least one) make its dead letter.
    static Failure failureOf(const QVector<Attempt>& attempts);
    // No attempt is left for these failed attempts: the last permanent, or transient at the limit.
    bool isFinal(const QVector<Attempt>& failures) const;
    // Messages [from, to) are done: the source acknowledges them (after the commit, never before).
    void acknowledge(const QVector<InboxMessage>& messages, int from, int to);
    // Message i after handle(): acknowledged, or settled as a dead letter.
    void settle(const QVector<InboxMessage>& messages, int i, Disposition d);
    bool pause(qint64 ms, const std::atomic<bool>& stop);

    DatabaseTarget m_target;
    ConsumerOptions m_options;
    Handler m_handler;
    BatchHandler m_batchHandler;
    InboxConsumerStats& m_stats;
    Logger m_log;
    Backoff m_backoff;
    std::unique_ptr<Database> m_db;
    std::unique_ptr<MessageSource> m_source;
};

} // namespace outbox
