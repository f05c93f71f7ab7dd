#include "core/metrics/MetricsQuery.h"

#include "core/db/Database.h"
#include "core/db/DeadLetterStore.h"
#include "core/db/HeldClaim.h"
#include "core/db/InboxStore.h"
#include "core/db/RelayStore.h"
#include "core/db/UnconsumedScope.h"
#include "core/relay/RelayStats.h"

#include <QElapsedTimer>
#include <QSqlQuery>
#include <algorithm>

namespace outbox {

Result<MetricsQuery::TableEstimate> MetricsQuery::estimate()
{
    TableEstimate t;
    const QString statement = m_db.dialect().estimatedRowCount();
    if (statement.isEmpty())
        return t;
    auto q =
        m_db.exec(statement, {{QStringLiteral(":table"), m_db.dialect().sql(QStringLiteral("{events}"))}});
    if (!q)
        return q.error();
    if (q->next()) {
        t.rows = q->value(0).toLongLong();
        t.bytes = q->value(1).toLongLong();
    }
    return t;
}

Result<MetricsSnapshot> MetricsQuery::counts()
{
    const Dialect& d = m_db.dialect();
    MetricsSnapshot s;
    auto now = m_db.scalar(QStringLiteral("SELECT %1").arg(d.now()));
    if (!now)
        return now.error();
    s.takenAt = d.toDateTime(*now);

    // One statement per state, each matching its partial index predicate literally.
    for (const char* status : {"PENDING", "SENDING", "FAILED", "DEAD"}) {
        auto count = m_db.scalar(
            QStringLiteral("SELECT COUNT(*) FROM {events} WHERE status = '%1'").arg(QLatin1String(status)));
        if (!count)
            return count.error();
        s.events.insert(QLatin1String(status), count->toLongLong());
    }
    auto table = estimate();
    if (!table)
        return table.error();
    const qint64 others = s.events.value(QStringLiteral("PENDING")) +
                          s.events.value(QStringLiteral("SENDING")) +
                          s.events.value(QStringLiteral("FAILED")) + s.events.value(QStringLiteral("DEAD"));
    // Counting SENT reads the whole table: only while it is small, by its rows and by its size
    // (an outbox with retention holds few rows in many pages between two vacuums).
    if (table->rows > ExactSentLimit || table->bytes > ExactSentMaxBytes) {
        s.events.insert(QStringLiteral("SENT"), std::max<qint64>(0, table->rows - others));
        s.sentIsEstimate = true;
    } else {
        auto sent = m_db.scalar(QStringLiteral("SELECT COUNT(*) FROM {events} WHERE status = 'SENT'"));
        if (!sent)
            return sent.error();
        s.events.insert(QStringLiteral("SENT"), sent->toLongLong());
    }

    auto oldest = m_db.exec(
        QStringLiteral("SELECT created_at FROM {events} WHERE status = 'PENDING' ORDER BY id LIMIT 1"));
    if (!oldest)
        return oldest.error();
    if (oldest->next())
        s.oldestPendingAgeMs = std::max<qint64>(0, d.toDateTime(oldest->value(0)).msecsTo(s.takenAt));
    return s;
}

Result<MetricsSnapshot> MetricsQuery::sample(int recentWindowSeconds)
{
    QElapsedTimer timer;
    timer.start();
    const Dialect& d = m_db.dialect();
    auto counted = counts();
    if (!counted)
        return counted.error();
    MetricsSnapshot s = *counted;
    s.recentWindowSeconds = recentWindowSeconds;

    for (const char* status : {"PENDING", "SENDING", "FAILED"}) {
        auto attempts = m_db.exec(
            QStringLiteral("SELECT attempts, COUNT(*) FROM {events} WHERE status = '%1' GROUP BY attempts")
                .arg(QLatin1String(status)));
        if (!attempts)
            return attempts.error();
        while (attempts->next())
            s.attemptsOfUnsent[attempts->value(0).toInt()] += attempts->value(1).toLongLong();
    }

    auto holders = m_db.exec(
        QStringLiteral("SELECT worker_id, COUNT(*), SUM(CASE WHEN lease_until < %1 THEN 1 ELSE 0 END) "
                       "FROM {events} WHERE status = 'SENDING' GROUP BY worker_id ORDER BY worker_id")
            .arg(d.now()));
    if (!holders)
        return holders.error();
    while (holders->next())
        s.leaseHolders << LeaseHolder{holders->value(0).toString(), holders->value(1).toLongLong(),
                                      holders->value(2).toLongLong()};
    // Held claims leave their rows PENDING: the journal says which relay is sending which.
    auto held = HeldClaim::inFlight(m_db);
    if (!held)
        return held.error();
    for (const HeldClaim::InFlight& h : *held) {
        auto it = std::find_if(s.leaseHolders.begin(), s.leaseHolders.end(),
                               [&](const LeaseHolder& l) { return l.workerId == h.workerId; });
        if (it == s.leaseHolders.end())
            it = s.leaseHolders.insert(s.leaseHolders.end(), LeaseHolder{h.workerId, 0, 0, 0});
        it->sending += h.events;
        it->expired += h.expired;
        it->held += h.events;
    }

    auto relays = RelayStore(m_db).list();
    if (!relays)
        return relays.error();
    s.relays = *relays;
    for (double bound : RelayStats::LatencyBuckets)
        s.latencyBucketBounds << bound;
    s.latencyBucketCounts = QVector<qint64>(s.latencyBucketBounds.size(), 0);
    for (const RelayRecord& r : s.relays) {
        s.relaySentTotal += r.sentTotal;
        s.relayFailedTotal += r.failedTotal;
        s.relayFencedTotal += r.fencedTotal;
        s.relayLeaseExpiredTotal += r.leaseExpiredTotal;
        s.latencySumSeconds += double(r.latencySumMs) / 1000.0;
        s.latencyCount += r.latencyCount;
        for (int i = 0; i < r.latencyBuckets.size() && i < s.latencyBucketCounts.size(); ++i)
            s.latencyBucketCounts[i] += r.latencyBuckets.at(i);
    }

    auto letters = DeadLetterStore(m_db).countsByStatus();
    if (!letters)
        return letters.error();
    s.deadLetters = *letters;

    auto consumers = m_db.exec(
        QStringLiteral("SELECT consumer_name, SUM(CASE WHEN status = 'PROCESSED' THEN 1 ELSE 0 END), "
                       "SUM(CASE WHEN status = 'FAILED' THEN 1 ELSE 0 END) FROM {inbox} "
                       "WHERE processed_at >= %1 GROUP BY consumer_name ORDER BY consumer_name")
            .arg(d.nowPlusMillis(QStringLiteral(":window"))),
        {{QStringLiteral(":window"), -qint64(recentWindowSeconds) * 1000}});
    if (!consumers)
        return consumers.error();
    while (consumers->next())
        s.consumers << ConsumerStats{consumers->value(0).toString(), consumers->value(1).toLongLong(),
                                     consumers->value(2).toLongLong()};

    if (m_memory && m_memory->processedAge.isValid() &&
        m_memory->processedAge.elapsed() < m_memory->processedCostMs * MetricsQueryMemory::RepeatFactor) {
        s.consumerProcessedTotal = m_memory->processedTotals;
    } else {
        QElapsedTimer cost;
        cost.start();
        auto processedTotals = m_db.exec(QStringLiteral(
            "SELECT consumer_name, COUNT(*) FROM {inbox} WHERE status = 'PROCESSED' GROUP BY consumer_name"));
        if (!processedTotals)
            return processedTotals.error();
        while (processedTotals->next())
            s.consumerProcessedTotal.insert(processedTotals->value(0).toString(),
                                            processedTotals->value(1).toLongLong());
        if (m_memory) {
            m_memory->processedTotals = s.consumerProcessedTotal;
            m_memory->processedCostMs = cost.elapsed();
            m_memory->processedAge.start();
        }
    }
    auto duplicates = InboxStore(m_db).duplicateCounts();
    if (!duplicates)
        return duplicates.error();
    s.consumerDuplicatesTotal = *duplicates;

    s.unconsumedOlderThanMs = m_unconsumedOlderThanMs;
    s.unconsumedWindowMs = m_unconsumedWindowMs;
    for (const QString& consumer : m_unconsumedConsumers) {
        // The same scope as doctor's unconsumed check: the consumer's topics, no decided dead letters.
        auto scope = UnconsumedScope::load(m_db, consumer);
        if (!scope)
            return scope.error();
        const SqlCondition scoped = scope->condition(QStringLiteral("u"));
        QVariantMap binds = scoped.binds;
        binds.insert(QStringLiteral(":window"), -m_unconsumedWindowMs);
        binds.insert(QStringLiteral(":age"), -m_unconsumedOlderThanMs);
        auto unconsumed = m_db.scalar(
            QStringLiteral("SELECT COUNT(*) FROM {events} e WHERE e.created_at >= %1 AND e.status = 'SENT' "
                           "AND e.sent_at <= %2 AND %3")
                .arg(d.nowPlusMillis(QStringLiteral(":window")), d.nowPlusMillis(QStringLiteral(":age")),
                     scoped.where()),
            binds);
        if (!unconsumed)
            return unconsumed.error();
        s.unconsumed.insert(consumer, unconsumed->toLongLong());
    }

    s.queryMillis = timer.elapsed();
    return s;
}

void MetricsQuery::setUnconsumedConsumers(const QStringList& consumers, qint64 olderThanMs, qint64 windowMs)
{
    m_unconsumedConsumers = consumers;
    m_unconsumedOlderThanMs = olderThanMs;
    m_unconsumedWindowMs = windowMs;
}

} // namespace outbox
