#include "core/db/DeadLetterStore.h"

#include "core/db/Database.h"
#include "core/db/EventStatus.h"

#include <QSqlQuery>

namespace outbox {

Result<qint64> DeadLetterStore::insert(const DeadLetter& l)
{
    const Dialect& d = m_db.dialect();
    auto nullable = [](const QString& s) {
        return s.isNull() ? QVariant(QMetaType::fromType<QString>()) : QVariant(s);
    };
    QVariantMap binds{{QStringLiteral(":consumer"), l.consumerName},
                      {QStringLiteral(":event"), nullable(l.eventId)},
                      {QStringLiteral(":topic"), l.topic},
                      {QStringLiteral(":partition"), l.sourcePartition
                                                         ? QVariant(*l.sourcePartition)
                                                         : QVariant(QMetaType::fromType<int>())},
                      {QStringLiteral(":offset"),
                       l.sourceOffset ? QVariant(*l.sourceOffset) : QVariant(QMetaType::fromType<qint64>())},
                      {QStringLiteral(":key"), nullable(l.messageKey)},
                      {QStringLiteral(":headers"),
                       l.headers.isEmpty() ? QStringLiteral("{}") : QString::fromUtf8(l.headers)},
                      {QStringLiteral(":payload"), QString::fromUtf8(l.payload)},
                      {QStringLiteral(":error"), l.error},
                      {QStringLiteral(":stack"), nullable(l.stacktrace)},
                      {QStringLiteral(":attempts"), std::max(1, l.attempts)}};
    // The failure times default to now; a consumer that retried first passes when it began failing.
    QString timeColumns, timeValues;
    if (l.firstFailedAt.isValid()) {
        timeColumns += QStringLiteral(", first_failed_at");
        timeValues += QStringLiteral(", :first_failed");
        binds.insert(QStringLiteral(":first_failed"), d.fromDateTime(l.firstFailedAt));
    }
    if (l.lastFailedAt.isValid()) {
        timeColumns += QStringLiteral(", last_failed_at");
        timeValues += QStringLiteral(", :last_failed");
        binds.insert(QStringLiteral(":last_failed"), d.fromDateTime(l.lastFailedAt));
    }
    auto q = m_db.exec(
        QStringLiteral("INSERT INTO {dead_letters} (consumer_name, event_id, topic, source_partition, "
                       "source_offset, message_key, headers, payload, error, stacktrace, attempts%3) VALUES "
                       "(:consumer, :event, :topic, :partition, :offset, :key, %1, :payload, :error, :stack, "
                       ":attempts%4)%2")
            .arg(d.jsonValue(QStringLiteral(":headers")), d.returningId(), timeColumns, timeValues),
        binds);
    if (!q)
        return Error::runtime(QStringLiteral("cannot record the dead letter: %1").arg(q.message()));
    return q->next() ? q->value(0).toLongLong() : q->lastInsertId().toLongLong();
}

Result<DeadLetterPage> DeadLetterStore::list(const DeadLetterFilter& filter, qint64 afterId, int limit)
{
    if (limit <= 0 || limit > 10000)
        return Error::usage(QStringLiteral("page size must be between 1 and 10000"));
    SqlCondition c = filter.toCondition(m_db.dialect());
    if (afterId > 0)
        c.add(QStringLiteral("id < :after"), QStringLiteral(":after"), afterId);
    c.binds.insert(QStringLiteral(":limit"), limit);
    auto q = m_db.exec(QStringLiteral("SELECT %1 FROM {dead_letters} WHERE %2 ORDER BY id DESC LIMIT :limit")
                           .arg(DeadLetter::columns(), c.where()),
                       c.binds);
    if (!q)
        return q.error();
    DeadLetterPage page;
    while (q->next())
        page.letters << DeadLetter::fromQuery(*q, m_db.dialect());
    if (page.letters.size() == limit)
        page.nextAfterId = page.letters.last().id;
    return page;
}

Result<DeadLetter> DeadLetterStore::find(qint64 id)
{
    auto q =
        m_db.exec(QStringLiteral("SELECT %1 FROM {dead_letters} WHERE id = :id").arg(DeadLetter::columns()),
                  {{QStringLiteral(":id"), id}});
    if (!q)
        return q.error();
    if (!q->next())
        return Error::notFound(QStringLiteral("no dead letter with id %1").arg(id));
    return DeadLetter::fromQuery(*q, m_db.dialect());
}

Result<QMap<QString, qint64>> DeadLetterStore::countsByStatus()
{
    QMap<QString, qint64> counts;
    for (const QString& s : DeadLetterStatus::all())
        counts.insert(s, 0);
    auto q = m_db.exec(QStringLiteral("SELECT status, COUNT(*) FROM {dead_letters} GROUP BY status"));
    if (!q)
        return q.error();
    while (q->next())
        counts.insert(q->value(0).toString(), q->value(1).toLongLong());
    return counts;
}

Result<bool> DeadLetterStore::existsForSource(const QString& consumerName, const QString& eventId,
                                              const QString& topic, int partition, qint64 offset)
{
    QVariantMap binds{{QStringLiteral(":consumer"), consumerName},
                      {QStringLiteral(":topic"), topic},
                      {QStringLiteral(":partition"), partition},
                      {QStringLiteral(":offset"), offset}};
    QString condition =
        QStringLiteral("consumer_name = :consumer AND topic = :topic AND source_partition = :partition "
                       "AND source_offset = :offset");
    if (!eventId.isEmpty()) { // uses the event_id index
        condition += QStringLiteral(" AND event_id = :event");
        binds.insert(QStringLiteral(":event"), eventId);
    }
    auto q = m_db.exec(QStringLiteral("SELECT id FROM {dead_letters} WHERE %1").arg(condition), binds);
    if (!q)
        return q.error();
    return q->next();
}

Result<QVector<DeadLetter>> DeadLetterStore::replaying(int limit, const QString& token, qint64 afterId)
{
    QVariantMap binds{{QStringLiteral(":limit"), limit}, {QStringLiteral(":after"), afterId}};
    QString condition = QStringLiteral("status = 'REPLAYING' AND id > :after");
    if (!token.isEmpty()) {
        condition += QStringLiteral(" AND replay_token = :token");
        binds.insert(QStringLiteral(":token"), token);
    }
    auto q = m_db.exec(QStringLiteral("SELECT %1 FROM {dead_letters} WHERE %2 ORDER BY id LIMIT :limit")
                           .arg(DeadLetter::columns(), condition),
                       binds);
    if (!q)
        return q.error();
    QVector<DeadLetter> letters;
    while (q->next())
        letters << DeadLetter::fromQuery(*q, m_db.dialect());
    return letters;
}

Result<bool> DeadLetterStore::markReplayed(qint64 id, const QString& token)
{
    auto q = m_db.exec(QStringLiteral("UPDATE {dead_letters} SET status = 'REPLAYED', replay_count = "
                                      "replay_count + 1, replayed_at = %1 "
                                      "WHERE id = :id AND status = 'REPLAYING' AND replay_token = :token")
                           .arg(m_db.dialect().now()),
                       {{QStringLiteral(":id"), id}, {QStringLiteral(":token"), token}});
    if (!q)
        return Error::runtime(
            QStringLiteral("cannot mark dead letter %1 REPLAYED: %2").arg(id).arg(q.message()));
    return q->numRowsAffected() == 1;
}

} // namespace outbox
