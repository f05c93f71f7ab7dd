#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <optional>

class QSqlQuery;

namespace outbox {

class Dialect;

// One row of outbox_events.
struct OutboxEvent
{
    qint64 id = 0;
    QString eventId;
    QString eventType;
    QString aggregateType;
    QString aggregateId;
    std::optional<qint64> aggregateVersion;
    QString topic;
    QByteArray payload; // JSON text
    QByteArray headers; // JSON object text
    int schemaVersion = 1;
    QString status;
    int attempts = 0;
    QDateTime availableAt;
    QString workerId;
    QDateTime leaseUntil;
    QString leaseToken;
    QString lastError;
    QString lastErrorClass;
    QDateTime createdAt;
    QDateTime sentAt;
    std::optional<int> brokerPartition;
    std::optional<qint64> brokerOffset;
    QString sentTopic; // the topic the relay sent it to; empty until sent
    // A list's summary (summaryColumns()): `payload` holds only the first characters when
    // payloadTruncated; payloadSize is the whole payload's size in bytes (-1: not a summary).
    qint64 payloadSize = -1;
    bool payloadTruncated = false;

    // The column list every SELECT of a whole event uses, in the order fromQuery() reads.
    static QString columns(const QString& alias = {});
    static OutboxEvent fromQuery(const QSqlQuery& q, const Dialect& dialect);
    // columns() with the payload cut by the database to its first `previewPlaceholder` (bound)
    // characters, then the payload's size in bytes: read with fromSummary().
    static QString summaryColumns(const Dialect& dialect, const QString& previewPlaceholder);
    static OutboxEvent fromSummary(const QSqlQuery& q, const Dialect& dialect);
    // The narrower list a claim returns: what a relay sends and needs (the lease's own columns are
    // known to the claimer; error, broker and sent columns are empty for a SENDING row).
    static QString claimedColumns();
    // A SENDING event from a claim's row (claimedColumns()); the claimer fills in worker and token.
    static OutboxEvent fromClaimed(const QSqlQuery& q, const Dialect& dialect);
    // A summary's payload is "payload_preview" (text) when it was cut, with "payload_size" and
    // "payload_truncated".
    QJsonObject toJson() const;
};

} // namespace outbox
