#pragma once

#include "core/db/SqlCondition.h"
#include "core/support/Result.h"

#include <QJsonObject>
#include <QStringList>

namespace outbox {

class Dialect;

// Selects dead letters; like EventFilter, every field travels as a bound value.
struct DeadLetterFilter
{
    QStringList statuses;
    QString consumerName;
    QString topic;
    QString eventId;
    QString errorText; // case-insensitive substring of error

    bool isEmpty() const;
    SqlCondition toCondition(const Dialect& dialect) const;
    QJsonObject toJson() const;
};

} // namespace outbox
