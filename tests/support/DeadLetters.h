#pragma once

#include "core/db/DeadLetterStore.h"

namespace outbox::test {

// A NEW dead letter of `consumer` from the topic "orders", as the console and fleet tests set them up.
inline Result<qint64> insertDeadLetter(Database& db, const QString& consumer, const QString& eventId,
                                       const QByteArray& headers, const QByteArray& payload,
                                       const QString& error)
{
    DeadLetter l;
    l.consumerName = consumer;
    l.eventId = eventId;
    l.topic = QStringLiteral("orders");
    l.headers = headers;
    l.payload = payload;
    l.error = error;
    return DeadLetterStore(db).insert(l);
}

} // namespace outbox::test
