#pragma once

#include "core/support/Result.h"

#include <QJsonObject>
#include <QStringList>
#include <QUrlQuery>

namespace outbox::web {

// The API's texts, in one translation context.
QString tr(const char* text);

// Reading what a request gives the API, written once for every controller: query values, the
// paging of the lists and a JSON body with a known set of fields. Every refusal is a usage error
// (400) that names what to change.

// A query parameter's value, percent-decoded; empty when absent.
QString queryValue(const QUrlQuery& query, const QString& key);
// Every value of a repeatable, comma-separated parameter (?status=NEW,FAILED&status=DEAD).
QStringList queryValues(const QUrlQuery& query, const QString& key);
// The parameters named in `keys` as the JSON object core reads a filter from (EventFilter::fromJson,
// DeadLetterFilter::fromJson): a key in `repeatable` is the array of all its values, as given
// (?header=a=1&header=b=2), any other its value. Absent parameters are left out.
QJsonObject queryObject(const QUrlQuery& query, const QStringList& keys, const QStringList& repeatable);
// A parameter that is a whole number of at least `min` (and at most `max`); `fallback` when absent.
Result<qint64> queryNumber(const QUrlQuery& query, const QString& key, qint64 fallback, qint64 min,
                           qint64 max, const QString& message);

// One page of a list: limit (1..MaxPageSize) and the keyset cursor after_id.
struct Page
{
    static constexpr int MaxPageSize = 1000;
    static constexpr int DefaultLimit = 100;

    int limit = DefaultLimit;
    qint64 afterId = 0;

    static Result<Page> fromQuery(const QUrlQuery& query);
    // {"<key>": rows, "next_after_id": the cursor of the next page, or null on the last one}
    static QJsonObject json(const QString& key, const QJsonArray& rows, qint64 nextAfterId);
};

// The request body as a JSON object whose fields are all in `known`.
Result<QJsonObject> jsonBody(const QByteArray& body, const QStringList& known);
// A field that must be a JSON string (absent: empty).
Result<QString> stringField(const QJsonObject& object, const QString& key);
// A field that must be true or false (absent: false).
Result<bool> boolField(const QJsonObject& object, const QString& key);

// Dead-letter status names (NEW, REPLAYING, …) checked against core's list.
Result<QStringList> deadLetterStatuses(const QStringList& names);

} // namespace outbox::web
