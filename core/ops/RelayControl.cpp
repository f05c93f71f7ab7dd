#include "core/ops/RelayControl.h"

#include "core/db/Database.h"
#include "core/db/SqlCondition.h"
#include "core/ops/AuditLog.h"

#include <QSqlQuery>
#include <QSysInfo>

namespace outbox {

namespace {

// The named relays that are not registered (result.missing); an error when none of them is.
Status noteMissing(RelayControlResult& result, const QStringList& named, const QStringList& found)
{
    for (const QString& id : named)
        if (!found.contains(id))
            result.missing << id;
    if (found.isEmpty())
        return Error::notFound(QStringLiteral("no such relay: %1").arg(named.join(QStringLiteral(", "))));
    return {};
}

// The audit entry of a relay action on `targets` (worker ids); the caller adds the outcome (and
// the state after, where there is one).
AuditEntry auditEntry(const RelayControlResult& result, const QStringList& targets, const QString& reason,
                      const QString& actor, const QJsonObject& before)
{
    AuditEntry entry;
    entry.actor = actor;
    entry.host = QSysInfo::machineHostName();
    entry.action = result.action;
    entry.targetKind = QStringLiteral("relay");
    entry.targetIds = QJsonArray::fromStringList(targets);
    entry.reason = reason.trimmed();
    entry.affectedCount = result.changed.size();
    entry.before = before;
    return entry;
}

} // namespace

QString RelayControl::actionName(Command command)
{
    switch (command) {
    case Command::Pause:
        return QStringLiteral("relay.pause");
    case Command::Resume:
        return QStringLiteral("relay.resume");
    case Command::Drain:
        return QStringLiteral("relay.drain");
    }
    return {};
}

QString RelayControl::desiredState(Command command)
{
    switch (command) {
    case Command::Pause:
        return QStringLiteral("PAUSE");
    case Command::Resume:
        return QStringLiteral("RUN");
    case Command::Drain:
        return QStringLiteral("DRAIN");
    }
    return {};
}

Result<RelayControlResult> RelayControl::apply(Command command, const QStringList& workerIds,
                                               const QString& reason, const QString& actor)
{
    if (workerIds.isEmpty())
        return Error::usage(QStringLiteral("name the relays to change"));
    if (reason.trimmed().isEmpty())
        return Error::usage(QStringLiteral("a reason is required"));
    RelayControlResult result;
    result.action = actionName(command);
    const QString state = desiredState(command);

    Transaction tx(m_db);
    if (Status s = tx.beginWrite(); !s)
        return s.error();
    const QVariantList ids(workerIds.cbegin(), workerIds.cend());
    SqlCondition byId;
    byId.addIn(QStringLiteral("worker_id"), QStringLiteral("w"), ids);
    auto rows = m_db.exec(QStringLiteral("SELECT worker_id, desired_state FROM {relays} WHERE %1%2")
                              .arg(byId.where(), m_db.dialect().forUpdate()),
                          byId.binds);
    if (!rows)
        return rows.error();
    QJsonObject before;
    QStringList found;
    while (rows->next()) {
        found << rows->value(0).toString();
        const QString prior = rows->value(1).toString();
        before[prior] = before.value(prior).toInt() + 1;
        if (prior != state)
            result.changed << rows->value(0).toString();
    }
    if (Status s = noteMissing(result, workerIds, found); !s)
        return s.error();

    if (!result.changed.isEmpty()) {
        const QVariantList changed(result.changed.cbegin(), result.changed.cend());
        SqlCondition c;
        c.addIn(QStringLiteral("worker_id"), QStringLiteral("c"), changed);
        c.binds.insert(QStringLiteral(":state"), state);
        auto update = m_db.exec(
            QStringLiteral("UPDATE {relays} SET desired_state = :state WHERE %1").arg(c.where()), c.binds);
        if (!update)
            return update.error();
    }

    AuditEntry entry = auditEntry(result, found, reason, actor, before);
    entry.after = QJsonObject{{state, found.size()}};
    entry.outcome = result.changed.isEmpty()
                        ? QStringLiteral("none")
                        : (result.missing.isEmpty() ? QStringLiteral("ok") : QStringLiteral("partial"));
    auto audit = AuditLog(m_db).appendAndCommit(entry, tx);
    if (!audit)
        return audit.error();
    result.auditId = *audit;
    return result;
}

Result<RelayControlResult> RelayControl::forget(const QStringList& workerIds, qint64 staleAfterMs,
                                                const QString& reason, const QString& actor)
{
    if (workerIds.isEmpty())
        return Error::usage(QStringLiteral("name the relays to forget"));
    if (reason.trimmed().isEmpty())
        return Error::usage(QStringLiteral("a reason is required"));
    const Dialect& d = m_db.dialect();
    RelayControlResult result;
    result.action = QStringLiteral("relay.forget");
    Transaction tx(m_db);
    if (Status s = tx.beginWrite(); !s)
        return s.error();
    const QVariantList ids(workerIds.cbegin(), workerIds.cend());
    SqlCondition byId;
    byId.addIn(QStringLiteral("worker_id"), QStringLiteral("w"), ids);
    auto rows = m_db.exec(QStringLiteral("SELECT worker_id, state, heartbeat_at, %1 FROM {relays} WHERE %2%3")
                              .arg(d.now(), byId.where(), d.forUpdate()),
                          byId.binds);
    if (!rows)
        return rows.error();
    QJsonObject before;
    QStringList found;
    while (rows->next()) {
        const QString worker = rows->value(0).toString();
        found << worker;
        const qint64 age = d.toDateTime(rows->value(2)).msecsTo(d.toDateTime(rows->value(3)));
        if (age <= staleAfterMs)
            return Error::conflict(
                QStringLiteral("relay %1 sent a heartbeat %2 s ago: it is alive; drain or stop "
                               "it instead of forgetting it")
                    .arg(worker)
                    .arg(age / 1000));
        const QString state = rows->value(1).toString();
        before[state] = before.value(state).toInt() + 1;
        result.changed << worker;
    }
    if (Status s = noteMissing(result, workerIds, found); !s)
        return s.error();
    SqlCondition stale;
    const QVariantList changed(result.changed.cbegin(), result.changed.cend());
    stale.addIn(QStringLiteral("worker_id"), QStringLiteral("c"), changed);
    auto removed = m_db.exec(QStringLiteral("DELETE FROM {relays} WHERE %1").arg(stale.where()), stale.binds);
    if (!removed)
        return removed.error();

    AuditEntry entry = auditEntry(result, result.changed, reason, actor, before);
    entry.outcome = result.missing.isEmpty() ? QStringLiteral("ok") : QStringLiteral("partial");
    auto audit = AuditLog(m_db).append(entry);
    if (!audit)
        return audit.error();
    result.auditId = *audit;
    if (Status s = tx.commit(); !s)
        return s.error();
    return result;
}

} // namespace outbox
