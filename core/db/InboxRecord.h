#pragma once

#include "core/support/Result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QVector>

namespace outbox {

class Dialect;

// One inbox row (inbox_events): what a consumer did with one event.
struct InboxRecord
{
    qint64 id = 0;
    QString eventId;
    QString consumerName;
    QString aggregateId;
    QString status; // PROCESSED or FAILED
    int attempts = 0;
    QDateTime processedAt;
    QString lastError;
    QString traceparent; // W3C Trace Context the consumer received, empty when none
    QDateTime createdAt;

    QJsonObject toJson() const;
};

// The inbox browser's filters: each one exact, bound, never part of the SQL text.
struct InboxFilter
{
    QString consumerName;
    QString status; // PROCESSED, FAILED or empty
    QString eventId;

    // A status other than PROCESSED/FAILED is a usage error (about "status").
    Status validate() const;
};

struct InboxPage
{
    QVector<InboxRecord> records; // newest id first
    qint64 nextAfterId = 0;       // > 0: pass as afterId for the next (older) page
};

} // namespace outbox
