#include "core/db/InboxRecord.h"

#include <QJsonValue>

namespace outbox {

namespace {
QJsonValue timeOrNull(const QDateTime& t)
{
    return t.isValid() ? QJsonValue(t.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue();
}
} // namespace

QJsonObject InboxRecord::toJson() const
{
    return {{QStringLiteral("id"), id},
            {QStringLiteral("event_id"), eventId},
            {QStringLiteral("consumer"), consumerName},
            {QStringLiteral("aggregate_id"), aggregateId.isNull() ? QJsonValue() : QJsonValue(aggregateId)},
            {QStringLiteral("status"), status},
            {QStringLiteral("attempts"), attempts},
            {QStringLiteral("processed_at"), timeOrNull(processedAt)},
            {QStringLiteral("last_error"), lastError.isNull() ? QJsonValue() : QJsonValue(lastError)},
            {QStringLiteral("traceparent"), traceparent.isEmpty() ? QJsonValue() : QJsonValue(traceparent)},
            {QStringLiteral("created_at"), timeOrNull(createdAt)}};
}

Status InboxFilter::validate() const
{
    if (!status.isEmpty() && status != QLatin1String("PROCESSED") && status != QLatin1String("FAILED"))
        return Error::usage(
                   QStringLiteral("unknown inbox status \"%1\" (PROCESSED or FAILED)").arg(status.left(40)))
            .about(QStringLiteral("status"));
    return {};
}

} // namespace outbox
