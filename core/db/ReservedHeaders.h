#pragma once

#include "core/db/DatabaseUrl.h"

#include <QByteArray>
#include <QStringList>

namespace outbox {

// The header names the relay and the dead-letter replay set themselves (docs/contract.md,
// "Headers"). A writer's header of such a name is never sent: the relay drops it, so that every
// consumer sees exactly one header of each of these names, the relay's, and doctor reports the
// events whose headers carry one (contract-violations/reserved-header).
class ReservedHeaders
{
public:
    // event_id, event_type, aggregate_type, aggregate_id, schema_version, aggregate_version.
    static const QStringList& names();
    // x-replay- (x-replay-count) and x-replayed-by: the replay's own.
    static const QStringList& prefixes();
    static bool isReserved(const QByteArray& name);
    // An SQL condition, true for rows whose `column` (a JSON object's text or jsonb) has a member of
    // a reserved name. No user text: the names are these constants.
    static QString sqlCondition(DatabaseKind kind, const QString& column);
};

} // namespace outbox
