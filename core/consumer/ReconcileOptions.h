#pragma once

#include <QString>

namespace outbox {

// What reconciliation looks for: events SENT more than `olderThanMs` ago that `consumerName`
// has not PROCESSED.
struct ReconcileOptions
{
    QString consumerName;
    qint64 olderThanMs = 5 * 60 * 1000;
    int chunkSize = 1000; // outbox rows per keyset chunk (and per IN list against a separate inbox)
    int sampleSize = 20;
};

} // namespace outbox
