// /api/v1/audit: the audit log of every operator action, newest first.
#include "core/ops/AuditCsv.h"
#include "core/ops/AuditLog.h"
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/Controllers.h"

namespace outbox::web {

void AuditController::list(ApiContext& api, const ApiCall& call, ApiDone done)
{
    AuditQuery query;
    query.limit = call.page.limit;
    query.afterId = call.page.afterId;
    query.stateBytesLimit = ListPreviewChars; // a dead letter's edit states can be megabytes
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
    // format=csv: the same page as CSV through core's AuditCsv (cells never become spreadsheet
    // formulas), the header line on the first page, the next cursor in X-Next-After-Id.
    const QString format = queryValue(call.query, QStringLiteral("format"));
    if (!format.isEmpty() && format != QLatin1String("json") && format != QLatin1String("csv"))
        return done(WebReply::fromError(Error::usage(tr("format must be json or csv"))));
    if (format == QLatin1String("csv"))
        return api.submit(
            [query, masker = api.maskerFor(call.principal)](Database& db) {
                auto entries = AuditLog(db).list(query);
                if (!entries)
                    return WebReply::fromError(entries.error());
                const qint64 next =
                    entries->size() == query.limit && !entries->isEmpty() ? entries->last().id : 0;
                QByteArray body = query.afterId > 0 ? QByteArray() : AuditCsv::header();
                for (const AuditEntry& e : *entries)
                    body += AuditCsv::line(masker.maskRow(e.toJson()));
                WebReply reply = WebReply::bytes(body, QByteArrayLiteral("text/csv; charset=utf-8"));
                reply.headers.append({QByteArrayLiteral("X-Next-After-Id"), QByteArray::number(next)});
                return reply;
            },
            std::move(done));
    api.query(
        [query](Database& db) { return AuditLog(db).list(query); },
        [limit = query.limit, masker = api.maskerFor(call.principal)](const QVector<AuditEntry>& entries) {
            const qint64 next = entries.size() == limit && !entries.isEmpty() ? entries.last().id : 0;
            return Page::json(QStringLiteral("entries"), maskedRows(entries, masker), next);
        },
        std::move(done));
}

void AuditController::show(ApiContext& api, const ApiCall& call, ApiDone done)
{
    api.queryRow([id = call.args.value(0).toLongLong()](Database& db) { return AuditLog(db).find(id); },
                 call.principal, std::move(done));
}

} // namespace outbox::web
