#include "ui/web/api/ApiInput.h"

#include "core/db/EventStatus.h"
#include "core/support/JsonPage.h"
#include "core/support/JsonText.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

namespace outbox::web {

QString tr(const char* text)
{
    return QCoreApplication::translate("outbox::web::Api", text);
}

QString queryValue(const QUrlQuery& query, const QString& key)
{
    return query.queryItemValue(key, QUrl::FullyDecoded);
}

QStringList queryValues(const QUrlQuery& query, const QString& key)
{
    QStringList values;
    for (const QString& v : query.allQueryItemValues(key, QUrl::FullyDecoded))
        values << v.split(QLatin1Char(','), Qt::SkipEmptyParts);
    return values;
}

QJsonObject queryObject(const QUrlQuery& query, const QStringList& keys, const QStringList& repeatable)
{
    QJsonObject object;
    for (const QString& key : keys) {
        if (!query.hasQueryItem(key))
            continue;
        object[key] =
            repeatable.contains(key)
                ? QJsonValue(QJsonArray::fromStringList(query.allQueryItemValues(key, QUrl::FullyDecoded)))
                : QJsonValue(queryValue(query, key));
    }
    return object;
}

Result<qint64> queryNumber(const QUrlQuery& query, const QString& key, qint64 fallback, qint64 min,
                           qint64 max, const QString& message)
{
    if (!query.hasQueryItem(key))
        return fallback;
    bool ok = false;
    const qint64 n = queryValue(query, key).toLongLong(&ok);
    if (!ok || n < min || n > max)
        return Error::usage(message);
    return n;
}

Result<Page> Page::fromQuery(const QUrlQuery& query)
{
    auto limit = queryNumber(query, QStringLiteral("limit"), DefaultLimit, 1, MaxPageSize,
                             tr("limit must be a number between 1 and %1").arg(MaxPageSize));
    if (!limit)
        return limit.error();
    auto afterId = queryNumber(query, QStringLiteral("after_id"), 0, 0, std::numeric_limits<qint64>::max(),
                               tr("after_id must be a non-negative number"));
    if (!afterId)
        return afterId.error();
    return Page{int(*limit), *afterId};
}

QJsonObject Page::json(const QString& key, const QJsonArray& rows, qint64 nextAfterId)
{
    return pageJson(key, rows, nextAfterId);
}

Result<QJsonObject> jsonBody(const QByteArray& body, const QStringList& known)
{
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return Error::usage(tr("the request body must be a JSON object (%1)")
                                .arg(parseError.error != QJsonParseError::NoError
                                         ? JsonText::parseError(parseError.error)
                                         : tr("got another JSON value")));
    const QJsonObject object = doc.object();
    for (auto it = object.begin(); it != object.end(); ++it)
        if (!known.contains(it.key()))
            return Error::usage(
                tr("unknown field \"%1\" (expected %2)").arg(it.key(), known.join(QStringLiteral(", "))));
    return object;
}

Result<QString> stringField(const QJsonObject& object, const QString& key)
{
    const QJsonValue v = object.value(key);
    if (!v.isUndefined() && !v.isString())
        return Error::usage(tr("%1 must be a string").arg(key));
    return v.toString();
}

Result<bool> boolField(const QJsonObject& object, const QString& key)
{
    const QJsonValue v = object.value(key);
    if (!v.isUndefined() && !v.isBool())
        return Error::usage(tr("%1 must be true or false").arg(key));
    return v.toBool();
}

Result<QStringList> deadLetterStatuses(const QStringList& names)
{
    QStringList statuses;
    for (const QString& name : names) {
        auto status = DeadLetterStatus::parse(name);
        if (!status)
            return status.error();
        statuses << *status;
    }
    return statuses;
}

} // namespace outbox::web
