#include "core/consumer/ConsumerOverview.h"

#include "core/consumer/Reconciler.h"
#include "core/db/Database.h"
#include "core/db/InboxStore.h"
#include "core/support/Failpoints.h"

#include <QJsonArray>
#include <QSqlQuery>
#include <algorithm>

namespace outbox {

namespace {
QJsonValue timeOrNull(const QDateTime& t)
{
    return t.isValid() ? QJsonValue(t.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue();
}
} // namespace

qint64 ConsumerSummary::totalLag() const
{
    qint64 total = 0;
    for (const PartitionLag& l : lag)
        total += l.lag;
    return total;
}

QJsonObject ConsumerSummary::toJson(const ConsumerOverview& overview) const
{
    QJsonArray counts;
    for (qint64 c : rateCounts)
        counts << c;
    QJsonObject o{{QStringLiteral("consumer"), consumerName},
                  {QStringLiteral("processed"), processed},
                  {QStringLiteral("failed"), failed},
                  {QStringLiteral("duplicates"), duplicates},
                  {QStringLiteral("last_processed_at"), timeOrNull(lastProcessedAt)},
                  {QStringLiteral("dead_letters_new"), deadLettersNew},
                  {QStringLiteral("unconsumed"), overview.reconciled ? QJsonValue(unconsumed) : QJsonValue()},
                  {QStringLiteral("rate"),
                   QJsonObject{{QStringLiteral("since"), timeOrNull(overview.rateSince)},
                               {QStringLiteral("bucket_seconds"), double(overview.bucketMs) / 1000.0},
                               {QStringLiteral("processed_per_bucket"), counts}}}};
    if (overview.lagQueried && overview.lagError.isEmpty()) {
        QJsonArray partitions;
        for (const PartitionLag& l : lag)
            partitions << l.toJson();
        o[QStringLiteral("lag")] = partitions;
        o[QStringLiteral("total_lag")] = totalLag();
    } else {
        o[QStringLiteral("lag")] = QJsonValue();
    }
    return o;
}

QJsonObject ConsumerOverview::toJson() const
{
    QJsonArray list;
    for (const ConsumerSummary& c : consumers)
        list << c.toJson(*this);
    QJsonObject o{{QStringLiteral("taken_at"), timeOrNull(takenAt)},
                  {QStringLiteral("unconsumed_older_than_ms"),
                   reconciled ? QJsonValue(unconsumedOlderThanMs) : QJsonValue()},
                  {QStringLiteral("consumers"), list}};
    if (!lagError.isEmpty())
        o[QStringLiteral("lag_error")] = lagError;
    return o;
}

Result<QStringList> ConsumerOverviewQuery::consumerNames()
{
    auto q = m_db.exec(QStringLiteral("SELECT DISTINCT consumer_name FROM {inbox} UNION "
                                      "SELECT DISTINCT consumer_name FROM {dead_letters} UNION "
                                      "SELECT consumer_name FROM {consumer_counters}"));
    if (!q)
        return q.error();
    QStringList names;
    while (q->next())
        if (!q->value(0).isNull())
            names << q->value(0).toString();
    names.removeDuplicates();
    std::sort(names.begin(), names.end());
    return names;
}

ConsumerOverview ConsumerOverview::withCountsOf(const ConsumerOverview& counted) const
{
    ConsumerOverview merged = *this;
    merged.reconciled = counted.reconciled;
    merged.unconsumedOlderThanMs = counted.unconsumedOlderThanMs;
    merged.lagQueried = counted.lagQueried;
    merged.lagError = counted.lagError;
    for (ConsumerSummary& c : merged.consumers)
        for (const ConsumerSummary& n : counted.consumers)
            if (n.consumerName == c.consumerName) {
                c.unconsumed = n.unconsumed;
                c.lag = n.lag;
            }
    return merged;
}

// The counts, dead letters and processing rate of one consumer: each reads its inbox rows.
Status ConsumerOverviewQuery::loadFigures(ConsumerSummary& c, const QString& rateSql,
                                          const QVariantMap& rateBinds, int rateBuckets)
{
    const Dialect& d = m_db.dialect();
    const QString& name = c.consumerName;
    const QVariantMap binds{{QStringLiteral(":consumer"), name}};
    auto counts = m_db.exec(QStringLiteral("SELECT status, COUNT(*), MAX(processed_at) FROM {inbox} "
                                           "WHERE consumer_name = :consumer GROUP BY status"),
                            binds);
    if (!counts)
        return counts.error();
    while (counts->next()) {
        const QString status = counts->value(0).toString();
        if (status == QLatin1String("PROCESSED")) {
            c.processed = counts->value(1).toLongLong();
            if (!counts->value(2).isNull())
                c.lastProcessedAt = d.toDateTime(counts->value(2));
        } else if (status == QLatin1String("FAILED")) {
            c.failed = counts->value(1).toLongLong();
        }
    }
    auto letters = m_db.scalar(QStringLiteral("SELECT COUNT(*) FROM {dead_letters} WHERE consumer_name = "
                                              ":consumer AND status = 'NEW'"),
                               binds);
    if (!letters)
        return letters.error();
    c.deadLettersNew = letters->toLongLong();

    QVariantMap b = rateBinds;
    b.insert(QStringLiteral(":consumer"), name);
    auto rate = m_db.exec(rateSql, b);
    if (!rate)
        return rate.error();
    c.rateCounts = QVector<qint64>(rateBuckets, 0);
    if (rate->next())
        for (int i = 0; i < rateBuckets; ++i)
            c.rateCounts[i] = rate->value(i).toLongLong(); // NULL (no rows) reads as 0
    return {};
}

Result<ConsumerOverview> ConsumerOverviewQuery::load(const Options& o)
{
    if (o.rateBuckets < 1 || o.rateBuckets > 240)
        return Error::usage(QStringLiteral("the rate history takes between 1 and 240 buckets"));
    if (o.rateWindowMs < 1000 || o.rateWindowMs > 31LL * 24 * 3600 * 1000)
        return Error::usage(QStringLiteral("the rate window must be between 1 second and 31 days"));
    if (o.unconsumedOlderThanMs < 0)
        return Error::usage(QStringLiteral("the age must not be negative"));
    const Dialect& d = m_db.dialect();
    ConsumerOverview overview;
    auto now = m_db.scalar(QStringLiteral("SELECT %1").arg(d.now()));
    if (!now)
        return now.error();
    overview.takenAt = d.toDateTime(*now);
    overview.bucketMs = std::max<qint64>(1, o.rateWindowMs / o.rateBuckets);
    overview.rateSince = overview.takenAt.addMSecs(-overview.bucketMs * o.rateBuckets);
    overview.unconsumedOlderThanMs = o.unconsumedOlderThanMs;
    overview.reconciled = o.reconcile;
    overview.lagQueried = !o.lag.bootstrap.trimmed().isEmpty();

    QStringList names;
    if (!o.consumers.isEmpty()) {
        names = o.consumers;
    } else if (!o.consumerName.isEmpty()) {
        names << o.consumerName;
    } else {
        auto known = consumerNames();
        if (!known)
            return known.error();
        names = *known;
        for (const QString& extra : o.extraConsumers)
            if (!extra.isEmpty() && !names.contains(extra))
                names << extra;
        std::sort(names.begin(), names.end());
    }
    QMap<QString, qint64> duplicates;
    if (o.figures) {
        auto counted = InboxStore(m_db).duplicateCounts();
        if (!counted)
            return counted.error();
        duplicates = *counted;
    }

    // One statement for the whole rate history: a SUM per bucket over the (consumer, processed_at)
    // index range, bucket bounds bound as values.
    QStringList sums;
    QVariantMap rateBinds;
    for (int i = 0; i < o.rateBuckets; ++i) {
        const QString from = QStringLiteral(":b%1").arg(i);
        const QString to = QStringLiteral(":b%1").arg(i + 1);
        sums << QStringLiteral("SUM(CASE WHEN processed_at >= %1 AND processed_at < %2 THEN 1 ELSE 0 END)")
                    .arg(from, to);
    }
    for (int i = 0; i <= o.rateBuckets; ++i)
        rateBinds.insert(QStringLiteral(":b%1").arg(i),
                         d.fromDateTime(overview.rateSince.addMSecs(overview.bucketMs * i)));
    const QString rateSql = QStringLiteral("SELECT %1 FROM {inbox} WHERE consumer_name = :consumer AND "
                                           "status = 'PROCESSED' AND processed_at >= :b0")
                                .arg(sums.join(QStringLiteral(", ")));

    for (const QString& name : names) {
        ConsumerSummary c;
        c.consumerName = name;
        c.duplicates = duplicates.value(name);
        if (o.figures)
            if (Status s = loadFigures(c, rateSql, rateBinds, o.rateBuckets); !s)
                return s.error();
        if (o.reconcile) {
            if (o.cancelled && o.cancelled->load())
                return Error::usage(QStringLiteral("the count of unconsumed events was cancelled"));
            // Tests stand for a big inbox's slow reconciliation with this failpoint.
            if (Status s = Failpoints::hit("consumer.overview.reconcile"); !s)
                return s.error();
            auto unconsumed = Reconciler(m_db).count(name, o.unconsumedOlderThanMs);
            if (!unconsumed)
                return unconsumed.error();
            c.unconsumed = *unconsumed;
        }
        if (overview.lagQueried && overview.lagError.isEmpty()) {
            auto lag = ConsumerLag::query(o.lag, name);
            if (lag)
                c.lag = *lag;
            else
                overview.lagError = lag.message();
        }
        overview.consumers << c;
    }
    return overview;
}

} // namespace outbox
