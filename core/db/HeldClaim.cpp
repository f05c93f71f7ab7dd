#include "core/db/HeldClaim.h"

#include "core/db/Database.h"
#include "core/support/Failpoints.h"

#include <QSet>
#include <QSqlError>
#include <QSqlQuery>

namespace outbox {
namespace {

QVector<qint64> idsOf(const QString& arrayText)
{
    QVector<qint64> ids;
    const QStringView inner = QStringView(arrayText).mid(1, arrayText.size() - 2);
    for (const QStringView part : inner.split(QLatin1Char(','), Qt::SkipEmptyParts))
        ids << part.toLongLong();
    return ids;
}

} // namespace

HeldClaim::HeldClaim(std::unique_ptr<Database> db) : m_db(std::move(db)) {}

HeldClaim::~HeldClaim()
{
    abandon();
}

Result<std::unique_ptr<HeldClaim>> HeldClaim::open(std::unique_ptr<Database> db, qint64 holdMs)
{
    if (!db || !db->dialect().supportsHeldClaims())
        return Error::usage(QStringLiteral("held claims (relay.claim_mode = held) need PostgreSQL; use "
                                           "relay.claim_mode = lease on this database"));
    // A holder that stops answering (SIGSTOP, a swapped-out VM) loses its locks when a lease would
    // have expired: the server ends a session idle in a transaction for longer than this.
    auto set = db->exec(QStringLiteral("SET idle_in_transaction_session_timeout = %1").arg(holdMs));
    if (!set)
        return Error::runtime(
            QStringLiteral("cannot prepare a connection for held claims: %1").arg(set.message()));
    return std::unique_ptr<HeldClaim>(new HeldClaim(std::move(db)));
}

Result<ClaimedBatch> HeldClaim::claim(const QString& workerId, int limit, OrderingMode ordering)
{
    if (limit <= 0)
        return Error::usage(QStringLiteral("claim batch size must be positive"));
    if (m_holding)
        return Error::usage(QStringLiteral("a held claim is still open on this connection"));
    const Dialect& d = m_db->dialect();
    ClaimedBatch batch;
    m_workerId = workerId;
    if (Status s = m_db->beginWrite(); !s)
        return Error::runtime(QStringLiteral("claim failed: %1").arg(s.message()));
    m_holding = true;
    const QString due = EventStore::dueCondition(d, ordering);
    // The same columns as a leased claim returns (OutboxEvent::fromClaimed), with the attempt this
    // claim begins counted and no lease. The limit is written into the text (an int) for the
    // reason EventStore::claim gives.
    auto q = m_db->execPrepared(
        QStringLiteral(
            "SELECT e.id, e.event_id, e.event_type, e.aggregate_type, e.aggregate_id, "
            "e.aggregate_version, e.topic, e.payload, e.headers, e.schema_version, e.attempts + 1, "
            "CAST(NULL AS timestamptz), e.created_at FROM {events} e WHERE %1 ORDER BY e.id LIMIT %2%3")
            .arg(due, QString::number(limit), d.forUpdateSkipLocked()),
        {});
    if (!q) {
        abandon();
        return Error::runtime(QStringLiteral("claim failed: %1").arg(q.message()));
    }
    QSqlQuery& rows = **q;
    while (rows.next()) {
        OutboxEvent e = OutboxEvent::fromClaimed(rows, d);
        e.workerId = workerId;
        batch.events << e;
    }
    rows.finish();
    if (batch.events.isEmpty())
        abandon();
    return batch;
}

Result<FenceResult> HeldClaim::markSent(const QVector<SentMark>& marks)
{
    FenceResult result;
    if (marks.isEmpty())
        return result;
    if (!m_holding)
        return Error::usage(QStringLiteral("no held claim to mark"));
    if (Status s = Failpoints::hit("relay.mark_sent"); !s)
        return Error::runtime(QStringLiteral("marking events SENT failed: %1").arg(s.message()));
    const Dialect& d = m_db->dialect();
    QVariantMap binds = EventStore::sentMarksBinds(marks);
    binds.insert(QStringLiteral(":worker"), m_workerId);
    // Our locks are the fence: a row of the batch is PENDING until this transaction changes it.
    auto q = m_db->execPrepared(
        QStringLiteral("UPDATE {events} e SET status = 'SENT', sent_at = %1, attempts = e.attempts + 1, "
                       "worker_id = :worker, lease_until = NULL, lease_token = NULL, last_error = NULL, "
                       "last_error_class = NULL, broker_partition = m.p, broker_offset = m.o, sent_topic = "
                       "m.t FROM %2 WHERE e.id = m.id AND e.status = "
                       "'PENDING' RETURNING e.id")
            .arg(d.now(), EventStore::sentMarksSource(d)),
        binds);
    if (!q)
        return Error::runtime(QStringLiteral("marking events SENT failed: %1").arg(q.message()));
    QSet<qint64> updated;
    while ((*q)->next())
        updated.insert((*q)->value(0).toLongLong());
    if (Status s = Database::finished(**q); !s)
        return Error::runtime(QStringLiteral("marking events SENT failed: %1").arg(s.message()));
    result.updated = int(updated.size());
    for (const SentMark& m : marks) {
        if (!updated.contains(m.id))
            result.fenced << m.id;
    }
    return result;
}

Result<FenceResult> HeldClaim::errorMarks(const QVector<ErrorMark>& marks, const QString& status,
                                          bool withDelay, bool countAttempt)
{
    FenceResult result;
    if (marks.isEmpty())
        return result;
    if (!m_holding)
        return Error::usage(QStringLiteral("no held claim to mark"));
    const Dialect& d = m_db->dialect();
    const QString statement =
        QStringLiteral(
            "UPDATE {events} SET status = '%1'%3, last_error = :error, "
            "last_error_class = :class, worker_id = NULL, lease_until = NULL, lease_token = NULL%2 "
            "WHERE id = :id AND status = 'PENDING'")
            .arg(status,
                 withDelay ? QStringLiteral(", available_at = ") + d.nowPlusMillis(QStringLiteral(":delay"))
                           : QString(),
                 countAttempt ? QStringLiteral(", attempts = attempts + 1") : QString());
    for (const ErrorMark& m : marks) {
        QVariantMap binds{{QStringLiteral(":error"), m.error.left(4000)},
                          {QStringLiteral(":class"), m.errorClass},
                          {QStringLiteral(":id"), m.id}};
        if (withDelay)
            binds.insert(QStringLiteral(":delay"), m.retryDelayMs);
        auto q = m_db->execPrepared(statement, binds);
        if (!q)
            return Error::runtime(QStringLiteral("database error: %1").arg(q.message()));
        if ((*q)->numRowsAffected() == 1)
            ++result.updated;
        else
            result.fenced << m.id;
        (*q)->finish();
    }
    return result;
}

Result<FenceResult> HeldClaim::retryLater(const QVector<ErrorMark>& marks)
{
    return errorMarks(marks, QStringLiteral("PENDING"), true);
}

Result<FenceResult> HeldClaim::retryUncounted(const QVector<ErrorMark>& marks)
{
    return errorMarks(marks, QStringLiteral("PENDING"), true, false);
}

Result<FenceResult> HeldClaim::markFailed(const QVector<ErrorMark>& marks)
{
    return errorMarks(marks, QStringLiteral("FAILED"), false);
}

Result<FenceResult> HeldClaim::markDead(const QVector<ErrorMark>& marks)
{
    return errorMarks(marks, QStringLiteral("DEAD"), false);
}

Status HeldClaim::finish(qint64 journalId)
{
    if (!m_holding)
        return Error::usage(QStringLiteral("no held claim to commit"));
    if (journalId > 0) {
        auto q = m_db->execPrepared(QStringLiteral("DELETE FROM {held_claims} WHERE id = :id"),
                                    {{QStringLiteral(":id"), journalId}});
        if (!q) {
            abandon();
            return Error::runtime(QStringLiteral("committing a held claim failed: %1").arg(q.message()));
        }
        (*q)->finish();
    }
    m_holding = false;
    if (Status s = m_db->commit(); !s) {
        m_db->rollback();
        return Error::runtime(QStringLiteral("committing a held claim failed: %1").arg(s.message()));
    }
    return {};
}

void HeldClaim::abandon()
{
    if (!m_holding)
        return;
    m_holding = false;
    m_db->rollback();
}

Result<qint64> HeldClaim::journal(Database& db, const QString& workerId, const QVector<qint64>& ids,
                                  qint64 holdMs)
{
    const Dialect& d = db.dialect();
    auto q = db.execPrepared(
        QStringLiteral("INSERT INTO {held_claims} (worker_id, event_ids, held_until) "
                       "VALUES (:worker, %1, %2) RETURNING id")
            .arg(d.bigintArray(QStringLiteral(":ids")), d.nowPlusMillis(QStringLiteral(":hold"))),
        {{QStringLiteral(":worker"), workerId},
         {QStringLiteral(":ids"), Dialect::integerArrayText(ids)},
         {QStringLiteral(":hold"), holdMs}});
    if (!q)
        return Error::runtime(QStringLiteral("journalling a held claim failed: %1").arg(q.message()));
    if (!(*q)->next())
        return Error::runtime(QStringLiteral("journalling a held claim failed: no id returned"));
    const qint64 id = (*q)->value(0).toLongLong();
    if (Status s = Database::finished(**q); !s)
        return Error::runtime(QStringLiteral("journalling a held claim failed: %1").arg(s.message()));
    return id;
}

Status HeldClaim::forget(Database& db, qint64 journalId)
{
    auto q = db.exec(QStringLiteral("DELETE FROM {held_claims} WHERE id = :id"),
                     {{QStringLiteral(":id"), journalId}});
    if (!q)
        return Error::runtime(
            QStringLiteral("removing a held claim's journal row failed: %1").arg(q.message()));
    return {};
}

namespace {

// True when the database has the held-claims journal (PostgreSQL from migration 11 on; a schema
// before it has none yet).
Result<bool> hasJournal(Database& db)
{
    if (!db.dialect().supportsHeldClaims())
        return false;
    auto present = db.scalar(QStringLiteral("SELECT to_regclass('{held_claims}') IS NOT NULL"));
    if (!present)
        return present.error();
    return present->toBool();
}

} // namespace

Result<HeldClaim::Overdue> HeldClaim::overdue(Database& db, qint64 graceMs, int maxWorkers)
{
    Overdue o;
    auto present = hasJournal(db);
    if (!present)
        return present.error();
    if (!*present)
        return o;
    const Dialect& d = db.dialect();
    const QString where = QStringLiteral("held_until < %1").arg(d.nowPlusMillis(QStringLiteral(":grace")));
    const QVariantMap binds{{QStringLiteral(":grace"), -graceMs}};
    auto summary = db.exec(QStringLiteral("SELECT COUNT(*), COALESCE(SUM(cardinality(event_ids)), 0), "
                                          "MIN(held_until), MAX(held_until) FROM {held_claims} WHERE %1")
                               .arg(where),
                           binds);
    if (!summary)
        return summary.error();
    if (!summary->next() || summary->value(0).toLongLong() == 0)
        return o;
    o.batches = summary->value(0).toLongLong();
    o.events = summary->value(1).toLongLong();
    o.oldest = d.toDateTime(summary->value(2));
    o.newest = d.toDateTime(summary->value(3));
    QVariantMap workerBinds = binds;
    workerBinds.insert(QStringLiteral(":limit"), maxWorkers);
    auto workers = db.exec(QStringLiteral("SELECT worker_id FROM {held_claims} WHERE %1 GROUP BY worker_id "
                                          "ORDER BY COUNT(*) DESC, worker_id LIMIT :limit")
                               .arg(where),
                           workerBinds);
    if (!workers)
        return workers.error();
    while (workers->next())
        o.workers << workers->value(0).toString();
    return o;
}

Result<QVector<HeldClaim::InFlight>> HeldClaim::inFlight(Database& db)
{
    QVector<InFlight> holders;
    auto present = hasJournal(db);
    if (!present)
        return present.error();
    if (!*present)
        return holders;
    auto rows =
        db.exec(QStringLiteral("SELECT worker_id, COALESCE(SUM(cardinality(event_ids)), 0), "
                               "COALESCE(SUM(CASE WHEN held_until < %1 THEN cardinality(event_ids) "
                               "ELSE 0 END), 0) FROM {held_claims} GROUP BY worker_id ORDER BY worker_id")
                    .arg(db.dialect().now()));
    if (!rows)
        return rows.error();
    while (rows->next())
        holders << InFlight{rows->value(0).toString(), rows->value(1).toLongLong(),
                            rows->value(2).toLongLong()};
    return holders;
}

Result<std::optional<HeldClaim::Holder>> HeldClaim::holderOf(Database& db, qint64 eventId)
{
    auto present = hasJournal(db);
    if (!present)
        return present.error();
    if (!*present)
        return std::optional<Holder>();
    // held_since came with migration 16; a journal from before it has no start time.
    auto since = db.scalar(QStringLiteral("SELECT COUNT(*) FROM pg_attribute WHERE attrelid = "
                                          "to_regclass('{held_claims}') AND attname = 'held_since' "
                                          "AND NOT attisdropped"));
    if (!since)
        return since.error();
    const Dialect& d = db.dialect();
    auto rows =
        db.exec(QStringLiteral("SELECT worker_id, %1, held_until FROM {held_claims} "
                               "WHERE event_ids @> ARRAY[CAST(:id AS bigint)] ORDER BY id DESC LIMIT 1")
                    .arg(since->toLongLong() > 0 ? QStringLiteral("held_since")
                                                 : QStringLiteral("CAST(NULL AS timestamptz)")),
                {{QStringLiteral(":id"), eventId}});
    if (!rows)
        return rows.error();
    if (!rows->next())
        return std::optional<Holder>();
    return std::optional<Holder>(
        Holder{rows->value(0).toString(), d.toDateTime(rows->value(1)), d.toDateTime(rows->value(2))});
}

Result<ReapResult> HeldClaim::reap(Database& db, int maxAttempts, OrderingMode ordering)
{
    ReapResult result;
    if (!db.dialect().supportsHeldClaims())
        return result;
    const Dialect& d = db.dialect();
    auto stale = db.exec(QStringLiteral("SELECT id, CAST(event_ids AS text) FROM {held_claims} "
                                        "WHERE held_until < %1 ORDER BY id LIMIT 100")
                             .arg(d.now()));
    if (!stale)
        return Error::runtime(QStringLiteral("reaping held claims failed: %1").arg(stale.message()));
    QVector<QPair<qint64, QVector<qint64>>> rows;
    while (stale->next())
        rows.append({stale->value(0).toLongLong(), idsOf(stale->value(1).toString())});
    stale->finish();
    const QString finalStatus =
        ordering == OrderingMode::Aggregate ? QStringLiteral("FAILED") : QStringLiteral("DEAD");
    for (const auto& row : rows) {
        const QVariantMap ids{{QStringLiteral(":ids"), Dialect::integerArrayText(row.second)}};
        Transaction tx(db);
        if (Status s = tx.beginWrite(); !s)
            return Error::runtime(QStringLiteral("reaping held claims failed: %1").arg(s.message()));
        // Lock what no live holder has locked; if any of the batch is still PENDING but locked, its
        // holder is alive (slow, not dead): leave the row for a later pass.
        auto free =
            db.exec(QStringLiteral("SELECT id FROM {events} WHERE id = ANY(%1) AND status = 'PENDING' "
                                   "ORDER BY id%2")
                        .arg(d.bigintArray(QStringLiteral(":ids")), d.forUpdateSkipLocked()),
                    ids);
        if (!free)
            return Error::runtime(QStringLiteral("reaping held claims failed: %1").arg(free.message()));
        QVector<qint64> unlocked;
        while (free->next())
            unlocked << free->value(0).toLongLong();
        auto pending = db.scalar(
            QStringLiteral("SELECT COUNT(*) FROM {events} WHERE id = ANY(%1) AND status = 'PENDING'")
                .arg(d.bigintArray(QStringLiteral(":ids"))),
            ids);
        if (!pending)
            return Error::runtime(QStringLiteral("reaping held claims failed: %1").arg(pending.message()));
        if (pending->toLongLong() > unlocked.size())
            continue; // rolled back by tx
        if (!unlocked.isEmpty()) {
            auto q = db.exec(
                QStringLiteral(
                    "UPDATE {events} SET attempts = attempts + 1, last_error_class = 'lease_expired', "
                    "status = CASE WHEN :max > 0 AND attempts + 1 >= :max THEN '%1' ELSE status END, "
                    "last_error = CASE WHEN :max > 0 AND attempts + 1 >= :max "
                    "THEN 'held claim lost after ' || (attempts + 1) || :exhausted "
                    "ELSE :returned END WHERE id = ANY(%2) RETURNING status")
                    .arg(finalStatus, d.bigintArray(QStringLiteral(":locked"))),
                {{QStringLiteral(":max"), maxAttempts},
                 {QStringLiteral(":locked"), Dialect::integerArrayText(unlocked)},
                 {QStringLiteral(":exhausted"),
                  QStringLiteral(" attempts (max %1): the relay holding it stopped or stalled while sending "
                                 "it; if sending this event crashes the relay, inspect it before requeueing")
                      .arg(maxAttempts)},
                 {QStringLiteral(":returned"),
                  QStringLiteral("held claim lost: the relay holding it stopped or stalled")}});
            if (!q)
                return Error::runtime(QStringLiteral("reaping held claims failed: %1").arg(q.message()));
            while (q->next()) {
                if (q->value(0).toString() == QLatin1String("PENDING"))
                    ++result.returned;
                else
                    ++result.exhausted;
            }
        }
        auto del = db.exec(QStringLiteral("DELETE FROM {held_claims} WHERE id = :id"),
                           {{QStringLiteral(":id"), row.first}});
        if (!del)
            return Error::runtime(QStringLiteral("reaping held claims failed: %1").arg(del.message()));
        if (Status s = tx.commit(); !s)
            return Error::runtime(QStringLiteral("reaping held claims failed: %1").arg(s.message()));
    }
    return result;
}

} // namespace outbox
