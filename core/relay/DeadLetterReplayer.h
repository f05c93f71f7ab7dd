#pragma once

#include "core/broker/Publisher.h"
#include "core/support/Result.h"

#include <QString>
#include <functional>

namespace outbox {

class Database;

// What one replay round did.
struct ReplayRound
{
    int claimed = 0;   // REPLAYING rows this round took a lease on
    int delivered = 0; // acknowledged by the broker and marked REPLAYED
    int fenced = 0;    // acknowledged, but the lease had passed to another replayer meanwhile
    int failed = 0;    // not acknowledged (or not marked): retried later, released or given up
    int gaveUp = 0;    // of which (plus crashed replays found out of attempts) went back to NEW
    QString lastError;
};

struct ReplayOptions
{
    QString workerId;     // shows in replay_worker
    qint64 leaseMs = 0;   // 0: the round's timeout plus 5 s
    int maxAttempts = 10; // then back to NEW with replay_error
    qint64 backoffBaseMs = 500;
    qint64 backoffCapMs = 60000;
    bool ignoreBackoff = false; // an operator's explicit delivery does not wait for the backoff
};

// Delivers REPLAYING dead letters: claims them under a lease (so that of N relays exactly one
// produces each), produces each with its exact original key, headers and payload to its original
// topic, or the one the operator chose, plus x-replay-count and x-replayed-by; waits for the
// broker's ack; then marks it REPLAYED, fenced by the lease. A crash between the ack and the mark
// leaves the row REPLAYING: once the lease expires it is delivered again (a duplicate the
// consumer's inbox absorbs), so nothing is lost. A failed replay is retried after a jittered
// backoff; after a deterministic refusal (message too large, topic not allowed) or the attempt
// limit it goes back to NEW with replay_error, where an operator can discard it or replay it again.
class DeadLetterReplayer
{
public:
    using Logger = std::function<void(const QString&)>;

    DeadLetterReplayer(Database& db, Publisher& publisher, Logger log = {});
    DeadLetterReplayer(Database& db, Publisher& publisher, ReplayOptions options, Logger log = {});

    // Delivers up to `limit` REPLAYING rows (only those of `token` when given), waiting at most
    // `timeoutMs` for the acks. Errors only when the rows cannot be claimed.
    Result<ReplayRound> deliver(int limit, qint64 timeoutMs, const QString& token = {});

private:
    Database& m_db;
    Publisher& m_publisher;
    ReplayOptions m_options;
    Logger m_log;
};

} // namespace outbox
