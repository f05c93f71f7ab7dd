#pragma once

#include "core/support/Result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QVector>
#include <optional>

namespace outbox {

class Database;

// What a business transaction publishes.
struct NewEvent
{
    QString eventId; // empty: a UUID is generated
    QString eventType;
    QString aggregateType;
    QString aggregateId;
    std::optional<qint64> aggregateVersion;
    QString topic;      // empty: routed by the relay's topic template
    QByteArray payload; // a JSON object or array
    QJsonObject headers;
    int schemaVersion = 1;
};

// The producer-side helper: writes events inside the caller's open transaction, so the business
// change and its events commit or roll back together. It never begins or commits by itself, and
// refuses to write when no transaction is open on the connection (Database::beginWrite()).
class EventWriter
{
public:
    static constexpr int DefaultMaxPayloadBytes = 1024 * 1024;

    explicit EventWriter(Database& db, int maxPayloadBytes = DefaultMaxPayloadBytes)
        : m_db(db), m_maxPayloadBytes(maxPayloadBytes)
    {
    }

    // Returns the new row's event_id.
    Result<QString> append(const NewEvent& event);
    // Multi-row inserts in chunks; returns the event_ids in input order.
    Result<QStringList> appendBatch(const QVector<NewEvent>& events);

    Status validate(const NewEvent& event) const;

private:
    Database& m_db;
    int m_maxPayloadBytes;
};

} // namespace outbox
