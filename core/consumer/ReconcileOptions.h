#pragma once

#include <QString>

namespace outbox {

// What reconciliation looks for: events SENT more than `olderThanMs` ago that `consumerName`
// has not PROCESSED, of the topics it subscribes to and without an operator's decision on their
// dead letter (core/db/UnconsumedScope).
struct ReconcileOptions
{
    QString consumerName;
    qint64 olderThanMs = 5 * 60 * 1000;
    int chunkSize = 1000; // outbox rows per keyset chunk (and per IN list against a separate inbox)
    int sampleSize = 20;
    // Listing (listLimit > 0): every unconsumed event after `afterId`, at most listLimit of them
    // (ReconcileResult::events, nextAfterId continues); the walk stops at the page's end.
    int listLimit = 0;
    qint64 afterId = 0;
    static constexpr int MaxListLimit = 10000;
};

} // namespace outbox
