#include "core/ops/AuditLog.h"

#include "core/db/Database.h"
#include "core/db/SqlCondition.h"
#include "core/support/Failpoints.h"

#include <QJsonDocument>
#include <QSqlQuery>

namespace outbox {
namespace {
QString compact(const QJsonObject& o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}
QString compact(const QJsonArray& a)
{
    return QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact));
}
} // namespace

Result<qint64> AuditLog::append(const AuditEntry& e)
{
    const Dialect& d = m_db.dialect();
    QJsonArray ids = e.targetIds;
    while (ids.size() > MaxTargetIds)
        ids.removeLast();
    auto q = m_db.exec(
        QStringLiteral(
            "INSERT INTO {audit} (at, actor, host, action, target_kind, target_ids, filter, reason, "
            "affected_count, before_state, after_state, outcome) VALUES (%1, :actor, :host, :action, "
            ":kind, %2, %3, :reason, :count, %4, %5, :outcome)%6")
            .arg(d.now(), d.jsonValue(QStringLiteral(":ids")), d.jsonValue(QStringLiteral(":filter")),
                 d.jsonValue(QStringLiteral(":before")), d.jsonValue(QStringLiteral(":after")),
                 d.returningId()),
        {{QStringLiteral(":actor"), e.actor},
         {QStringLiteral(":host"), e.host},
         {QStringLiteral(":action"), e.action},
         {QStringLiteral(":kind"), e.targetKind},
         {QStringLiteral(":ids"), compact(ids)},
         {QStringLiteral(":filter"),
          e.filter.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(compact(e.filter))},
         {QStringLiteral(":reason"), e.reason},
         {QStringLiteral(":count"), e.affectedCount},
         {QStringLiteral(":before"), compact(e.before)},
         {QStringLiteral(":after"), compact(e.after)},
         {QStringLiteral(":outcome"), e.outcome}});
    if (!q)
        return Error::runtime(QStringLiteral("cannot write the audit log: %1").arg(q.message()));
    const qint64 id = q->next() ? q->value(0).toLongLong() : q->lastInsertId().toLongLong();
    if (Status s = Database::finished(q.value()); !s)
        return Error::runtime(QStringLiteral("cannot write the audit log: %1").arg(s.message()));
    return id;
}

Result<qint64> AuditLog::appendAndCommit(const AuditEntry& entry, Transaction& tx)
{
    auto id = append(entry);
    if (!id)
        return id;
    if (Status s = Failpoints::hit("ops.before_audit_commit"); !s)
        return s.error();
    if (Status s = tx.commit(); !s)
        return s.error();
    return id;
}

Result<QVector<AuditEntry>> AuditLog::list(const AuditQuery& query)
{
    if (query.limit <= 0 || query.limit > 10000)
        return Error::usage(QStringLiteral("page size must be between 1 and 10000"));
    const Dialect& d = m_db.dialect();
    SqlCondition c;
    if (query.since.isValid())
        c.add(QStringLiteral("at >= :since"), QStringLiteral(":since"), d.fromDateTime(query.since));
    if (!query.action.isEmpty())
        c.add(QStringLiteral("action = :action"), QStringLiteral(":action"), query.action);
    if (!query.actor.isEmpty())
        c.add(QStringLiteral("actor = :actor"), QStringLiteral(":actor"), query.actor);
    if (!query.targetKind.isEmpty())
        c.add(QStringLiteral("target_kind = :tkind"), QStringLiteral(":tkind"), query.targetKind);
    if (query.targetId > 0)
        c.add(d.jsonArrayContainsInteger(QStringLiteral("target_ids"), QStringLiteral(":tid")),
              QStringLiteral(":tid"), query.targetId);
    if (query.afterId > 0)
        c.add(QStringLiteral("id < :after"), QStringLiteral(":after"), query.afterId);
    c.binds.insert(QStringLiteral(":limit"), query.limit);
    return select(c.where() + QStringLiteral(" ORDER BY id DESC LIMIT :limit"), c.binds,
                  query.stateBytesLimit);
}

Result<AuditEntry> AuditLog::find(qint64 id)
{
    auto entries = select(QStringLiteral("id = :id"), {{QStringLiteral(":id"), id}}, 0);
    if (!entries)
        return entries.error();
    if (entries->isEmpty())
        return Error::notFound(QStringLiteral("no audit entry %1").arg(id));
    return entries->first();
}

Result<QVector<AuditEntry>> AuditLog::select(const QString& where, QVariantMap binds, int stateBytesLimit)
{
    const Dialect& d = m_db.dialect();
    // With a limit, a large state is not read: NULL in its place and its size beside it.
    auto state = [&](const QString& column) -> QString {
        if (stateBytesLimit <= 0)
            return column + QStringLiteral(", 0");
        const QString bytes = d.textBytes(column);
        return QStringLiteral("CASE WHEN %1 > :state_cap THEN NULL ELSE %2 END, "
                              "CASE WHEN %1 > :state_cap THEN %1 ELSE 0 END")
            .arg(bytes, column);
    };
    if (stateBytesLimit > 0)
        binds.insert(QStringLiteral(":state_cap"), stateBytesLimit);
    auto q = m_db.exec(
        QStringLiteral("SELECT id, at, actor, host, action, target_kind, target_ids, filter, reason, "
                       "affected_count, %1, %2, outcome FROM {audit} WHERE %3")
            .arg(state(QStringLiteral("before_state")), state(QStringLiteral("after_state")), where),
        binds);
    if (!q)
        return q.error();
    QVector<AuditEntry> entries;
    while (q->next()) {
        AuditEntry e;
        e.id = q->value(0).toLongLong();
        e.at = d.toDateTime(q->value(1));
        e.actor = q->value(2).toString();
        e.host = q->value(3).toString();
        e.action = q->value(4).toString();
        e.targetKind = q->value(5).toString();
        e.targetIds = QJsonDocument::fromJson(q->value(6).toString().toUtf8()).array();
        e.filter = QJsonDocument::fromJson(q->value(7).toString().toUtf8()).object();
        e.reason = q->value(8).toString();
        e.affectedCount = q->value(9).toLongLong();
        e.before = QJsonDocument::fromJson(q->value(10).toString().toUtf8()).object();
        e.beforeOmittedBytes = q->value(11).toLongLong();
        e.after = QJsonDocument::fromJson(q->value(12).toString().toUtf8()).object();
        e.afterOmittedBytes = q->value(13).toLongLong();
        e.outcome = q->value(14).toString();
        entries << e;
    }
    return entries;
}

} // namespace outbox
