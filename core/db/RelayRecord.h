#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QString>

namespace outbox {

// One row of outbox_relays, with its heartbeat age as the database sees it.
struct RelayRecord
{
    QString workerId;
    QString host;
    qint64 pid = 0;
    QString version;
    QDateTime startedAt;
    QDateTime heartbeatAt;
    qint64 heartbeatAgeMs = 0;
    QString desiredState;
    QString state;
    qint64 claimedTotal = 0;
    qint64 sentTotal = 0;
    qint64 failedTotal = 0;
    qint64 fencedTotal = 0;
    int leasesHeld = 0;
    QString lastError;

    QJsonObject toJson() const;
};

} // namespace outbox
