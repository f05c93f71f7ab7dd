#pragma once

#include <QDateTime>
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
    bool topicsKnown = false; // the consumer recorded its topics; only those were checked
    QStringList topics;
    // Listing mode (ReconcileOptions::listLimit): the page of unconsumed events, oldest id first.
    struct Event
    {
        qint64 id = 0;
        QString eventId;
        QString topic;
        QDateTime createdAt;
        QDateTime sentAt;
    };
    bool listing = false;
    QVector<Event> events;
    qint64 nextAfterId = 0; // > 0: more may follow after this id

    QJsonObject toJson() const;
};

} // namespace outbox
