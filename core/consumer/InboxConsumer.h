#pragma once

#include "core/consumer/ConsumerOptions.h"
#include "core/consumer/HandlerResult.h"
#include "core/consumer/InboxConsumerStats.h"
#include "core/consumer/InboxMessage.h"
#include "core/db/Database.h"
#include "core/relay/Backoff.h"

#include <QDateTime>
#include <QStringList>
#include <atomic>
#include <functional>
#include <librdkafka/rdkafka.h>
#include <memory>

namespace outbox {

// A Kafka consumer-group member that processes each message exactly once in effect, through the
// inbox table (the article's consumption order): validate headers and payload; skip what this
// consumer already PROCESSED; otherwise, in ONE database transaction, write the inbox row and run
// the handler; commit; only then commit the Kafka offset. Transient failures are retried with
// backoff and never acknowledged; poison messages and permanent failures become dead letters and
// are acknowledged, so their partition moves on. run() blocks the calling thread.
class InboxConsumer
{
public:
    // Runs inside the open transaction; the database is the consumer's own connection.
    using Handler = std::function<HandlerResult(Database& db, const InboxMessage& message)>;
    using Logger = std::function<void(const QString&)>;

    InboxConsumer(DatabaseUrl url, ConsumerOptions options, Handler handler, InboxConsumerStats& stats,
                  Logger log = {});
    ~InboxConsumer();
    InboxConsumer(const InboxConsumer&) = delete;
    InboxConsumer& operator=(const InboxConsumer&) = delete;

    // Returns an error only when the consumer cannot start (options, database, Kafka client).
    Status run(const std::atomic<bool>& stopRequested);

private:
    enum class Disposition { Acknowledge, Stop };
    struct Attempt
    {
        enum class Kind { Processed, Duplicate, Transient, Permanent } kind = Kind::Processed;
        QString error;
        QString context;
        bool databaseError = false;
    };
    struct Failure
    {
        QString error;
        QString context;
        int attempts = 1;
        QDateTime first;
        QDateTime last;
    };

    Status connectDatabase();
    Status createClient();
    void closeClient();
    Disposition handle(const rd_kafka_message_t* raw, const std::atomic<bool>& stop);
    static InboxMessage decode(const rd_kafka_message_t* raw);
    QString validate(InboxMessage& message) const;
    Attempt tryOnce(const InboxMessage& message);
    // Writes the dead letter (and the inbox FAILED row); retries until it is stored or a stop.
    bool deadLetter(const InboxMessage& message, const Failure& failure, const std::atomic<bool>& stop);
    void acknowledge(const rd_kafka_message_t* raw);
    bool pause(qint64 ms, const std::atomic<bool>& stop);

    DatabaseUrl m_url;
    ConsumerOptions m_options;
    Handler m_handler;
    InboxConsumerStats& m_stats;
    Logger m_log;
    Backoff m_backoff;
    std::unique_ptr<Database> m_db;
    rd_kafka_t* m_rk = nullptr;
};

} // namespace outbox
