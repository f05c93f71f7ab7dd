#pragma once

#include <QtGlobal>
#include <atomic>

namespace outbox {

// Counters of one InboxConsumer, readable from any thread (progress lines, tests).
struct InboxConsumerStats
{
    std::atomic<qint64> received{0};     // messages taken from Kafka (redeliveries included)
    std::atomic<qint64> processed{0};    // committed with their inbox row
    std::atomic<qint64> duplicates{0};   // already PROCESSED: skipped and acknowledged
    std::atomic<qint64> deadLettered{0}; // written to dead_letters and acknowledged
    std::atomic<qint64> retries{0};      // transient failures retried (handler or database)
    std::atomic<qint64> batches{0};      // batch transactions committed (one offset commit each)
    std::atomic<qint64> batchRedos{0};   // batches done again with savepoints (a handler had failed)
    std::atomic<qint64> ackErrors{0};    // offset commits the broker refused (the message comes again)
};

} // namespace outbox
