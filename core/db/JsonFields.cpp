#include "core/db/JsonFields.h"

namespace outbox {

Status JsonFields::check(const QJsonObject& object, const QString& what, const QStringList& keys,
                         const QStringList& others)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!keys.contains(it.key()))
            return Error::usage(tr("unknown %1 field \"%2\" (expected %3)")
                                    .arg(what, it.key(), keys.join(QStringLiteral(", "))));
        if (!others.contains(it.key()) && !it->isString())
            return Error::usage(tr("%1 field \"%2\" must be a string").arg(what, it.key()));
    }
    return {};
}

Error JsonFields::notStrings(const QString& what)
{
    return Error::usage(tr("field \"%1\" must be an array of strings or a comma-separated list").arg(what));
}

} // namespace outbox
