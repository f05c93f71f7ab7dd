#include "core/db/EventStore.h"

#include "core/db/Database.h"
#include "core/db/EventStatus.h"
#include "core/support/Failpoints.h"

#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>
#include <algorithm>

namespace outbox {
namespace {

constexpr int RowsPerStatement = 500;

QVariantList toVariantList(const QVector<qint64>& ids)
{
    QVariantList v;
    v.reserve(ids.size());
    for (qint64 id : ids)
        v << id;
    return v;
}

} // namespace

QString EventStore::dueCondition(const Dialect& d, OrderingMode ordering)
{
    // Ordering mode: an event waits while an earlier event of its aggregate is unfinished (a held
    // earlier event is still PENDING, so its successors wait for its commit as for a SENDING one).
    const QString gate =
        QStringLiteral(" AND NOT EXISTS (SELECT 1 FROM {events} p WHERE p.aggregate_type = e.aggregate_type "
                       "AND p.aggregate_id = e.aggregate_id AND p.id < e.id "
                       "AND p.status IN ('PENDING', 'SENDING', 'FAILED'))");
    return QStringLiteral("e.status = 'PENDING' AND e.available_at <= %1").arg(d.now()) +
           (ordering == OrderingMode::Aggregate ? gate : QString());
}

QString EventStore::sentMarksSource(const Dialect& d)
{
    return QStringLiteral("unnest(%1, %2, %3, %4) AS m(id, p, o, t)")
        .arg(d.bigintArray(QStringLiteral(":ids")), d.bigintArray(QStringLiteral(":partitions")),
             d.bigintArray(QStringLiteral(":offsets")), d.textArray(QStringLiteral(":topics")));
}

QVariantMap EventStore::sentMarksBinds(const QVector<SentMark>& marks)
{
    QVector<qint64> ids, partitions, offsets;
    QStringList topics; // empty: NULL in the array (no routed topic)
    for (const SentMark& m : marks) {
        ids << m.id;
        partitions << m.partition;
        offsets << m.offset;
        topics << m.topic;
    }
    return {{QStringLiteral(":ids"), Dialect::integerArrayText(ids)},
            {QStringLiteral(":partitions"), Dialect::integerArrayText(partitions)},
            {QStringLiteral(":offsets"), Dialect::integerArrayText(offsets)},
            {QStringLiteral(":topics"), Dialect::textArrayText(topics, Dialect::EmptyIsNull)}};
}

Result<ClaimedBatch> EventStore::claim(const QString& workerId, int limit, qint64 leaseMs,
                                       OrderingMode ordering)
{
    if (limit <= 0)
        return Error::usage(QStringLiteral("claim batch size must be positive"));
    const Dialect& d = m_db.dialect();
    ClaimedBatch batch;
    batch.leaseToken = QUuid::createUuid().toString(QUuid::WithoutBraces);

    const QString due = dueCondition(d, ordering);
    const QString set = QStringLiteral("status = 'SENDING', worker_id = :worker, lease_token = :token, "
                                       "lease_until = %1, attempts = attempts + 1")
                            .arg(d.nowPlusMillis(QStringLiteral(":lease")));
    QVariantMap binds{{QStringLiteral(":worker"), workerId},
                      {QStringLiteral(":token"), batch.leaseToken},
                      {QStringLiteral(":lease"), leaseMs}};

    if (d.forUpdateSkipLocked().isEmpty()) {
        // One writer at a time (SQLite): look before taking the write lock, so that a relay woken
        // by someone else's commit does not queue behind the writers for an empty claim.
        auto any = m_db.exec(QStringLiteral("SELECT 1 FROM {events} e WHERE %1 LIMIT 1").arg(due));
        if (!any)
            return Error::runtime(QStringLiteral("claim failed: %1").arg(any.message()));
        if (!any->next())
            return batch;
    }
    // One UPDATE … RETURNING is atomic on its own: no BEGIN and COMMIT round trips around it.
    Transaction tx(m_db);
    if (!d.hasUpdateReturning()) {
        if (Status s = tx.beginWrite(); !s)
            return s.error();
    }

    if (d.hasUpdateReturning()) {
        // Prepared once per connection (one round trip per claim instead of prepare, execute and
        // deallocate), returning only what a relay sends and needs: the lease's own columns are
        // known here, the error, broker and time columns are empty or unused for a SENDING row.
        // The limit is written into the text (an int, never user input): PostgreSQL's generic
        // plan for a prepared `LIMIT $n` assumes a tenth of the table and hash-joins a sequential
        // scan of the whole outbox (152 ms instead of 10 ms on 100,000 rows).
        // On PostgreSQL the locked ids come back as one array looked up by primary key: `IN
        // (subquery)` let the planner hash-join a sequential scan of the table whenever its
        // statistics called the table small (a fresh or a just-emptied outbox).
        const QString chosen = QStringLiteral("SELECT e.id FROM {events} e WHERE %1 ORDER BY e.id LIMIT %2%3")
                                   .arg(due, QString::number(limit), d.forUpdateSkipLocked());
        const QString which = d.bigintArray(QStringLiteral(":x")).isEmpty()
                                  ? QStringLiteral("id IN (%1)").arg(chosen)
                                  : QStringLiteral("id = ANY(ARRAY(%1))").arg(chosen);
        auto q = m_db.execPrepared(QStringLiteral("UPDATE {events} SET %1 WHERE %2 RETURNING %3")
                                       .arg(set, which, OutboxEvent::claimedColumns()),
                                   binds);
        if (!q)
            return Error::runtime(QStringLiteral("claim failed: %1").arg(q.message()));
        QSqlQuery& rows = **q;
        while (rows.next()) {
            OutboxEvent e = OutboxEvent::fromClaimed(rows, d);
            e.workerId = workerId;
            e.leaseToken = batch.leaseToken;
            batch.events << e;
        }
        // A claim that did not commit must never be sent.
        if (Status s = Database::finished(rows); !s)
            return Error::runtime(QStringLiteral("claim failed: %1").arg(s.message()));
    } else {
        auto ids =
            m_db.exec(QStringLiteral("SELECT e.id FROM {events} e WHERE %1 ORDER BY e.id LIMIT :limit%2")
                          .arg(due, d.forUpdateSkipLocked()),
                      {{QStringLiteral(":limit"), limit}});
        if (!ids)
            return Error::runtime(QStringLiteral("claim failed: %1").arg(ids.message()));
        QVariantList idList;
        while (ids->next())
            idList << ids->value(0);
        if (!idList.isEmpty()) {
            SqlCondition c;
            c.addIn(QStringLiteral("id"), QStringLiteral("c"), idList);
            c.binds.insert(binds);
            auto upd = m_db.exec(
                QStringLiteral("UPDATE {events} SET %1 WHERE %2 AND status = 'PENDING'").arg(set, c.where()),
                c.binds);
            if (!upd)
                return Error::runtime(QStringLiteral("claim failed: %1").arg(upd.message()));
            // Read back by primary key: no index covers lease_token (a full scan per claim).
            SqlCondition mine;
            mine.addIn(QStringLiteral("id"), QStringLiteral("c"), idList);
            mine.add(QStringLiteral("lease_token = :token"), QStringLiteral(":token"), batch.leaseToken);
            auto rows = m_db.exec(
                QStringLiteral("SELECT %1 FROM {events} WHERE %2").arg(OutboxEvent::columns(), mine.where()),
                mine.binds);
            if (!rows)
                return Error::runtime(QStringLiteral("claim failed: %1").arg(rows.message()));
            while (rows->next())
                batch.events << OutboxEvent::fromQuery(*rows, d);
        }
    }
    if (!d.hasUpdateReturning()) {
        if (Status s = tx.commit(); !s)
            return Error::runtime(QStringLiteral("claim failed: %1").arg(s.message()));
    }
    std::sort(batch.events.begin(), batch.events.end(),
              [](const OutboxEvent& a, const OutboxEvent& b) { return a.id < b.id; });
    return batch;
}

Result<QSet<qint64>> EventStore::updateFenced(const QString& leaseToken, const QVariantList& ids,
                                              const QString& setClause, const QVariantMap& setBinds)
{
    const Dialect& d = m_db.dialect();
    SqlCondition fence;
    const QString idArray = d.bigintArray(QStringLiteral(":ids"));
    if (!idArray.isEmpty()) {
        // One bound array instead of one parameter per id: the statement text (and its parse and
        // plan) stays the same whatever the batch size.
        QVector<qint64> values;
        values.reserve(ids.size());
        for (const QVariant& id : ids)
            values << id.toLongLong();
        fence.add(QStringLiteral("id = ANY(%1)").arg(idArray), QStringLiteral(":ids"),
                  Dialect::integerArrayText(values));
    } else {
        fence.addIn(QStringLiteral("id"), QStringLiteral("m"), ids);
    }
    fence.add(QStringLiteral("status = 'SENDING' AND lease_token = :token"), QStringLiteral(":token"),
              leaseToken);
    QSet<qint64> updated;
    if (!d.hasUpdateReturning()) {
        // Without UPDATE … RETURNING, lock and learn which rows are still ours first.
        auto mine =
            m_db.exec(QStringLiteral("SELECT id FROM {events} WHERE %1%2").arg(fence.where(), d.forUpdate()),
                      fence.binds);
        if (!mine)
            return mine.error();
        while (mine->next())
            updated.insert(mine->value(0).toLongLong());
    }
    fence.binds.insert(setBinds);
    auto q = m_db.exec(QStringLiteral("UPDATE {events} SET %1 WHERE %2%3")
                           .arg(setClause, fence.where(),
                                d.hasUpdateReturning() ? QStringLiteral(" RETURNING id") : QString()),
                       fence.binds);
    if (!q)
        return q.error();
    if (d.hasUpdateReturning()) {
        while (q->next())
            updated.insert(q->value(0).toLongLong());
        if (Status s = Database::finished(q.value()); !s)
            return s.error();
    }
    return updated;
}

Result<FenceResult> EventStore::markSent(const QString& leaseToken, const QVector<SentMark>& marks)
{
    FenceResult result;
    if (marks.isEmpty())
        return result;
    const Dialect& d = m_db.dialect();
    QSet<qint64> updated;
    const QString idArray = d.bigintArray(QStringLiteral(":ids"));
    Transaction tx(m_db);
    if (idArray.isEmpty()) {
        if (Status s = tx.beginWrite(); !s)
            return s.error();
    } else if (Status s = Failpoints::hit("relay.mark_sent"); !s) {
        // The one statement commits on its own: a failure injected here is one before the commit.
        return Error::runtime(QStringLiteral("marking events SENT failed: %1").arg(s.message()));
    }
    if (!idArray.isEmpty()) {
        // One statement per batch: the ids, partitions, offsets and topics as bound arrays joined to
        // the rows by primary key; fenced by status and lease token like every other mark.
        QVariantMap binds = sentMarksBinds(marks);
        binds.insert(QStringLiteral(":token"), leaseToken);
        // Prepared once per connection: the same text whatever the batch (bound arrays).
        auto q = m_db.execPrepared(
            QStringLiteral("UPDATE {events} e SET status = 'SENT', sent_at = %1, lease_until = NULL, "
                           "lease_token = NULL, last_error = NULL, last_error_class = NULL, broker_partition "
                           "= m.p, broker_offset = m.o, sent_topic = m.t "
                           "FROM %2 WHERE e.id = m.id AND e.status = 'SENDING' AND e.lease_token = :token "
                           "RETURNING e.id")
                .arg(d.now(), sentMarksSource(d)),
            binds);
        if (!q)
            return Error::runtime(QStringLiteral("marking events SENT failed: %1").arg(q.message()));
        while ((*q)->next())
            updated.insert((*q)->value(0).toLongLong());
        if (Status s = Database::finished(**q); !s)
            return Error::runtime(QStringLiteral("marking events SENT failed: %1").arg(s.message()));
    }
    for (int start = 0; idArray.isEmpty() && start < marks.size(); start += RowsPerStatement) {
        const int end = std::min<int>(marks.size(), start + RowsPerStatement);
        QVariantList ids;
        QString partitionCase = QStringLiteral("CASE id");
        QString offsetCase = QStringLiteral("CASE id");
        QString topicCase = QStringLiteral("CASE id");
        QVariantMap binds;
        for (int i = start; i < end; ++i) {
            const QString n = QString::number(i - start);
            ids << marks.at(i).id;
            // :mN is the id bound by updateFenced()'s IN list.
            partitionCase +=
                QStringLiteral(" WHEN :m%1 THEN %2").arg(n, d.integerValue(QStringLiteral(":p") + n));
            offsetCase +=
                QStringLiteral(" WHEN :m%1 THEN %2").arg(n, d.integerValue(QStringLiteral(":o") + n));
            binds.insert(QStringLiteral(":p") + n, marks.at(i).partition);
            binds.insert(QStringLiteral(":o") + n, marks.at(i).offset);
            topicCase += QStringLiteral(" WHEN :m%1 THEN :t%1").arg(n);
            binds.insert(QStringLiteral(":t") + n, marks.at(i).topic.isEmpty()
                                                       ? QVariant(QMetaType(QMetaType::QString))
                                                       : QVariant(marks.at(i).topic));
        }
        auto done = updateFenced(
            leaseToken, ids,
            QStringLiteral("status = 'SENT', sent_at = %1, lease_until = NULL, lease_token = NULL, "
                           "last_error = NULL, last_error_class = NULL, broker_partition = %2 END, "
                           "broker_offset = %3 END, sent_topic = %4 END")
                .arg(d.now(), partitionCase, offsetCase, topicCase),
            binds);
        if (!done)
            return Error::runtime(QStringLiteral("marking events SENT failed: %1").arg(done.message()));
        updated.unite(*done);
    }
    if (idArray.isEmpty()) {
        if (Status s = Failpoints::hit("relay.mark_sent"); !s)
            return Error::runtime(QStringLiteral("marking events SENT failed: %1").arg(s.message()));
        if (Status s = tx.commit(); !s)
            return Error::runtime(QStringLiteral("marking events SENT failed: %1").arg(s.message()));
    }
    result.updated = int(updated.size());
    for (const SentMark& m : marks) {
        if (!updated.contains(m.id))
            result.fenced << m.id;
    }
    return result;
}

Result<FenceResult> EventStore::fencedErrorUpdate(const QString& leaseToken, const QVector<ErrorMark>& marks,
                                                  const QString& setClause, bool withDelay)
{
    FenceResult result;
    if (marks.isEmpty())
        return result;
    const Dialect& d = m_db.dialect();
    Transaction tx(m_db);
    if (Status s = tx.beginWrite(); !s)
        return s.error();
    QSqlQuery q(m_db.handle());
    const QString statement =
        d.sql(QStringLiteral("UPDATE {events} SET %1, last_error = :error, last_error_class = :class, "
                             "worker_id = NULL, lease_until = NULL, lease_token = NULL%2 "
                             "WHERE id = :id AND status = 'SENDING' AND lease_token = :token")
                  .arg(setClause, withDelay ? QStringLiteral(", available_at = ") +
                                                  d.nowPlusMillis(QStringLiteral(":delay"))
                                            : QString()));
    if (!q.prepare(statement))
        return Error::runtime(QStringLiteral("database error: %1").arg(Database::describe(q.lastError())));
    for (const ErrorMark& m : marks) {
        q.bindValue(QStringLiteral(":error"), m.error.left(4000));
        q.bindValue(QStringLiteral(":class"), m.errorClass);
        if (withDelay)
            q.bindValue(QStringLiteral(":delay"), m.retryDelayMs);
        q.bindValue(QStringLiteral(":id"), m.id);
        q.bindValue(QStringLiteral(":token"), leaseToken);
        if (!q.exec())
            return Error::runtime(
                QStringLiteral("database error: %1").arg(Database::describe(q.lastError())));
        if (q.numRowsAffected() == 1)
            ++result.updated;
        else
            result.fenced << m.id;
    }
    q.finish();
    if (Status s = tx.commit(); !s)
        return s.error();
    return result;
}

Result<FenceResult> EventStore::retryLater(const QString& leaseToken, const QVector<ErrorMark>& marks)
{
    return fencedErrorUpdate(leaseToken, marks, QStringLiteral("status = 'PENDING'"), true);
}

Result<FenceResult> EventStore::retryUncounted(const QString& leaseToken, const QVector<ErrorMark>& marks)
{
    return fencedErrorUpdate(
        leaseToken, marks,
        QStringLiteral("status = 'PENDING', attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END"),
        true);
}

Result<FenceResult> EventStore::markFailed(const QString& leaseToken, const QVector<ErrorMark>& marks)
{
    return fencedErrorUpdate(leaseToken, marks, QStringLiteral("status = 'FAILED'"), false);
}

Result<FenceResult> EventStore::markDead(const QString& leaseToken, const QVector<ErrorMark>& marks)
{
    return fencedErrorUpdate(leaseToken, marks, QStringLiteral("status = 'DEAD'"), false);
}

Result<FenceResult> EventStore::release(const QString& leaseToken, const QVector<qint64>& ids)
{
    FenceResult result;
    if (ids.isEmpty())
        return result;
    Transaction tx(m_db);
    if (Status s = tx.beginWrite(); !s)
        return s.error();
    QSet<qint64> updated;
    for (int start = 0; start < ids.size(); start += RowsPerStatement) {
        auto done = updateFenced(
            leaseToken, toVariantList(ids.mid(start, RowsPerStatement)),
            QStringLiteral("status = 'PENDING', worker_id = NULL, lease_until = NULL, lease_token = NULL, "
                           "attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END"),
            {});
        if (!done)
            return Error::runtime(QStringLiteral("releasing claims failed: %1").arg(done.message()));
        updated.unite(*done);
    }
    if (Status s = tx.commit(); !s)
        return Error::runtime(QStringLiteral("releasing claims failed: %1").arg(s.message()));
    result.updated = int(updated.size());
    for (qint64 id : ids) {
        if (!updated.contains(id))
            result.fenced << id;
    }
    return result;
}

Result<ReapResult> EventStore::reapExpiredLeases(int maxAttempts, OrderingMode ordering)
{
    const QString expired =
        QStringLiteral("status = 'SENDING' AND lease_until < %1").arg(m_db.dialect().now());
    const QString cleared = QStringLiteral("worker_id = NULL, lease_until = NULL, lease_token = NULL");
    ReapResult result;
    if (maxAttempts > 0) {
        // One statement per attempts value, so that the error names the count without SQL string
        // concatenation (which differs between the databases).
        auto groups = m_db.exec(
            QStringLiteral("SELECT attempts FROM {events} WHERE %1 AND attempts >= :max GROUP BY attempts")
                .arg(expired),
            {{QStringLiteral(":max"), maxAttempts}});
        if (!groups)
            return Error::runtime(QStringLiteral("reaping expired leases failed: %1").arg(groups.message()));
        QVector<int> attempts;
        while (groups->next())
            attempts << groups->value(0).toInt();
        const QString finalStatus =
            ordering == OrderingMode::Aggregate ? QStringLiteral("FAILED") : QStringLiteral("DEAD");
        for (int n : attempts) {
            auto q = m_db.exec(
                QStringLiteral("UPDATE {events} SET status = '%1', last_error = :error, "
                               "last_error_class = 'lease_expired', %2 WHERE %3 AND attempts = :n")
                    .arg(finalStatus, cleared, expired),
                {{QStringLiteral(":n"), n},
                 {QStringLiteral(":error"),
                  QStringLiteral("lease expired after %1 attempts (max %2): the relay holding it stopped or "
                                 "stalled while sending it; if sending this event crashes the relay, inspect "
                                 "it before requeueing")
                      .arg(n)
                      .arg(maxAttempts)}});
            if (!q)
                return Error::runtime(QStringLiteral("reaping expired leases failed: %1").arg(q.message()));
            result.exhausted += q->numRowsAffected();
        }
    }
    auto q = m_db.exec(
        QStringLiteral("UPDATE {events} SET status = 'PENDING', last_error = 'lease expired: the relay "
                       "holding it stopped or stalled', last_error_class = 'lease_expired', %1 WHERE %2")
            .arg(cleared, expired));
    if (!q)
        return Error::runtime(QStringLiteral("reaping expired leases failed: %1").arg(q.message()));
    result.returned = q->numRowsAffected();
    return result;
}

Result<int> EventStore::deleteSentOlderThan(qint64 olderThanMs, int limit)
{
    const Dialect& d = m_db.dialect();
    auto q = m_db.exec(
        d.boundedDelete(
            QStringLiteral("{events}"),
            QStringLiteral("status = 'SENT' AND sent_at < %1").arg(d.nowPlusMillis(QStringLiteral(":age")))),
        {{QStringLiteral(":age"), -olderThanMs}, {QStringLiteral(":limit"), limit}});
    if (!q)
        return Error::runtime(QStringLiteral("retention cleanup failed: %1").arg(q.message()));
    return q->numRowsAffected();
}

Result<EventPage> EventStore::list(const EventPageRequest& request)
{
    if (request.limit <= 0 || request.limit > 10000)
        return Error::usage(QStringLiteral("page size must be between 1 and 10000"));
    if (request.afterId < 0)
        return Error::usage(QStringLiteral("the page cursor (the id to continue after) must not be negative"))
            .about(QStringLiteral("after_id"));
    SqlCondition c = request.filter.toCondition(m_db.dialect());
    if (request.afterId > 0)
        c.add(request.ascending ? QStringLiteral("id > :after") : QStringLiteral("id < :after"),
              QStringLiteral(":after"), request.afterId);
    c.binds.insert(QStringLiteral(":limit"), request.limit);
    // A header or payload search inside a time range: matches are rare and unindexed, so walking
    // the primary key in order (the planner's choice for ORDER BY id LIMIT) reads every row of the
    // table, far beyond the range, before it gives up. Ordering by an expression lets the planner
    // read only the range (created_at index, or a parallel scan) and sort the few matches.
    const EventFilter& f = request.filter;
    const bool contentInRange = (!f.headers.isEmpty() || !f.payload.isEmpty()) &&
                                (f.createdFrom.isValid() || f.createdUntil.isValid());
    const bool summaries = request.payloadPreviewChars > 0;
    if (summaries)
        c.binds.insert(QStringLiteral(":preview"), request.payloadPreviewChars);
    auto q =
        m_db.exec(QStringLiteral("SELECT %1 FROM {events} WHERE %2 ORDER BY %3 %4 LIMIT :limit")
                      .arg(summaries ? OutboxEvent::summaryColumns(m_db.dialect(), QStringLiteral(":preview"))
                                     : OutboxEvent::columns(),
                           c.where(), contentInRange ? QStringLiteral("id + 0") : QStringLiteral("id"),
                           request.ascending ? QStringLiteral("ASC") : QStringLiteral("DESC")),
                  c.binds);
    if (!q)
        return q.error();
    EventPage page;
    while (q->next())
        page.events << (summaries ? OutboxEvent::fromSummary(*q, m_db.dialect())
                                  : OutboxEvent::fromQuery(*q, m_db.dialect()));
    if (page.events.size() == request.limit)
        page.nextAfterId = page.events.last().id;
    return page;
}

Result<OutboxEvent> EventStore::find(const QString& idOrEventId)
{
    bool numeric = false;
    const qint64 id = idOrEventId.toLongLong(&numeric);
    auto q = numeric ? m_db.exec(QStringLiteral("SELECT %1, sent_topic FROM {events} WHERE id = :id")
                                     .arg(OutboxEvent::columns()),
                                 {{QStringLiteral(":id"), id}})
                     : m_db.exec(QStringLiteral("SELECT %1, sent_topic FROM {events} WHERE event_id = :eid")
                                     .arg(OutboxEvent::columns()),
                                 {{QStringLiteral(":eid"), idOrEventId}});
    if (!q)
        return q.error();
    if (!q->next())
        return Error::notFound(QStringLiteral("no event with id or event_id \"%1\"").arg(idOrEventId));
    // sent_topic (migration 9) stays out of columns(): the claim must work on a schema not yet
    // migrated while a rolling upgrade is under way.
    OutboxEvent e = OutboxEvent::fromQuery(*q, m_db.dialect());
    e.sentTopic = q->value(22).toString();
    return e;
}

Result<StatusCounts> EventStore::counts()
{
    StatusCounts counts;
    for (const QString& s : EventStatus::all())
        counts.byStatus.insert(s, 0);
    auto q = m_db.exec(QStringLiteral("SELECT status, COUNT(*) FROM {events} GROUP BY status"));
    if (!q)
        return q.error();
    while (q->next())
        counts.byStatus.insert(q->value(0).toString(), q->value(1).toLongLong());
    auto oldest = m_db.exec(
        QStringLiteral("SELECT created_at, %1 FROM {events} WHERE status = 'PENDING' ORDER BY id LIMIT 1")
            .arg(m_db.dialect().now()));
    if (!oldest)
        return oldest.error();
    if (oldest->next()) {
        const QDateTime created = m_db.dialect().toDateTime(oldest->value(0));
        const QDateTime now = m_db.dialect().toDateTime(oldest->value(1));
        counts.oldestPendingAgeMs = std::max<qint64>(0, created.msecsTo(now));
    }
    return counts;
}

} // namespace outbox
