#pragma once

#include <QDateTime>
#include <QString>

namespace outbox::desktop {

// Words the console shows as labels (legends, filter choices, column captions) in the user's
// language. Stored values (an event's status in a table cell, an error text) stay as they are.
class Labels
{
public:
    // PENDING, SENDING, SENT, FAILED, DEAD and the dead-letter states.
    static QString status(const QString& status);
    // The error classes of a delivery failure: transient, deterministic.
    static QString errorClass(const QString& errorClass);
    // A point in time with its seconds, in local time, the same in every language.
    static QString dateTime(const QDateTime& at);
    static QString time(const QDateTime& at);
    // A duration in the largest unit that keeps it short ("45 s", "12 min", "1.5 h"); "none" below 0.
    static QString age(qint64 ms);
    // The database layer's "cannot connect to URL: driver's words" as a sentence in the user's
    // language (the URL and the driver's words as they are); any other message as it is. Core
    // translates it itself when its catalogue is loaded; this is for a core without one.
    static QString databaseError(const QString& message);
    // True when `message` is that sentence, in English or as core's catalogue translated it.
    static bool isCannotConnect(const QString& message);
    // A size in bytes, in the largest unit that keeps it short ("812 bytes", "148 KB", "1.2 MB").
    static QString bytes(qint64 bytes);
};

} // namespace outbox::desktop
