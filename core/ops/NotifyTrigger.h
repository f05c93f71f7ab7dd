#pragma once

#include "core/ops/AuditEntry.h"
#include "core/support/Result.h"

#include <QCoreApplication>
#include <optional>

namespace outbox {

class Database;

// What the wake-up trigger of a database is: on PostgreSQL the statement-level trigger that
// NOTIFYs relays of every INSERT of events; elsewhere there is none and relays poll.
struct NotifyTriggerState
{
    bool exists = false;    // false: no trigger on this database (MariaDB/MySQL, SQLite, or dropped)
    bool supported = false; // the database kind has one (PostgreSQL)
    bool enabled = false;
    bool mayAlter = false; // this session may switch it (the table's owner, or a superuser)
    QString table;
    QString trigger;
};

struct NotifySwitchResult
{
    QString action; // notify.on, notify.off
    bool enabled = false;
    bool supported = false; // false: the database has no such trigger (relays poll); nothing changed
    bool changed = false;   // false: it already was so, nothing written
    qint64 auditId = 0;
    QString table;
    QString trigger;
};

// Switching the wake-up trigger: the cheaper option for write-heavy services (docs/contract.md,
// "What happens after COMMIT"). NOTIFY takes a database-wide lock at commit; without it writers
// commit 1.8-6x faster at 8-64 durable writers and relays poll instead (adaptively, see
// AdaptivePoll). The ALTER TABLE and its audit row commit in one transaction; only the table's
// owner (the account that ran the migrations) may do it.
class NotifyTrigger
{
    Q_DECLARE_TR_FUNCTIONS(outbox::NotifyTrigger)

public:
    // How long the switch tries to get the table's lock (writers' and relays' transactions hold it)
    // before it gives up, changing nothing.
    static constexpr int LockTimeoutMs = 5000;
    // How long one try waits for the lock. ALTER TABLE queues for a lock that conflicts with the
    // writers' own, and every INSERT after it queues behind it: a try that waited the whole 5 s made
    // every writer wait as long (writer max 5,040 ms against 143 ms, issue 38 item 7). Short tries
    // with pauses between them, in which the writers run, bound that wait to this.
    static constexpr int TryLockMs = 50;
    static constexpr int PauseBetweenTriesMs = 200;

    explicit NotifyTrigger(Database& db) : m_db(db) {}

    Result<NotifyTriggerState> state();
    Result<NotifySwitchResult> setEnabled(bool enabled, const QString& reason, const QString& actor);
    // The latest audited switch (who, when, why), if any.
    Result<std::optional<AuditEntry>> lastSwitch();
    // The audit row that switched the trigger off, when the latest switch was off (the trigger is
    // off on purpose); none when it was switched by hand or never.
    Result<std::optional<AuditEntry>> switchedOffBy();

    static QString actionName(bool enabled);
    // Why this session cannot switch the trigger of `state` to `enabled`: there is none to switch on
    // (the database polls), it is missing, or the session is not the table's owner. OK when it may,
    // and when the trigger already is so (nothing to do).
    static Status refusal(const NotifyTriggerState& state, bool enabled);

private:
    // One try in one transaction, waiting at most `lockMs` for the table's lock.
    Result<NotifySwitchResult> switchOnce(bool enabled, const QString& reason, const QString& actor,
                                          int lockMs);

    Database& m_db;
};

} // namespace outbox
