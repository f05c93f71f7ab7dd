#include "core/db/InboxStore.h"

#include "core/db/Database.h"

#include <QSqlQuery>

namespace outbox {

namespace {
const QString InboxColumns =
    QStringLiteral("event_id, consumer_name, aggregate_id, status, attempts, processed_at, last_error");
const QString UniqueColumns = QStringLiteral("event_id, consumer_name");
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
                                         const QString& aggregateId, int attempts)
{
    const Dialect& d = m_db.dialect();
    const QVariantMap binds{{QStringLiteral(":event"), eventId},
                            {QStringLiteral(":consumer"), consumerName},
                            {QStringLiteral(":aggregate"), aggregateId.isNull()
                                                               ? QVariant(QMetaType::fromType<QString>())
                                                               : QVariant(aggregateId)},
                            {QStringLiteral(":attempts"), attempts}};
    auto inserted = m_db.exec(
        d.insertIfAbsent(
            d.sql(QStringLiteral("{inbox}")), InboxColumns,
            QStringLiteral(":event, :consumer, :aggregate, 'PROCESSED', :attempts, %1, NULL").arg(d.now()),
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
                                const QString& aggregateId, int attempts, const QString& error)
{
    const Dialect& d = m_db.dialect();
    auto inserted = m_db.exec(
        d.insertIfAbsent(
            d.sql(QStringLiteral("{inbox}")), InboxColumns,
            QStringLiteral(":event, :consumer, :aggregate, 'FAILED', :attempts, %1, :error").arg(d.now()),
            UniqueColumns),
        {{QStringLiteral(":event"), eventId},
         {QStringLiteral(":consumer"), consumerName},
         {QStringLiteral(":aggregate"),
          aggregateId.isNull() ? QVariant(QMetaType::fromType<QString>()) : QVariant(aggregateId)},
         {QStringLiteral(":attempts"), attempts},
         {QStringLiteral(":error"), error}});
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
         {QStringLiteral(":error"), error}});
    if (!updated)
        return Error::runtime(QStringLiteral("cannot update the inbox row: %1").arg(updated.message()));
    return {};
}

} // namespace outbox
