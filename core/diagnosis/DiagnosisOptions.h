#pragma once

#include "core/support/Result.h"

#include <QMap>
#include <QString>
#include <QStringList>

namespace outbox {

// The doctor's thresholds, with the defaults an operator gets without configuration. Front ends
// fill them from the [doctor] section of the configuration (see fromValues()):
//
//   [doctor]
//   backlog_age = 5m              ; oldest PENDING older than this: warning
//   backlog_age_critical = 30m    ; … older than this: critical
//   heartbeat_interval = 2s       ; the relays' heartbeat; stale after 3 of them
//   expired_lease_grace = 1m      ; SENDING past lease_until for longer: nobody reaps them
//   blocked_after = 1m            ; an event waiting this long behind a FAILED one is blocked
//   dead_recent = 24h             ; DEAD events newer than this are a warning, older ones info
//   replay_stuck_after = 5m       ; REPLAYING for longer: stuck
//   consumers = inventory, billing ; consumers whose unconsumed events are checked
//   unconsumed_older_than = 5m    ; SENT this long ago and not PROCESSED: unconsumed
//   unconsumed_window = 15m       ; … looking at events created within this window before that
//   dead_tuple_ratio = 0.2        ; PostgreSQL: dead tuples above this share of the table
//   retention = 7d                ; the relays' retention; SENT rows older than it plus a day: warning (0:
//   off)
struct DiagnosisOptions
{
    qint64 backlogAgeWarningMs = 5 * 60 * 1000;
    qint64 backlogAgeCriticalMs = 30 * 60 * 1000;
    qint64 heartbeatIntervalMs = 2000;
    int staleHeartbeats = 3;
    qint64 expiredLeaseGraceMs = 60 * 1000;
    qint64 blockedAfterMs = 60 * 1000;
    qint64 deadRecentMs = 24LL * 3600 * 1000;
    qint64 replayStuckAfterMs = 5 * 60 * 1000;
    QStringList consumers;
    qint64 unconsumedOlderThanMs = 5 * 60 * 1000;
    qint64 unconsumedWindowMs = 15 * 60 * 1000;
    double deadTupleRatio = 0.2;
    qint64 deadTupleMinimum = 10000; // fewer dead tuples than this are never a finding
    qint64 retentionMs = 7LL * 24 * 3600 * 1000;
    int maxFindingsPerCheck = 20; // failure groups, consumers, … beyond this are left out
    int maxDistinctErrors = 20000;

    // Added to every prepared command line so that it reaches the same database
    // (e.g. {"--config", "/etc/outbox/orders.ini"}); never a password.
    QStringList connectionArguments;
    // Run only these checks (by id); empty: all of them.
    QStringList onlyChecks;

    qint64 relayStaleAfterMs() const { return heartbeatIntervalMs * staleHeartbeats; }
    Status validate() const;

    // Keys as in the [doctor] section above; an unknown key or a bad value is a usage error.
    static Result<DiagnosisOptions> fromValues(const QMap<QString, QString>& values);
    static QStringList keys();
    // "250ms", "30s", "5m", "2h", "7d" or "0".
    static Result<qint64> parseDuration(const QString& text, const QString& key);
};

} // namespace outbox
