// /api/v1/audit: the audit log of every operator action, newest first.
#include "core/ops/AuditLog.h"
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/Controllers.h"

namespace outbox::web {

void AuditController::list(ApiContext& api, const ApiCall& call, ApiDone done)
{
    AuditQuery query;
    query.limit = call.page.limit;
    query.afterId = call.page.afterId;
    query.action = queryValue(call.query, QStringLiteral("action"));
    query.actor = queryValue(call.query, QStringLiteral("actor"));
    query.targetKind = queryValue(call.query, QStringLiteral("target_kind"));
    const QString targetRequirement = tr("target_id must be a positive number and comes with target_kind");
    auto targetId = queryNumber(call.query, QStringLiteral("target_id"), 0, 1,
                                std::numeric_limits<qint64>::max(), targetRequirement);
    if (!targetId || (*targetId > 0 && query.targetKind.isEmpty()))
        return done(WebReply::fromError(Error::usage(targetRequirement)));
    query.targetId = *targetId;
    const QString since = queryValue(call.query, QStringLiteral("since"));
    query.since = QDateTime::fromString(since, Qt::ISODateWithMs);
    if (!since.isEmpty() && !query.since.isValid())
        return done(WebReply::fromError(
            Error::usage(tr("since must be an ISO 8601 time, e.g. 2026-01-31T12:00:00Z"))));
    api.query(
        [query](Database& db) { return AuditLog(db).list(query); },
        [limit = query.limit, masker = api.maskerFor(call.principal)](const QVector<AuditEntry>& entries) {
            const qint64 next = entries.size() == limit && !entries.isEmpty() ? entries.last().id : 0;
            return Page::json(QStringLiteral("entries"), maskedRows(entries, masker), next);
        },
        std::move(done));
}

} // namespace outbox::web
