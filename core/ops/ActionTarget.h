#pragma once

#include "core/db/DeadLetterFilter.h"
#include "core/db/DeadLetterGroups.h"
#include "core/db/EventFilter.h"
#include "core/db/FailureGroups.h"

#include <QString>
#include <QStringList>
#include <QVector>
#include <optional>

namespace outbox {

// What an operator action applies to, the same for every front end and for the doctor's prepared
// actions: exactly one of ids, a failure group (events), a dead-letter group, a filter (events or
// dead letters) or relays (by worker id).
struct ActionTarget
{
    QVector<qint64> ids;
    std::optional<FailureGroup> group;                // event actions: every event of the group
    std::optional<EventFilter> eventFilter;           // event actions
    std::optional<DeadLetterFilter> deadLetterFilter; // dead-letter actions
    std::optional<DeadLetterGroup> deadLetterGroup;   // dead-letter actions: every dead letter of the group
    QStringList workerIds;                            // relay actions

    // More than one row, or rows chosen by a rule rather than named.
    bool isBulk() const
    {
        return ids.size() > 1 || group || eventFilter || deadLetterFilter || deadLetterGroup ||
               workerIds.size() > 1;
    }
    // "failure-group", "filter", "ids", "relays" or "none".
    QString kindName() const
    {
        if (group || deadLetterGroup)
            return QStringLiteral("failure-group");
        if (eventFilter || deadLetterFilter)
            return QStringLiteral("filter");
        if (!ids.isEmpty())
            return QStringLiteral("ids");
        if (!workerIds.isEmpty())
            return QStringLiteral("relays");
        return QStringLiteral("none");
    }
};

} // namespace outbox
