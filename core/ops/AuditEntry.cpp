#include "core/ops/AuditEntry.h"

namespace outbox {

QJsonObject AuditEntry::toJson() const
{
    QJsonObject o;
    o[QStringLiteral("id")] = id;
    o[QStringLiteral("at")] = at.toString(Qt::ISODateWithMs);
    o[QStringLiteral("actor")] = actor;
    o[QStringLiteral("host")] = host;
    o[QStringLiteral("action")] = action;
    o[QStringLiteral("target_kind")] = targetKind;
    o[QStringLiteral("target_ids")] = targetIds;
    o[QStringLiteral("filter")] = filter.isEmpty() ? QJsonValue() : QJsonValue(filter);
    o[QStringLiteral("reason")] = reason;
    o[QStringLiteral("affected_count")] = affectedCount;
    o[QStringLiteral("before")] = before;
    o[QStringLiteral("after")] = after;
    o[QStringLiteral("outcome")] = outcome;
    return o;
}

} // namespace outbox
