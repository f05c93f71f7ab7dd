#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>

namespace outbox {

// One field of a list's filter as callers name it: the API's query parameter and JSON field, the
// web console's form field, outboxctl's option (spelt with dashes). EventFilter::fields() and
// DeadLetterFilter::fields() list theirs; GET /api/v1/filters serves them, so that no front end
// keeps its own copy of the names.
struct FilterField
{
    QString name;
    QString label;       // in the catalogue's language (core's, which the web console translates)
    QString example;     // a value as typed, where one helps; empty otherwise
    QStringList choices; // the values it takes (statuses); empty for free text

    // {"name", "label", "example", "choices"}
    QJsonObject toJson() const;
    // The names of `fields`, in their order.
    static QStringList names(const QVector<FilterField>& fields);
};

} // namespace outbox
