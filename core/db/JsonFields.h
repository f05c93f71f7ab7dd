#pragma once

#include "core/support/Result.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

namespace outbox {

// The checks every JSON object a caller hands in (a filter, a group) goes through before core/db
// reads it, so that an unknown field or a value of the wrong type is one clear usage error, never
// a field quietly ignored (a filter that lost a field would match more rows than it says).
class JsonFields
{
    Q_DECLARE_TR_FUNCTIONS(outbox::JsonFields)

public:
    // Every key of `object` is one of `keys`, and its value a string unless the key is one of
    // `others` (whose values the caller checks). `what` names the object in the error ("filter",
    // "group"), which lists `keys` when a field is unknown.
    static Status check(const QJsonObject& object, const QString& what, const QStringList& keys,
                        const QStringList& others = {});

    // Status names from `value`: a comma-separated string or an array of them (absent or null:
    // none), each checked by `parse` (an event's or a dead letter's status). `what` names
    // the field in the error.
    template <typename Parse>
    static Result<QStringList> statuses(const QJsonValue& value, const QString& what, Parse parse)
    {
        QStringList names;
        if (value.isString()) {
            names = value.toString().split(QLatin1Char(','), Qt::SkipEmptyParts);
        } else if (value.isArray()) {
            for (const QJsonValue& v : value.toArray()) {
                if (!v.isString())
                    return notStrings(what);
                names << v.toString().split(QLatin1Char(','), Qt::SkipEmptyParts);
            }
        } else if (!value.isUndefined() && !value.isNull()) {
            return notStrings(what);
        }
        QStringList statuses;
        for (const QString& name : names) {
            auto status = parse(name.trimmed());
            if (!status)
                return status.error();
            statuses << *status;
        }
        return statuses;
    }

private:
    static Error notStrings(const QString& what);
};

} // namespace outbox
