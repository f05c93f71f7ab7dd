#include "core/db/InboxStore.h"

#include "core/db/Database.h"
#include "core/db/DeadLetter.h"
#include "core/db/SqlCondition.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <algorithm>

namespace outbox {

namespace {
const QString InboxColumns = QStringLiteral(
    "event_id, consumer_name, aggregate_id, status, attempts, processed_at, last_error, traceparent");
const QString UniqueColumns = QStringLiteral("event_id, consumer_name");

// The aggregate id comes from the message (its header, else its key): whatever its content, the
// inbox row must be writable, or the message could never be acknowledged. No NUL (PostgreSQL),
// at most 191 characters (MariaDB), shortened with a hash like a dead letter's event_id.
QVariant storableAggregate(const QString& aggregateId)
{
    if (aggregateId.isNull())
        return QVariant(QMetaType::fromType<QString>());
    return DeadLetter::storableEventId(aggregateId);
}

// The W3C traceparent header as received (55 characters in version 00): a header of another shape
// is recorded when it fits the column, so that its trace can still be followed; an empty one is NULL.
QVariant storableTraceparent(const QString& traceparent)
{
    if (traceparent.isEmpty() || traceparent.size() > 255 || traceparent.contains(QChar(0)))
        return QVariant(QMetaType::fromType<QString>());
    return traceparent;
}

QString storableError(QString error)
{
    error.replace(QChar(0), QChar(0xFFFD));
    return error.size() <= 8000 ? error : QString(error.left(8000) + QStringLiteral("…"));
}

// The consumer's row of consumer_counters changed by `set` (an UPDATE's SET list over :consumer
// and `binds`), created with `columns` = `values` when it is not there yet: update; else insert
// if absent; else another member inserted it meanwhile, so update that one.
Status upsertCounters(Database& db, const QString& set, const QString& columns, const QString& values,
                      const QVariantMap& binds)
{
    const Dialect& d = db.dialect();
    const QString update =
        QStringLiteral("UPDATE {consumer_counters} SET %1 WHERE consumer_name = :consumer");
    auto updated = db.exec(update.arg(set + QStringLiteral(", updated_at = ") + d.now()), binds);
    if (!updated)
        return updated.error();
    if (updated->numRowsAffected() == 1)
        return {};
    auto inserted = db.exec(d.insertIfAbsent(d.sql(QStringLiteral("{consumer_counters}")), columns, values,
                                             QStringLiteral("consumer_name")),
                            binds);
    if (!inserted)
        return inserted.error();
    if (inserted->numRowsAffected() == 1)
        return {};
    auto again = db.exec(update.arg(set), binds);
    return again ? Status() : Status(again.error());
}
} // namespace

Result<QString> InboxStore::status(const QString& eventId, const QString& consumerName)
{
    auto q = m_db.exec(
        QStringLiteral("SELECT status FROM {inbox} WHERE event_id = :event AND consumer_name = :consumer"),
        {{QStringLiteral(":event"), eventId}, {QStringLiteral(":consumer"), consumerName}});
    if (!q)
        return q.error();
    return q->next() ? q->value(0).toString() : QString();
}

Result<bool> InboxStore::recordProcessed(const QString& eventId, const QString& consumerName,
                                         const QString& aggregateId, int attempts, const QString& traceparent)
{
    const Dialect& d = m_db.dialect();
    const QVariantMap binds{{QStringLiteral(":event"), eventId},
                            {QStringLiteral(":consumer"), consumerName},
                            {QStringLiteral(":aggregate"), storableAggregate(aggregateId)},
                            {QStringLiteral(":attempts"), attempts},
                            {QStringLiteral(":trace"), storableTraceparent(traceparent)}};
    auto inserted = m_db.exec(
        d.insertIfAbsent(
            d.sql(QStringLiteral("{inbox}")), InboxColumns,
            QStringLiteral(":event, :consumer, :aggregate, 'PROCESSED', :attempts, %1, NULL, :trace")
                .arg(d.now()),
            UniqueColumns),
        binds);
    if (!inserted)
        return Error::runtime(QStringLiteral("cannot write the inbox row: %1").arg(inserted.message()));
    if (inserted->numRowsAffected() == 1)
        return true;
    // A row exists: a dead-lettered (FAILED) event coming back through a replay is processed now.
    auto updated = m_db.exec(
        QStringLiteral("UPDATE {inbox} SET status = 'PROCESSED', attempts = attempts + :attempts, "
                       "processed_at = %1, last_error = NULL "
                       "WHERE event_id = :event AND consumer_name = :consumer AND status <> 'PROCESSED'")
            .arg(d.now()),
        {{QStringLiteral(":event"), eventId},
         {QStringLiteral(":consumer"), consumerName},
         {QStringLiteral(":attempts"), attempts}});
    if (!updated)
        return Error::runtime(QStringLiteral("cannot update the inbox row: %1").arg(updated.message()));
    return updated->numRowsAffected() == 1;
}

Status InboxStore::recordFailed(const QString& eventId, const QString& consumerName,
                                const QString& aggregateId, int attempts, const QString& error,
                                const QString& traceparent)
{
    const Dialect& d = m_db.dialect();
    auto inserted =
        m_db.exec(d.insertIfAbsent(
                      d.sql(QStringLiteral("{inbox}")), InboxColumns,
                      QStringLiteral(":event, :consumer, :aggregate, 'FAILED', :attempts, %1, :error, :trace")
                          .arg(d.now()),
                      UniqueColumns),
                  {{QStringLiteral(":event"), eventId},
                   {QStringLiteral(":consumer"), consumerName},
                   {QStringLiteral(":aggregate"), storableAggregate(aggregateId)},
                   {QStringLiteral(":attempts"), attempts},
                   {QStringLiteral(":error"), storableError(error)},
                   {QStringLiteral(":trace"), storableTraceparent(traceparent)}});
    if (!inserted)
        return Error::runtime(QStringLiteral("cannot write the inbox row: %1").arg(inserted.message()));
    if (inserted->numRowsAffected() == 1)
        return {};
    auto updated = m_db.exec(
        QStringLiteral(
            "UPDATE {inbox} SET attempts = attempts + :attempts, processed_at = %1, last_error = :error "
            "WHERE event_id = :event AND consumer_name = :consumer AND status = 'FAILED'")
            .arg(d.now()),
        {{QStringLiteral(":event"), eventId},
         {QStringLiteral(":consumer"), consumerName},
         {QStringLiteral(":attempts"), attempts},
         {QStringLiteral(":error"), storableError(error)}});
    if (!updated)
        return Error::runtime(QStringLiteral("cannot update the inbox row: %1").arg(updated.message()));
    return {};
}

Result<QHash<QString, QString>> InboxStore::statuses(const QStringList& eventIds, const QString& consumerName)
{
    QHash<QString, QString> found;
    const QString idArray = m_db.dialect().textArray(QStringLiteral(":ids"));
    if (!idArray.isEmpty() && !eventIds.isEmpty()) {
        // PostgreSQL: one probe of the unique (event_id, consumer_name) index per id, whatever the
        // inbox's size. `consumer_name = ? AND event_id IN (…)`, planned afresh every time, was a
        // sequential scan of the whole inbox (PostgreSQL hashes a long IN list and costs that scan
        // below 500 index probes): 33-51 ms for 500 ids on 48,779 rows (15 ms through the index),
        // growing with the table, once per run of valid messages (about 7 per batch of 500 in the
        // demo), until the demo's consumer fell behind.
        // The LIMIT keeps the lateral subquery a parameterised index scan per element (it cannot
        // be flattened into a join that could scan the table), so the statement is kept prepared:
        // one round trip, the same text for every batch (the ids are one bound array).
        auto q = m_db.execPrepared(
            QStringLiteral("SELECT x.event_id, i.status FROM unnest(%1) AS x(event_id) CROSS JOIN LATERAL "
                           "(SELECT status FROM {inbox} WHERE event_id = x.event_id AND consumer_name = "
                           ":consumer LIMIT 1) i")
                .arg(idArray),
            {{QStringLiteral(":ids"), Dialect::textArrayText(eventIds)},
             {QStringLiteral(":consumer"), consumerName}});
        if (!q)
            return q.error();
        while ((*q)->next())
            found.insert((*q)->value(0).toString(), (*q)->value(1).toString());
        (*q)->finish();
        return found;
    }
    // Elsewhere not kept prepared: a plan cached while the inbox was small (a sequential scan)
    // would stay with the connection while the table grows; planned each time, the lookup uses
    // the unique index whatever the table's size.
    // A batch of the default size in one statement: every statement that is not kept prepared
    // costs QtSql's drivers several round trips, five of 100 ids cost five times that. 501 values
    // stay far below every driver's bind limit (SQLite's is 32,766).
    constexpr int Chunk = 500;
    for (int first = 0; first < eventIds.size(); first += Chunk) {
        const int n = std::min<int>(Chunk, int(eventIds.size()) - first);
        QVariantList values{consumerName};
        for (int i = 0; i < n; ++i)
            values << eventIds.at(first + i);
        QStringList marks(n, QStringLiteral("?"));
        auto q = m_db.execPositional(
            QStringLiteral(
                "SELECT event_id, status FROM {inbox} WHERE consumer_name = ? AND event_id IN (%1)")
                .arg(marks.join(QStringLiteral(", "))),
            values);
        if (!q)
            return q.error();
        while (q->next())
            found.insert(q->value(0).toString(), q->value(1).toString());
    }
    return found;
}

Result<int> InboxStore::recordProcessedNew(const QVector<NewRecord>& rows, const QString& consumerName)
{
    const Dialect& d = m_db.dialect();
    int inserted = 0;
    constexpr int Chunk = 64; // 5 values a row
    const QString tuple = QStringLiteral("?, ?, ?, 'PROCESSED', ?, %1, NULL, ?").arg(d.now());
    for (int first = 0; first < rows.size(); first += Chunk) {
        const int n = std::min<int>(Chunk, int(rows.size()) - first);
        QVariantList values;
        values.reserve(5 * n);
        for (int i = 0; i < n; ++i) {
            const NewRecord& r = rows.at(first + i);
            values << r.eventId << consumerName << storableAggregate(r.aggregateId) << r.attempts
                   << storableTraceparent(r.traceparent);
        }
        // insertIfAbsent() wraps the values in one pair of parentheses: the rows are joined inside it.
        const QString statement =
            d.insertIfAbsent(d.sql(QStringLiteral("{inbox}")), InboxColumns,
                             QStringList(n, tuple).join(QStringLiteral("), (")), UniqueColumns);
        int affected = 0;
        QString error;
        if (n == Chunk) { // the full chunk's text is always the same: kept prepared
            auto q = m_db.execPreparedPositional(statement, values);
            if (q)
                affected = (*q)->numRowsAffected();
            else
                error = q.message();
        } else {
            auto q = m_db.execPositional(statement, values);
            if (q)
                affected = q->numRowsAffected();
            else
                error = q.message();
        }
        if (!error.isEmpty())
            return Error::runtime(QStringLiteral("cannot write the inbox rows: %1").arg(error));
        inserted += affected;
    }
    return inserted;
}

Result<InboxPage> InboxStore::list(const InboxFilter& filter, qint64 afterId, int limit)
{
    if (limit <= 0 || limit > 10000)
        return Error::usage(QStringLiteral("page size must be between 1 and 10000"));
    if (afterId < 0)
        return Error::usage(QStringLiteral("the page cursor (the id to continue after) must not be negative"))
            .about(QStringLiteral("after_id"));
    if (Status s = filter.validate(); !s)
        return s.error();
    SqlCondition c;
    if (!filter.consumerName.isEmpty())
        c.add(QStringLiteral("consumer_name = :consumer"), QStringLiteral(":consumer"), filter.consumerName);
    if (!filter.status.isEmpty())
        c.add(QStringLiteral("status = :status"), QStringLiteral(":status"), filter.status);
    if (!filter.eventId.isEmpty())
        c.add(QStringLiteral("event_id = :event"), QStringLiteral(":event"), filter.eventId);
    if (afterId > 0)
        c.add(QStringLiteral("id < :after"), QStringLiteral(":after"), afterId);
    c.binds.insert(QStringLiteral(":limit"), limit);
    auto q = m_db.exec(QStringLiteral("SELECT id, %1, created_at FROM {inbox} WHERE %2 ORDER BY id DESC "
                                      "LIMIT :limit")
                           .arg(InboxColumns, c.where()),
                       c.binds);
    if (!q)
        return q.error();
    const Dialect& d = m_db.dialect();
    InboxPage page;
    while (q->next()) {
        InboxRecord r;
        r.id = q->value(0).toLongLong();
        r.eventId = q->value(1).toString();
        r.consumerName = q->value(2).toString();
        r.aggregateId = q->value(3).isNull() ? QString() : q->value(3).toString();
        r.status = q->value(4).toString();
        r.attempts = q->value(5).toInt();
        r.processedAt = q->value(6).isNull() ? QDateTime() : d.toDateTime(q->value(6));
        r.lastError = q->value(7).isNull() ? QString() : q->value(7).toString();
        r.traceparent = q->value(8).isNull() ? QString() : q->value(8).toString();
        r.createdAt = q->value(9).isNull() ? QDateTime() : d.toDateTime(q->value(9));
        page.records << r;
    }
    if (page.records.size() == limit)
        page.nextAfterId = page.records.last().id;
    return page;
}

Status InboxStore::countDuplicate(const QString& consumerName)
{
    return countDuplicates(consumerName, 1);
}

Status InboxStore::countDuplicates(const QString& consumerName, qint64 count)
{
    if (count <= 0)
        return {};
    return upsertCounters(m_db, QStringLiteral("duplicates_total = duplicates_total + :n"),
                          QStringLiteral("consumer_name, duplicates_total, updated_at"),
                          QStringLiteral(":consumer, :n, %1").arg(m_db.dialect().now()),
                          {{QStringLiteral(":consumer"), consumerName}, {QStringLiteral(":n"), count}});
}

Result<QMap<QString, qint64>> InboxStore::duplicateCounts()
{
    auto q = m_db.exec(QStringLiteral("SELECT consumer_name, duplicates_total FROM {consumer_counters}"));
    if (!q)
        return q.error();
    QMap<QString, qint64> counts;
    while (q->next())
        counts.insert(q->value(0).toString(), q->value(1).toLongLong());
    return counts;
}

Status InboxStore::recordTopics(const QString& consumerName, const QStringList& topics)
{
    QVariant text(QMetaType::fromType<QString>()); // NULL: not known
    if (!topics.isEmpty())
        text = QString::fromUtf8(
            QJsonDocument(QJsonArray::fromStringList(topics)).toJson(QJsonDocument::Compact));
    return upsertCounters(m_db, QStringLiteral("topics = :topics"),
                          QStringLiteral("consumer_name, duplicates_total, updated_at, topics"),
                          QStringLiteral(":consumer, 0, %1, :topics").arg(m_db.dialect().now()),
                          {{QStringLiteral(":consumer"), consumerName}, {QStringLiteral(":topics"), text}});
}

Result<std::optional<QStringList>> InboxStore::topicsOf(const QString& consumerName)
{
    auto q =
        m_db.exec(QStringLiteral("SELECT topics FROM {consumer_counters} WHERE consumer_name = :consumer"),
                  {{QStringLiteral(":consumer"), consumerName}});
    if (!q)
        return q.error();
    if (!q->next() || q->value(0).isNull())
        return std::optional<QStringList>();
    const QJsonDocument doc = QJsonDocument::fromJson(q->value(0).toString().toUtf8());
    QStringList topics;
    for (const QJsonValue& v : doc.array())
        if (v.isString() && !v.toString().isEmpty())
            topics << v.toString();
    if (topics.isEmpty())
        return std::optional<QStringList>();
    return std::optional<QStringList>(topics);
}

} // namespace outbox
