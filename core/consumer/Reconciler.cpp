#include "core/consumer/Reconciler.h"

#include "core/db/Database.h"
#include "core/db/SqlCondition.h"

#include <QSet>
#include <QSqlQuery>

namespace outbox {

Result<ReconcileResult> Reconciler::run(const ReconcileOptions& o)
{
    if (o.consumerName.trimmed().isEmpty())
        return Error::usage(QStringLiteral("reconciliation needs a consumer name"))
            .about(QStringLiteral("consumer.name"));
    if (o.olderThanMs < 0)
        return Error::usage(QStringLiteral("the age must not be negative"));
    if (o.chunkSize < 1 || o.chunkSize > 10000)
        return Error::usage(QStringLiteral("the chunk size must be between 1 and 10000"));
    ReconcileResult result;
    result.consumerName = o.consumerName;
    result.olderThanMs = o.olderThanMs;
    result.separateInbox = m_inbox != nullptr;

    // The cut-off comes from the outbox database's clock, like sent_at itself.
    auto cutoff = m_outbox.scalar(
        QStringLiteral("SELECT %1").arg(m_outbox.dialect().nowPlusMillis(QStringLiteral(":age"))),
        {{QStringLiteral(":age"), -o.olderThanMs}});
    if (!cutoff)
        return cutoff.error();
    const QVariant cutoffValue = m_outbox.dialect().fromDateTime(m_outbox.dialect().toDateTime(*cutoff));

    auto note = [&](qint64 id, const QString& eventId) {
        ++result.unconsumed;
        if (result.sampleIds.size() < o.sampleSize) {
            result.sampleIds << id;
            result.sampleEventIds << eventId;
        }
    };

    qint64 after = 0;
    while (true) {
        auto chunk = m_outbox.exec(
            QStringLiteral("SELECT id, event_id FROM {events} WHERE status = 'SENT' AND sent_at <= :cutoff "
                           "AND id > :after ORDER BY id LIMIT :chunk"),
            {{QStringLiteral(":cutoff"), cutoffValue},
             {QStringLiteral(":after"), after},
             {QStringLiteral(":chunk"), o.chunkSize}});
        if (!chunk)
            return chunk.error();
        QVector<qint64> ids;
        QStringList eventIds;
        while (chunk->next()) {
            ids << chunk->value(0).toLongLong();
            eventIds << chunk->value(1).toString();
        }
        if (ids.isEmpty())
            break;
        ++result.chunks;
        result.scanned += ids.size();
        const qint64 last = ids.last();

        if (!m_inbox) {
            auto missing = m_outbox.exec(
                QStringLiteral("SELECT e.id, e.event_id FROM {events} e WHERE e.status = 'SENT' "
                               "AND e.sent_at <= :cutoff AND e.id > :after AND e.id <= :last "
                               "AND NOT EXISTS (SELECT 1 FROM {inbox} i WHERE i.event_id = e.event_id "
                               "AND i.consumer_name = :consumer AND i.status = 'PROCESSED') ORDER BY e.id"),
                {{QStringLiteral(":cutoff"), cutoffValue},
                 {QStringLiteral(":after"), after},
                 {QStringLiteral(":last"), last},
                 {QStringLiteral(":consumer"), o.consumerName}});
            if (!missing)
                return missing.error();
            while (missing->next())
                note(missing->value(0).toLongLong(), missing->value(1).toString());
        } else {
            SqlCondition c;
            c.add(QStringLiteral("consumer_name = :consumer"), QStringLiteral(":consumer"), o.consumerName);
            c.add(QStringLiteral("status = 'PROCESSED'"));
            QVariantList values;
            for (const QString& e : eventIds)
                values << e;
            c.addIn(QStringLiteral("event_id"), QStringLiteral("e"), values);
            auto processed = m_inbox->exec(
                QStringLiteral("SELECT event_id FROM {inbox} WHERE %1").arg(c.where()), c.binds);
            if (!processed)
                return Error::runtime(QStringLiteral("inbox database: %1").arg(processed.message()));
            QSet<QString> seen;
            while (processed->next())
                seen.insert(processed->value(0).toString());
            for (int i = 0; i < ids.size(); ++i)
                if (!seen.contains(eventIds.at(i)))
                    note(ids.at(i), eventIds.at(i));
        }
        after = last;
        if (ids.size() < o.chunkSize)
            break;
    }
    return result;
}

} // namespace outbox
