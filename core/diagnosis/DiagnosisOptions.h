#pragma once

#include "core/support/Result.h"

#include <QString>
#include <QStringList>

namespace outbox::config {
class Config;
}

namespace outbox {

// The doctor's thresholds, with the defaults an operator gets without configuration. The [doctor]
// section of the configuration sets them (fromConfig(); the keys and their meaning are in
// docs/configuration.md).
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
    // The relays' topic template (relay.topic_template): which events without a topic it can route.
    QString topicTemplate = QStringLiteral("{aggregate_type}");

    // Added to every prepared command line so that it reaches the same database
    // (e.g. {"--config", "/etc/outbox/orders.ini"}); never a password.
    QStringList connectionArguments;
    // How a relay started from a prepared command reaches the broker the configuration names, as
    // argv words (--broker=kafka://HOST:PORT or --broker=amqp://… without its password); empty when
    // no broker is configured: the doctor then says what to add instead of printing a command.
    QStringList brokerArguments;
    // Without brokerArguments, a prepared relay takes the broker this database's relays registered
    // (a Kafka bootstrap); when that cannot be known either, this sentence says what to set (a fleet
    // member: the `broker` key of its section in the fleet file). Empty: the configuration's keys.
    QString brokerUnknown;
    bool aggregateOrdering = false; // relay.ordering = aggregate
    // Run only these checks (by id); empty: all of them.
    QStringList onlyChecks;

    qint64 relayStaleAfterMs() const { return heartbeatIntervalMs * staleHeartbeats; }
    // [doctor] and [relay] retention of the configuration; not yet validate()d.
    static DiagnosisOptions fromConfig(const config::Config& config);
    Status validate() const;
};

} // namespace outbox
