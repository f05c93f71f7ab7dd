#pragma once

#include "core/broker/KafkaPublisher.h"
#include "core/support/Result.h"

#include <QString>
#include <functional>

namespace outbox {

class Database;

// What one replay round did.
struct ReplayRound
{
    int delivered = 0; // acknowledged by the broker and marked REPLAYED
    int fenced = 0;    // acknowledged, but the row was no longer REPLAYING with that token
    int failed = 0;    // not acknowledged (or not marked): still REPLAYING, retried next round
    QString lastError;
};

// Delivers REPLAYING dead letters: produces each to its original topic, or the one the
// operator chose, with its original event_id, key and headers plus x-replay-count and
// x-replayed-by; waits for the broker's ack; then marks it REPLAYED fenced by its replay token. A
// crash between the ack and the mark leaves the row REPLAYING: the next round delivers it again
// (a duplicate the consumer's inbox absorbs), so nothing is lost.
class DeadLetterReplayer
{
public:
    using Logger = std::function<void(const QString&)>;

    DeadLetterReplayer(Database& db, KafkaPublisher& publisher, Logger log = {});

    // Delivers up to `limit` REPLAYING rows (only those of `token` when given), waiting at most
    // `timeoutMs` for the acks. Errors only when the rows cannot be read.
    Result<ReplayRound> deliver(int limit, qint64 timeoutMs, const QString& token = {});

private:
    Database& m_db;
    KafkaPublisher& m_publisher;
    Logger m_log;
};

} // namespace outbox
