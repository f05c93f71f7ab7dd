#include "core/db/BlockedAggregates.h"

#include "core/db/Database.h"
#include "core/db/SqlCondition.h"

#include <QJsonArray>
#include <QSet>
#include <QSqlQuery>
#include <climits>

namespace outbox {

namespace {

QJsonValue time(const QDateTime& t)
{
    return t.isValid() ? QJsonValue(t.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue();
}

} // namespace

QJsonObject BlockedAggregate::toJson() const
{
    return QJsonObject{{QStringLiteral("aggregate_type"), aggregateType},
                       {QStringLiteral("aggregate_id"), aggregateId},
                       {QStringLiteral("blocking_id"), blockingId},
                       {QStringLiteral("blocking_event_id"), blockingEventId},
                       {QStringLiteral("blocking_event_type"), blockingType},
                       {QStringLiteral("error"), error},
                       {QStringLiteral("error_class"), errorClass.isEmpty() ? QJsonValue() : errorClass},
                       {QStringLiteral("attempts"), attempts},
                       {QStringLiteral("since"), time(since)},
                       {QStringLiteral("oldest_waiting_at"), time(oldestWaiting)},
                       {QStringLiteral("waiting"), waiting}};
}

QJsonObject OrderingConsequence::toJson() const
{
    return QJsonObject{{QStringLiteral("id"), eventId},
                       {QStringLiteral("aggregate_type"), aggregateType},
                       {QStringLiteral("aggregate_id"), aggregateId},
                       {QStringLiteral("waiting"), waiting}};
}

QJsonObject BlockedAggregateList::toJson() const
{
    QJsonArray list;
    for (const BlockedAggregate& b : aggregates)
        list.append(b.toJson());
    return QJsonObject{{QStringLiteral("aggregates"), list},
                       {QStringLiteral("total"), total},
                       {QStringLiteral("at_least"), atLeast}};
}

Result<BlockedAggregateList> BlockedAggregates::list(const BlockedAggregatesQuery& query)
{
    if (query.limit < 1 || query.limit > MaxLimit)
        return Error::usage(
            QStringLiteral("the number of aggregates must be between 1 and %1").arg(MaxLimit));
    if (query.minWaitMs < 0)
        return Error::usage(QStringLiteral("the minimum wait cannot be negative"));
    const Dialect& d = m_db.dialect();
    // A FAILED event blocks its aggregate when a later event of the same aggregate is PENDING and
    // due (for at least minWaitMs): in ordering mode the relay never claims that one.
    auto rows = m_db.exec(
        QStringLiteral(
            "SELECT f.id, f.aggregate_type, f.aggregate_id, f.created_at, f.last_error, f.last_error_class, "
            "f.event_id, f.event_type, f.attempts, w.first_created FROM {events} f "
            "JOIN (SELECT p.aggregate_type, p.aggregate_id, MAX(p.id) AS last_id, MIN(p.created_at) AS "
            "first_created FROM (SELECT aggregate_type, aggregate_id, id, created_at FROM {events} WHERE "
            "status = 'PENDING' AND available_at <= %1 ORDER BY id LIMIT %2) p GROUP BY p.aggregate_type, "
            "p.aggregate_id) w ON f.aggregate_type = w.aggregate_type AND f.aggregate_id = w.aggregate_id "
            "AND "
            "f.id < w.last_id WHERE f.status IN ('FAILED', 'DEAD') AND f.status = 'FAILED' ORDER BY f.id "
            "LIMIT :cap")
            .arg(d.nowPlusMillis(QStringLiteral(":after")))
            .arg(PendingExamined),
        {{QStringLiteral(":after"), -query.minWaitMs}, {QStringLiteral(":cap"), MaxBlockingRows}});
    if (!rows)
        return rows.error();
    BlockedAggregateList result;
    QVector<BlockedAggregate>& blocked = result.aggregates;
    QSet<QString> seen;
    int examined = 0;
    while (rows->next()) {
        ++examined;
        const QString aggregate = rows->value(1).toString() + QChar(0x1f) + rows->value(2).toString();
        if (seen.contains(aggregate))
            continue; // a later FAILED event of an aggregate already blocked by an earlier one
        seen.insert(aggregate);
        ++result.total;
        if (blocked.size() >= query.limit)
            continue;
        BlockedAggregate b;
        b.blockingId = rows->value(0).toLongLong();
        b.aggregateType = rows->value(1).toString();
        b.aggregateId = rows->value(2).toString();
        b.since = d.toDateTime(rows->value(3));
        b.error = rows->value(4).toString();
        b.errorClass = rows->value(5).toString();
        b.blockingEventId = rows->value(6).toString();
        b.blockingType = rows->value(7).toString();
        b.attempts = rows->value(8).toInt();
        b.oldestWaiting = d.toDateTime(rows->value(9));
        blocked << b;
    }
    result.atLeast = examined >= MaxBlockingRows;
    for (int i = 0; i < blocked.size() && i < query.countWaitingFor; ++i) {
        BlockedAggregate& b = blocked[i];
        auto behind = m_db.scalar(
            QStringLiteral(
                "SELECT COUNT(*) FROM {events} w WHERE w.aggregate_type = :type AND w.aggregate_id = "
                ":agg AND w.id > :id AND w.status = 'PENDING'"),
            {{QStringLiteral(":type"), b.aggregateType},
             {QStringLiteral(":agg"), b.aggregateId},
             {QStringLiteral(":id"), b.blockingId}});
        if (!behind)
            return behind.error();
        b.waiting = behind->toLongLong();
    }
    return result;
}

Result<QVector<OrderingConsequence>> BlockedAggregates::consequences(const QVector<qint64>& ids)
{
    if (ids.size() > 10000)
        return Error::usage(QStringLiteral("at most 10000 events per question"));
    QVector<OrderingConsequence> out;
    for (int i = 0; i < ids.size(); i += 1000) {
        QVariantList values;
        for (qint64 id : ids.mid(i, 1000))
            values << id;
        SqlCondition byId;
        byId.addIn(QStringLiteral("t.id"), QStringLiteral("t"), values);
        auto rows = m_db.exec(
            QStringLiteral("SELECT t.id, t.aggregate_type, t.aggregate_id, COUNT(w.id) FROM {events} t JOIN "
                           "{events} w ON w.aggregate_type = t.aggregate_type AND w.aggregate_id = "
                           "t.aggregate_id AND w.id > t.id AND w.status = 'PENDING' WHERE %1 GROUP BY t.id, "
                           "t.aggregate_type, t.aggregate_id ORDER BY t.id")
                .arg(byId.where()),
            byId.binds);
        if (!rows)
            return rows.error();
        while (rows->next())
            out << OrderingConsequence{rows->value(0).toLongLong(), rows->value(1).toString(),
                                       rows->value(2).toString(), rows->value(3).toLongLong()};
    }
    return out;
}

QStringList BlockedAggregates::describe(const QVector<OrderingConsequence>& consequences, bool markDead)
{
    QStringList sentences;
    for (const OrderingConsequence& c : consequences) {
        const QString aggregate = c.aggregateType + QLatin1Char('/') + c.aggregateId;
        const int n = int(std::min<qint64>(c.waiting, INT_MAX));
        sentences << (markDead ? tr("Event #%1 will never be sent: %n later event(s) of %2 will be sent "
                                    "without it (in ordering mode they wait for it until then).",
                                    nullptr, n)
                                     .arg(c.eventId)
                                     .arg(aggregate)
                               : tr("Event #%1 is sent again first: %n later event(s) of %2 will be sent "
                                    "after it (in ordering mode they wait for it until then).",
                                    nullptr, n)
                                     .arg(c.eventId)
                                     .arg(aggregate));
    }
    return sentences;
}

} // namespace outbox
