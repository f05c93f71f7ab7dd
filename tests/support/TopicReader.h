#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QVector>

namespace outbox::test {

struct ConsumedMessage
{
    int partition = -1;
    qint64 offset = -1;
    QByteArray key;
    QByteArray payload;
    QMap<QByteArray, QByteArray> headers; // a name that came twice: the last value
    int headerCount = 0;                  // every header, those of a repeated name included
};

// Reads a topic from the beginning with a real librdkafka consumer (over TCP), until
// `expected` messages have arrived or nothing new came for `idleMs`.
QVector<ConsumedMessage> readTopic(const QString& bootstrap, const QString& topic, int expected,
                                   int idleMs = 3000, int maxWaitMs = 120000);

} // namespace outbox::test
