#pragma once

#include "core/support/Result.h"

#include <QDateTime>

namespace outbox {

class Database;

// Pending events whose times lie ahead of the database's clock: `available_at` in the future (the
// relay does not claim them before it: a delay someone meant, or a local time written into a UTC
// column, as a MariaDB session at +05:00 writing NOW(6) does), and `created_at` in the future (their
// age reads 0). `outboxctl status` says so next to the oldest pending age, which alone looked fine
// (issue 37 item 4); doctor's `contract-violations/future-time` tells a delay from a time-zone mistake.
struct HeldBackEvents
{
    qint64 notDue = 0;       // PENDING with available_at in the future
    QDateTime lastDue;       // the latest available_at among them (UTC)
    qint64 lastDueInMs = 0;  // how far ahead of the database's clock that is
    qint64 createdAhead = 0; // PENDING with created_at more than a minute in the future

    // One statement over the PENDING rows (their index), like status's counts.
    static Result<HeldBackEvents> read(Database& db);
};

} // namespace outbox
