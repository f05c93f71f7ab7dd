#pragma once

#include "core/db/FilterField.h"
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
    // {"status": [...], "consumer", "topic", "event_id", "error"}: the API's names, which the web
    // console's query string uses too; fromJson() takes "status" as an array or a comma list and
    // refuses an unknown field or status.
    QJsonObject toJson() const;
    static Result<DeadLetterFilter> fromJson(const QJsonObject& json);
    // The fields toJson() writes and fromJson() reads, with their labels and choices, in the
    // order a form shows them; keys(): their names.
    static QVector<FilterField> fields();
    static const QStringList& keys();
};

} // namespace outbox
