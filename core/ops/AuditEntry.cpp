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
    // A state a list left in the database is null, with its size: the entry's own route has it.
    o[QStringLiteral("before")] = beforeOmittedBytes > 0 ? QJsonValue() : QJsonValue(before);
    o[QStringLiteral("after")] = afterOmittedBytes > 0 ? QJsonValue() : QJsonValue(after);
    if (beforeOmittedBytes > 0 || afterOmittedBytes > 0) {
        o[QStringLiteral("states_omitted")] = true;
        o[QStringLiteral("before_bytes")] = beforeOmittedBytes;
        o[QStringLiteral("after_bytes")] = afterOmittedBytes;
    }
    o[QStringLiteral("outcome")] = outcome;
    return o;
}

} // namespace outbox
