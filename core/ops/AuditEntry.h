#pragma once

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>

namespace outbox {

// One row of the append-only audit log.
struct AuditEntry
{
    qint64 id = 0;
    QDateTime at;
    QString actor;
    QString host;
    QString action;       // e.g. events.requeue, events.dead, dlq.replay, dlq.discard
    QString targetKind;   // event, dead_letter, relay
    QJsonArray targetIds; // capped; beyond the cap the filter and the count stand for them
    QJsonObject filter;
    QString reason;
    qint64 affectedCount = 0;
    QJsonObject before;
    QJsonObject after;
    // Sizes of states a list left in the database (AuditQuery::stateBytesLimit); 0 when read whole.
    qint64 beforeOmittedBytes = 0;
    qint64 afterOmittedBytes = 0;
    QString outcome; // ok, partial, none

    QJsonObject toJson() const;
};

} // namespace outbox
