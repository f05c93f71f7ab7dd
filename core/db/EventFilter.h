#pragma once

#include "core/db/FilterField.h"
#include "core/db/SqlCondition.h"
#include "core/support/Result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QStringList>
#include <QVector>
#include <optional>

namespace outbox {

class Dialect;

// One KEY=VALUE of a header or payload search: the value compares as text with the JSON value.
struct FieldMatch
{
    QString key; // a header key, or a dotted payload path ("customer.id", "items.0.sku")
    QString value;
    bool operator==(const FieldMatch& o) const { return key == o.key && value == o.value; }
};

// What the browser, the CLI and bulk operator actions select events by. Every field is matched
// through bound values; an empty field does not filter.
struct EventFilter
{
    QStringList statuses;         // validated names, see EventStatus::parse
    QString eventType;            // exact
    QString aggregateType;        // exact
    QString aggregateId;          // exact
    QString errorText;            // case-insensitive substring of last_error
    QDateTime createdFrom;        // inclusive
    QDateTime createdUntil;       // exclusive
    QString eventId;              // exact
    QString topic;                // exact: the topic it was sent to, or the one the event names
    QVector<FieldMatch> headers;  // every header KEY has exactly VALUE
    QVector<FieldMatch> payload;  // every dotted PATH of the payload has exactly VALUE
    QString traceId;              // the trace id of the W3C traceparent header (see parseTraceId)
    std::optional<int> partition; // Kafka partition it was sent to
    std::optional<qint64> offset; // Kafka offset it was sent at

    static constexpr int MaxMatches = 8;        // header or payload matches per filter
    static constexpr int MaxValueLength = 1024; // characters of a searched value

    // Header keys: letters, digits, _ . - (1-128); payload paths: dot-separated segments of
    // letters, digits, _ - (1-64 each, at most 16); an all-digit path segment indexes an array.
    static bool isValidHeaderKey(const QString& key);
    static bool isValidPayloadPath(const QString& path);
    // "KEY=VALUE" from a command line or a query string; the key/path is checked, the value is not
    // (it only ever travels as a bound value). `what` names the option in the error.
    static Result<FieldMatch> parseHeaderMatch(const QString& keyEqualsValue, const QString& what);
    static Result<FieldMatch> parsePayloadMatch(const QString& pathEqualsValue, const QString& what);
    // A W3C trace id: the 32 lowercase hex digits between the first two dashes of a traceparent
    // header ("00-<trace id>-<span id>-<flags>"), not all zeros. A whole traceparent is taken too
    // (its trace id is kept), so that a value copied from a header or a log works as it is.
    static Result<QString> parseTraceId(const QString& text);
    static Result<int> parsePartition(const QString& text);
    static Result<qint64> parseOffset(const QString& text);

    bool isEmpty() const;
    // A key or path that fails the checks above (set by code, not parsed) selects no row.
    SqlCondition toCondition(const Dialect& dialect) const;
    QJsonObject toJson() const;
    static Result<EventFilter> fromJson(const QJsonObject& json);
    // The fields toJson() writes and fromJson() reads (the API's names, its query string's too),
    // with their labels, examples and choices, in the order a form shows them.
    static QVector<FilterField> fields();
    // Their names.
    static const QStringList& keys();
};

} // namespace outbox
