#include "core/consumer/Reconciler.h"

#include "core/db/Database.h"
#include "core/db/SqlCondition.h"
#include "core/db/UnconsumedScope.h"

#include <QHash>
#include <QSet>
#include <QSqlQuery>

namespace outbox {

Result<QVariant> Reconciler::cutoff(qint64 olderThanMs)
{
    // The cut-off comes from the outbox database's clock, like sent_at itself.
    auto at = m_outbox.scalar(
        QStringLiteral("SELECT %1").arg(m_outbox.dialect().nowPlusMillis(QStringLiteral(":age"))),
        {{QStringLiteral(":age"), -olderThanMs}});
    if (!at)
        return at.error();
    const Dialect& d = m_outbox.dialect();
    return d.fromDateTime(d.toDateTime(*at));
}

Result<qint64> Reconciler::count(const QString& consumer, qint64 olderThanMs)
{
    if (m_inbox) { // the inbox is elsewhere: its rows can only be asked for by event id
        ReconcileOptions o;
        o.consumerName = consumer;
        o.olderThanMs = olderThanMs;
        o.sampleSize = 0;
        auto walked = run(o);
        if (!walked)
            return walked.error();
        return walked->unconsumed;
    }
    if (consumer.trimmed().isEmpty())
        return Error::usage(QStringLiteral("reconciliation needs a consumer name"))
            .about(QStringLiteral("consumer.name"));
    if (olderThanMs < 0)
        return Error::usage(QStringLiteral("the age must not be negative"));
    auto scope = UnconsumedScope::load(m_outbox, consumer);
    if (!scope)
        return scope.error();
    auto cutoffAt = cutoff(olderThanMs);
    if (!cutoffAt)
        return cutoffAt.error();
    SqlCondition c = scope->condition(QStringLiteral("u"));
    c.binds.insert(QStringLiteral(":cutoff"), *cutoffAt);
    auto n = m_outbox.scalar(
        QStringLiteral(
            "SELECT COUNT(*) FROM {events} e WHERE e.status = 'SENT' AND e.sent_at <= :cutoff AND %1")
            .arg(c.where()),
        c.binds);
    if (!n)
        return n.error();
    return n->toLongLong();
}

Result<ReconcileResult> Reconciler::run(const ReconcileOptions& o)
{
    if (o.consumerName.trimmed().isEmpty())
        return Error::usage(QStringLiteral("reconciliation needs a consumer name"))
            .about(QStringLiteral("consumer.name"));
    if (o.olderThanMs < 0)
        return Error::usage(QStringLiteral("the age must not be negative"));
    if (o.chunkSize < 1 || o.chunkSize > 10000)
        return Error::usage(QStringLiteral("the chunk size must be between 1 and 10000"));
    if (o.listLimit < 0 || o.listLimit > ReconcileOptions::MaxListLimit)
        return Error::usage(
            QStringLiteral("the page size must be between 1 and %1").arg(ReconcileOptions::MaxListLimit));
    if (o.afterId < 0)
        return Error::usage(QStringLiteral("the id to continue after must not be negative"));
    ReconcileResult result;
    result.consumerName = o.consumerName;
    result.olderThanMs = o.olderThanMs;
    result.separateInbox = m_inbox != nullptr;
    result.listing = o.listLimit > 0;

    // The consumer's topics are recorded where its inbox is.
    auto scope = UnconsumedScope::load(m_inbox ? *m_inbox : m_outbox, o.consumerName);
    if (!scope)
        return scope.error();
    result.topicsKnown = scope->topicsKnown;
    result.topics = scope->topics;
    const SqlCondition topics = scope->topicCondition(QStringLiteral("u"));

    auto cutoffAt = cutoff(o.olderThanMs);
    if (!cutoffAt)
        return cutoffAt.error();
    const Dialect& d = m_outbox.dialect();
    const QVariant cutoffValue = *cutoffAt;

    bool pageFull = false;
    auto note = [&](qint64 id, const QString& eventId, const QVariant& topic, const QVariant& created,
                    const QVariant& sent) {
        ++result.unconsumed;
        if (result.sampleIds.size() < o.sampleSize) {
            result.sampleIds << id;
            result.sampleEventIds << eventId;
        }
        if (result.listing) {
            result.events << ReconcileResult::Event{
                id, eventId, topic.isNull() ? QString() : topic.toString(), d.toDateTime(created),
                sent.isNull() ? QDateTime() : d.toDateTime(sent)};
            if (result.events.size() >= o.listLimit) {
                pageFull = true;
                result.nextAfterId = id;
            }
        }
    };

    const QString columns =
        QStringLiteral("e.id, e.event_id, COALESCE(e.sent_topic, e.topic), e.created_at, e.sent_at");
    qint64 after = o.afterId;
    while (!pageFull) {
        QVariantMap chunkBinds = topics.binds;
        chunkBinds.insert(QStringLiteral(":cutoff"), cutoffValue);
        chunkBinds.insert(QStringLiteral(":after"), after);
        chunkBinds.insert(QStringLiteral(":chunk"), o.chunkSize);
        auto chunk = m_outbox.exec(
            QStringLiteral("SELECT %1 FROM {events} e WHERE e.status = 'SENT' AND e.sent_at <= :cutoff "
                           "AND e.id > :after AND %2 ORDER BY e.id LIMIT :chunk")
                .arg(m_inbox ? columns : QStringLiteral("e.id, e.event_id"), topics.where()),
            chunkBinds);
        if (!chunk)
            return chunk.error();
        struct Row
        {
            qint64 id;
            QString eventId;
            QVariant topic, created, sent;
        };
        QVector<Row> rows;
        while (chunk->next()) {
            Row r{chunk->value(0).toLongLong(), chunk->value(1).toString(), {}, {}, {}};
            if (m_inbox) {
                r.topic = chunk->value(2);
                r.created = chunk->value(3);
                r.sent = chunk->value(4);
            }
            rows << r;
        }
        if (rows.isEmpty())
            break;
        ++result.chunks;
        const qint64 last = rows.last().id;

        if (!m_inbox) {
            SqlCondition missing = scope->condition(QStringLiteral("u"));
            missing.binds.insert(QStringLiteral(":cutoff"), cutoffValue);
            missing.binds.insert(QStringLiteral(":after"), after);
            missing.binds.insert(QStringLiteral(":last"), last);
            auto q =
                m_outbox.exec(QStringLiteral("SELECT %1 FROM {events} e WHERE e.status = 'SENT' "
                                             "AND e.sent_at <= :cutoff AND e.id > :after AND e.id <= :last "
                                             "AND %2 ORDER BY e.id")
                                  .arg(columns, missing.where()),
                              missing.binds);
            if (!q)
                return q.error();
            qint64 lastChecked = last;
            while (q->next() && !pageFull) {
                note(q->value(0).toLongLong(), q->value(1).toString(), q->value(2), q->value(3), q->value(4));
                if (pageFull)
                    lastChecked = q->value(0).toLongLong();
            }
            // What this page checked: the chunk's rows up to the last event listed.
            for (const Row& r : rows)
                if (r.id <= lastChecked)
                    ++result.scanned;
        } else {
            QVariantList values;
            for (const Row& r : rows)
                values << r.eventId;
            SqlCondition c;
            c.add(QStringLiteral("consumer_name = :consumer"), QStringLiteral(":consumer"), o.consumerName);
            c.add(QStringLiteral("status = 'PROCESSED'"));
            c.addIn(QStringLiteral("event_id"), QStringLiteral("e"), values);
            auto processed = m_inbox->exec(
                QStringLiteral("SELECT event_id FROM {inbox} WHERE %1").arg(c.where()), c.binds);
            if (!processed)
                return Error::runtime(QStringLiteral("inbox database: %1").arg(processed.message()));
            QSet<QString> seen;
            while (processed->next())
                seen.insert(processed->value(0).toString());
            // Dead letters the operator decided (and none still open) keep the event from the count.
            SqlCondition dl;
            dl.add(QStringLiteral("consumer_name = :consumer"), QStringLiteral(":consumer"), o.consumerName);
            dl.addIn(QStringLiteral("event_id"), QStringLiteral("e"), values);
            auto letters = m_inbox->exec(
                QStringLiteral("SELECT event_id, status FROM {dead_letters} WHERE %1").arg(dl.where()),
                dl.binds);
            if (!letters)
                return Error::runtime(QStringLiteral("inbox database: %1").arg(letters.message()));
            QSet<QString> decided, open;
            while (letters->next()) {
                const QString status = letters->value(1).toString();
                if (status == QLatin1String("DISCARDED") || status == QLatin1String("REPLAYED"))
                    decided.insert(letters->value(0).toString());
                else
                    open.insert(letters->value(0).toString());
            }
            for (const Row& r : rows) {
                if (pageFull)
                    break;
                ++result.scanned;
                if (seen.contains(r.eventId) || (decided.contains(r.eventId) && !open.contains(r.eventId)))
                    continue;
                note(r.id, r.eventId, r.topic, r.created, r.sent);
            }
        }
        after = last;
        if (rows.size() < o.chunkSize)
            break;
    }
    return result;
}

} // namespace outbox
