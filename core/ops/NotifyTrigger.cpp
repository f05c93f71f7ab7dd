#include "core/ops/NotifyTrigger.h"

#include "core/db/Database.h"
#include "core/ops/AuditLog.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QSqlQuery>
#include <QSysInfo>
#include <QThread>

namespace outbox {

QString NotifyTrigger::actionName(bool enabled)
{
    return enabled ? QStringLiteral("notify.on") : QStringLiteral("notify.off");
}

Result<NotifyTriggerState> NotifyTrigger::state()
{
    const Dialect& d = m_db.dialect();
    NotifyTriggerState s;
    s.table = d.table(QStringLiteral("outbox_events"));
    s.trigger = d.newEventsTrigger();
    const QString statement = d.newEventsTriggerState();
    s.supported = !statement.isEmpty();
    if (!s.supported)
        return s;
    auto q =
        m_db.exec(statement, {{QStringLiteral(":table"), s.table}, {QStringLiteral(":trigger"), s.trigger}});
    if (!q)
        return q.error();
    if (q->next()) {
        s.exists = true;
        s.enabled = q->value(0).toBool();
        s.mayAlter = q->value(1).toBool();
    }
    return s;
}

Status NotifyTrigger::refusal(const NotifyTriggerState& state, bool enabled)
{
    if (!state.supported) {
        if (!enabled)
            return {}; // no trigger, relays poll: already what was asked
        return Error::usage(tr("this database has no wake-up trigger: relays poll it (relay.poll_ms); "
                               "there is nothing to switch on"));
    }
    if (!state.exists)
        return Error::conflict(tr("the wake-up trigger %1 on %2 is missing: run outboxctl migrate as the "
                                  "schema owner to create it")
                                   .arg(state.trigger, state.table));
    if (state.enabled == enabled)
        return {};
    if (!state.mayAlter)
        return Error::usage(tr("only the owner of %1 (the account that ran outboxctl migrate) may switch its "
                               "wake-up trigger; this connection's role may not: nothing changed")
                                .arg(state.table))
            .about(QStringLiteral("database.url"));
    return {};
}

Result<NotifySwitchResult> NotifyTrigger::setEnabled(bool enabled, const QString& reason,
                                                     const QString& actor)
{
    if (reason.trimmed().isEmpty())
        return Error::usage(tr("a reason is required"));
    QElapsedTimer waited;
    waited.start();
    while (true) {
        auto result = switchOnce(enabled, reason, actor, TryLockMs);
        // Only a lock that could not be had is tried again; "lock timeout" is PostgreSQL's word.
        if (result || !result.message().contains(QLatin1String("lock timeout")) ||
            waited.elapsed() + PauseBetweenTriesMs + TryLockMs > LockTimeoutMs)
            return result;
        QThread::msleep(PauseBetweenTriesMs);
    }
}

Result<NotifySwitchResult> NotifyTrigger::switchOnce(bool enabled, const QString& reason,
                                                     const QString& actor, int lockMs)
{
    NotifySwitchResult result;
    result.action = actionName(enabled);
    result.enabled = enabled;

    Transaction tx(m_db);
    if (Status s = tx.beginWrite(); !s)
        return s.error();
    for (const QString& statement : m_db.dialect().lockTimeout(lockMs))
        if (auto set = m_db.exec(statement); !set)
            return set.error();
    auto current = state();
    if (!current)
        return current.error();
    result.table = current->table;
    result.trigger = current->trigger;
    result.supported = current->supported;
    if (Status refused = refusal(*current, enabled); !refused)
        return refused.error();
    if (!current->supported || current->enabled == enabled)
        return result; // no trigger and off was asked, or already so: nothing to change, nothing to record

    auto alter = m_db.exec(m_db.dialect().switchNewEventsTrigger(enabled));
    if (!alter) {
        Error e = alter.error();
        e.message = tr("%1 could not be changed (%2); nothing changed. A long transaction on the table holds "
                       "its lock: try again.")
                        .arg(current->table, e.message);
        return e;
    }
    AuditEntry entry;
    entry.actor = actor;
    entry.host = QSysInfo::machineHostName();
    entry.action = result.action;
    entry.targetKind = QStringLiteral("table");
    entry.targetIds = QJsonArray{current->table};
    entry.reason = reason.trimmed();
    entry.affectedCount = 1;
    const auto word = [](bool on) { return on ? QStringLiteral("on") : QStringLiteral("off"); };
    entry.before = QJsonObject{{current->trigger, word(current->enabled)}};
    entry.after = QJsonObject{{current->trigger, word(enabled)}};
    entry.outcome = QStringLiteral("ok");
    auto audit = AuditLog(m_db).appendAndCommit(entry, tx);
    if (!audit)
        return audit.error();
    result.changed = true;
    result.auditId = *audit;
    return result;
}

Result<std::optional<AuditEntry>> NotifyTrigger::lastSwitch()
{
    std::optional<AuditEntry> latest;
    for (bool enabled : {true, false}) {
        AuditQuery query;
        query.action = actionName(enabled);
        query.limit = 1;
        auto entries = AuditLog(m_db).list(query);
        if (!entries)
            return entries.error();
        if (!entries->isEmpty() && (!latest || entries->first().id > latest->id))
            latest = entries->first();
    }
    return latest;
}

Result<std::optional<AuditEntry>> NotifyTrigger::switchedOffBy()
{
    auto last = lastSwitch();
    if (!last)
        return last.error();
    if (last->has_value() && (*last)->action == actionName(false))
        return *last;
    return std::optional<AuditEntry>{};
}

} // namespace outbox
