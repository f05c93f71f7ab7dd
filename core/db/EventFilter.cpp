#include "core/db/EventFilter.h"

#include "core/db/Dialect.h"
#include "core/db/EventStatus.h"

#include <QJsonArray>

namespace outbox {

bool EventFilter::isEmpty() const
{
    return statuses.isEmpty() && eventType.isEmpty() && aggregateType.isEmpty() && aggregateId.isEmpty() &&
           errorText.isEmpty() && !createdFrom.isValid() && !createdUntil.isValid();
}

SqlCondition EventFilter::toCondition(const Dialect& dialect) const
{
    SqlCondition c;
    if (!statuses.isEmpty()) {
        QVariantList values;
        for (const QString& s : statuses)
            values << s;
        c.addIn(QStringLiteral("status"), QStringLiteral("f_status"), values);
    }
    if (!eventType.isEmpty())
        c.add(QStringLiteral("event_type = :f_type"), QStringLiteral(":f_type"), eventType);
    if (!aggregateType.isEmpty())
        c.add(QStringLiteral("aggregate_type = :f_agg_type"), QStringLiteral(":f_agg_type"), aggregateType);
    if (!aggregateId.isEmpty())
        c.add(QStringLiteral("aggregate_id = :f_agg_id"), QStringLiteral(":f_agg_id"), aggregateId);
    if (!errorText.isEmpty())
        c.add(dialect.containsIgnoringCase(QStringLiteral("last_error"), QStringLiteral(":f_error")),
              QStringLiteral(":f_error"), Dialect::likePattern(errorText));
    if (createdFrom.isValid())
        c.add(QStringLiteral("created_at >= :f_from"), QStringLiteral(":f_from"),
              dialect.fromDateTime(createdFrom));
    if (createdUntil.isValid())
        c.add(QStringLiteral("created_at < :f_until"), QStringLiteral(":f_until"),
              dialect.fromDateTime(createdUntil));
    return c;
}

QJsonObject EventFilter::toJson() const
{
    QJsonObject o;
    if (!statuses.isEmpty())
        o[QStringLiteral("status")] = QJsonArray::fromStringList(statuses);
    if (!eventType.isEmpty())
        o[QStringLiteral("type")] = eventType;
    if (!aggregateType.isEmpty())
        o[QStringLiteral("aggregate_type")] = aggregateType;
    if (!aggregateId.isEmpty())
        o[QStringLiteral("aggregate")] = aggregateId;
    if (!errorText.isEmpty())
        o[QStringLiteral("error")] = errorText;
    if (createdFrom.isValid())
        o[QStringLiteral("created_from")] = createdFrom.toUTC().toString(Qt::ISODateWithMs);
    if (createdUntil.isValid())
        o[QStringLiteral("created_until")] = createdUntil.toUTC().toString(Qt::ISODateWithMs);
    return o;
}

Result<EventFilter> EventFilter::fromJson(const QJsonObject& json)
{
    static const QStringList known = {QStringLiteral("status"),         QStringLiteral("type"),
                                      QStringLiteral("aggregate_type"), QStringLiteral("aggregate"),
                                      QStringLiteral("error"),          QStringLiteral("created_from"),
                                      QStringLiteral("created_until")};
    EventFilter f;
    for (auto it = json.begin(); it != json.end(); ++it) {
        if (!known.contains(it.key()))
            return Error::usage(QStringLiteral("unknown filter field \"%1\"").arg(it.key()));
    }
    const QJsonValue status = json.value(QStringLiteral("status"));
    QStringList statusNames;
    if (status.isString())
        statusNames = status.toString().split(QLatin1Char(','), Qt::SkipEmptyParts);
    else if (status.isArray())
        for (const QJsonValue& v : status.toArray())
            statusNames << v.toString();
    for (const QString& s : statusNames) {
        auto parsed = EventStatus::parse(s);
        if (!parsed)
            return parsed.error();
        f.statuses << *parsed;
    }
    f.eventType = json.value(QStringLiteral("type")).toString();
    f.aggregateType = json.value(QStringLiteral("aggregate_type")).toString();
    f.aggregateId = json.value(QStringLiteral("aggregate")).toString();
    f.errorText = json.value(QStringLiteral("error")).toString();
    for (const auto& [key, target] : {std::pair{QStringLiteral("created_from"), &f.createdFrom},
                                      std::pair{QStringLiteral("created_until"), &f.createdUntil}}) {
        const QString text = json.value(key).toString();
        if (text.isEmpty())
            continue;
        *target = QDateTime::fromString(text, Qt::ISODateWithMs);
        if (!target->isValid())
            return Error::usage(
                QStringLiteral("invalid time \"%1\" for %2 (expected ISO 8601, e.g. 2026-01-31T12:00:00Z)")
                    .arg(text, key));
    }
    return f;
}

} // namespace outbox
