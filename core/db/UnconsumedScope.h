#pragma once

#include "core/db/SqlCondition.h"
#include "core/support/Result.h"

#include <QString>
#include <QStringList>

namespace outbox {

class Database;

// Which SENT events a consumer is expected to PROCESS (issue 25): those of the topics it
// subscribes to (recorded by the consumer in consumer_counters.topics; not recorded = every
// topic), except those an operator decided it shall not have: an event whose dead letter of this
// consumer was DISCARDED (or REPLAYED) with none of its dead letters still NEW or REPLAYING.
// One definition for the unconsumed check, its metric and `outboxctl reconcile`.
struct UnconsumedScope
{
    QString consumer;
    bool topicsKnown = false;
    QStringList topics;

    // Reads the consumer's recorded topics from `db` (where its inbox is).
    static Result<UnconsumedScope> load(Database& db, const QString& consumer);

    // Conditions over the outbox alias `e`; bind names start with `prefix`.
    // The event is of one of the consumer's topics (always true when they are not known).
    SqlCondition topicCondition(const QString& prefix) const;
    // The inbox (in the same database) has no PROCESSED row of the consumer for the event.
    SqlCondition notProcessedCondition(const QString& prefix) const;
    // No operator decision keeps the event from the consumer (dead_letters in the same database).
    SqlCondition undecidedCondition(const QString& prefix) const;
    // All three: the event is counted as unconsumed (with e.status = 'SENT' and the age).
    SqlCondition condition(const QString& prefix) const;
    // Sending the event again undoes no operator decision and duplicates no dead letter: no dead
    // letter of this consumer for it (those go through the dead-letter queue) and no DISCARDED one
    // of any consumer (a resend reaches every consumer).
    SqlCondition resendableCondition(const QString& prefix) const;

    // The statuses of a dead letter that is an operator's decision.
    static QString decidedStatuses() { return QStringLiteral("'DISCARDED','REPLAYED'"); }
    static QString undecidedStatuses() { return QStringLiteral("'NEW','REPLAYING'"); }
};

} // namespace outbox
