#pragma once

#include "core/support/Result.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

namespace outbox {

// One change to a JSON payload, made the same way to every dead letter of a group (issue 36 M3):
//
//   set      the member at a path ("customer.email", "items.0.sku") becomes a value; a missing last
//            member of an object is created. A path that runs through a value that is not an
//            object or array does not apply.
//   replace  every value equal to `from` (at the path, or anywhere when the path is empty) becomes
//            `to`: a typo repeated in many messages.
//
// Values are JSON ("\"a@b.example\"", 42, null); a text that is not JSON is taken as a string.
// The payload is written back compact (QJsonDocument): members keep their values, not their
// spacing or order; the preview shows every changed value.
class JsonChange
{
    Q_DECLARE_TR_FUNCTIONS(outbox::JsonChange)

public:
    enum class Kind { Set, Replace };

    static Result<JsonChange> set(const QString& path, const QString& value);
    static Result<JsonChange> replace(const QString& path, const QString& from, const QString& to);
    // From {"set": PATH, "value": V} or {"replace": PATH-or-"", "from": V, "to": V} (the API's body).
    static Result<JsonChange> fromJson(const QJsonObject& json);

    Kind kind() const { return m_kind; }
    QString path() const { return m_path.join(QLatin1Char('.')); }
    // "set customer.email = \"a@b.example\"", "replace \"gmial.com\" with \"gmail.com\" in customer.email".
    QString describe() const;
    QJsonObject toJson() const;

    // What the change makes of one payload.
    struct Outcome
    {
        bool applies = false;    // false: `why` says why it does not (not JSON, path missing, …)
        bool changed = false;    // applies and makes a difference
        QByteArray payload;      // the new payload (when changed)
        QStringList differences; // "customer.email: \"a@gmial.com\" → \"a@gmail.com\"", one per value
        QString why;
    };
    Outcome apply(const QByteArray& payload) const;

private:
    // A change of `kind` at `path` (a replacement may name the whole document: an empty path),
    // its values still to set.
    static Result<JsonChange> at(Kind kind, const QString& path);

    Kind m_kind = Kind::Set;
    QStringList m_path;
    QJsonValue m_value; // set: the new value; replace: `to`
    QJsonValue m_from;  // replace
};

} // namespace outbox
