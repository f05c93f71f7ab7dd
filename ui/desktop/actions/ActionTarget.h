#pragma once

#include "core/db/DeadLetterFilter.h"
#include "core/db/EventFilter.h"
#include "core/db/FailureGroups.h"

#include <QVector>
#include <optional>

namespace outbox::desktop {

enum class ActionKind { Requeue, MarkDead, ReplayDeadLetters, DiscardDeadLetters };

// What an operator action applies to: a selection (ids), a failure group, or the current filter.
struct ActionTarget
{
    QVector<qint64> ids;
    std::optional<FailureGroup> group;
    std::optional<EventFilter> eventFilter;
    std::optional<DeadLetterFilter> deadLetterFilter;
    QString description; // for the preview: "3 selected events", "the current filter" …

    bool isBulk() const { return ids.size() > 1 || group || eventFilter || deadLetterFilter; }
};

} // namespace outbox::desktop
