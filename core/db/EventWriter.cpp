#include "core/db/EventWriter.h"

#include "core/db/Database.h"
#include "core/support/JsonText.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QUuid>

namespace outbox {
namespace {
constexpr int RowsPerStatement = 200;
}

Status EventWriter::validate(const NewEvent& e) const
{
    if (e.eventType.trimmed().isEmpty())
        return Error::usage(QStringLiteral("an event needs an event_type"));
    if (e.aggregateType.trimmed().isEmpty() || e.aggregateId.isEmpty())
        return Error::usage(QStringLiteral("an event needs an aggregate_type and an aggregate_id"));
    if (e.eventId.size() > 191 || e.eventType.size() > 191 || e.aggregateType.size() > 191 ||
        e.aggregateId.size() > 191)
        return Error::usage(QStringLiteral(
            "event_id, event_type, aggregate_type and aggregate_id are limited to 191 characters"));
    if (e.topic.size() > 249)
        return Error::usage(QStringLiteral("a topic name is limited to 249 characters"));
    if (e.payload.size() > m_maxPayloadBytes)
        return Error::usage(QStringLiteral("payload of %1 bytes exceeds the limit of %2 bytes")
                                .arg(e.payload.size())
                                .arg(m_maxPayloadBytes));
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(e.payload, &err);
    if (err.error != QJsonParseError::NoError || doc.isNull())
        return Error::usage(QStringLiteral("payload is not valid JSON: %1 at offset %2")
                                .arg(JsonText::parseError(err.error))
                                .arg(err.offset));
    if (e.schemaVersion < 1)
        return Error::usage(QStringLiteral("schema_version must be 1 or higher"));
    return {};
}

Result<QString> EventWriter::append(const NewEvent& event)
{
    auto ids = appendBatch({event});
    if (!ids)
        return ids.error();
    return ids->first();
}

Result<QStringList> EventWriter::appendBatch(const QVector<NewEvent>& events)
{
    for (const NewEvent& e : events) {
        if (Status s = validate(e); !s)
            return s.error();
    }
    // Outside a transaction each INSERT would commit on its own: the event could be published for
    // a business change that then rolls back, or the change commit without its event.
    if (!m_db.inTransaction())
        return Error::usage(
            QStringLiteral("no transaction is open: write outbox events inside the business transaction "
                           "(begin it first), so the change and its events commit or roll back together"));
    const Dialect& d = m_db.dialect();
    QStringList ids;
    ids.reserve(events.size());
    for (int start = 0; start < events.size(); start += RowsPerStatement) {
        const int end = std::min<int>(events.size(), start + RowsPerStatement);
        QStringList rows;
        QVariantMap binds;
        for (int i = start; i < end; ++i) {
            const NewEvent& e = events.at(i);
            const QString n = QString::number(i - start);
            const QString id =
                e.eventId.isEmpty() ? QUuid::createUuid().toString(QUuid::WithoutBraces) : e.eventId;
            ids << id;
            rows << QStringLiteral("(:eid%1, :type%1, :atype%1, :aid%1, :aver%1, :topic%1, %2, %3, :sv%1)")
                        .arg(n, d.jsonValue(QStringLiteral(":payload") + n),
                             d.jsonValue(QStringLiteral(":headers") + n));
            binds.insert(QStringLiteral(":eid") + n, id);
            binds.insert(QStringLiteral(":type") + n, e.eventType);
            binds.insert(QStringLiteral(":atype") + n, e.aggregateType);
            binds.insert(QStringLiteral(":aid") + n, e.aggregateId);
            binds.insert(QStringLiteral(":aver") + n, e.aggregateVersion
                                                          ? QVariant(*e.aggregateVersion)
                                                          : QVariant(QMetaType::fromType<qint64>()));
            binds.insert(QStringLiteral(":topic") + n,
                         e.topic.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(e.topic));
            binds.insert(QStringLiteral(":payload") + n, QString::fromUtf8(e.payload));
            binds.insert(QStringLiteral(":headers") + n,
                         QString::fromUtf8(QJsonDocument(e.headers).toJson(QJsonDocument::Compact)));
            binds.insert(QStringLiteral(":sv") + n, e.schemaVersion);
        }
        // Prepared once per connection and row count: through QtSql's PostgreSQL driver a statement
        // prepared for one call costs three round trips (PREPARE, EXECUTE, DEALLOCATE), a kept one one.
        auto q = m_db.execPrepared(
            QStringLiteral("INSERT INTO {events} (event_id, event_type, aggregate_type, aggregate_id, "
                           "aggregate_version, topic, payload, headers, schema_version) VALUES ") +
                rows.join(QStringLiteral(", ")),
            binds);
        if (!q)
            return Error::runtime(QStringLiteral("cannot write outbox events: %1").arg(q.message()));
    }
    m_db.noteEventsWritten();
    return ids;
}

} // namespace outbox
