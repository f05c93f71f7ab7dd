#pragma once

#include "core/db/SqlCondition.h"
#include "core/support/Result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QStringList>

namespace outbox {

class Dialect;

// What the browser, the CLI and bulk operator actions select events by. Every field is matched
// through bound values; an empty field does not filter.
struct EventFilter
{
    QStringList statuses;   // validated names, see EventStatus::parse
    QString eventType;      // exact
    QString aggregateType;  // exact
    QString aggregateId;    // exact
    QString errorText;      // case-insensitive substring of last_error
    QDateTime createdFrom;  // inclusive
    QDateTime createdUntil; // exclusive

    bool isEmpty() const;
    SqlCondition toCondition(const Dialect& dialect) const;
    QJsonObject toJson() const;
    static Result<EventFilter> fromJson(const QJsonObject& json);
};

} // namespace outbox
