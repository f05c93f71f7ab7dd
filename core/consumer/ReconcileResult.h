#pragma once

#include <QJsonObject>
#include <QStringList>
#include <QVector>

namespace outbox {

struct ReconcileResult
{
    QString consumerName;
    qint64 olderThanMs = 0;
    bool separateInbox = false;
    qint64 scanned = 0;    // SENT events old enough that were checked
    qint64 unconsumed = 0; // of those, not PROCESSED by the consumer
    int chunks = 0;
    QVector<qint64> sampleIds; // outbox ids of the first unconsumed events
    QStringList sampleEventIds;

    QJsonObject toJson() const;
};

} // namespace outbox
