#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <optional>

class QSqlQuery;

namespace outbox {

class Dialect;

// One row of dead_letters: a message a consumer could not process, kept for inspection and replay.
struct DeadLetter
{
    qint64 id = 0;
    QString consumerName;
    QString eventId;
    QString topic;
    std::optional<int> sourcePartition;
    std::optional<qint64> sourceOffset;
    QString messageKey;
    QByteArray headers; // JSON object text
    QByteArray payload; // original message bytes as text
    QString error;
    QString stacktrace;
    int attempts = 0;
    QDateTime firstFailedAt;
    QDateTime lastFailedAt;
    QString status;
    QString replayToken;
    QString replayTopic;
    int replayCount = 0;
    QDateTime replayedAt;
    QString replayedBy;

    static QString columns();
    static DeadLetter fromQuery(const QSqlQuery& q, const Dialect& dialect);
    QJsonObject toJson() const;
};

} // namespace outbox
