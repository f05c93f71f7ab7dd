#pragma once

#include "core/db/DeadLetterFilter.h"
#include "core/db/DeadLetterGroups.h"
#include "core/db/EventFilter.h"
#include "core/db/FailureGroups.h"
#include "core/ops/OperatorActions.h"

#include <QVector>
#include <optional>

namespace outbox::desktop {

// What an operator action applies to: a selection (ids), a failure group, or the applied filter.
struct ActionTarget
{
    QVector<qint64> ids;
    std::optional<FailureGroup> group;
    std::optional<EventFilter> eventFilter;
    std::optional<DeadLetterFilter> deadLetterFilter;
    std::optional<DeadLetterGroup> deadLetterGroup;
    QString description; // for the preview: "3 selected events", "the applied filter: status FAILED" …

    bool isBulk() const
    {
        return ids.size() > 1 || group || eventFilter || deadLetterFilter || deadLetterGroup;
    }
};

} // namespace outbox::desktop
