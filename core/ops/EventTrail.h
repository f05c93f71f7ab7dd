#pragma once

#include "core/db/OutboxEvent.h"
#include "core/support/Result.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonObject>
#include <QStringList>
#include <QVector>

namespace outbox {

class Database;

// One step in the life of an event.
struct TrailStep
{
    // A piece of the step's sentence: its English source, marked for core's catalogue (context
    // outbox::EventTrail), and its arguments (%1, %2, …, substituted in one pass: data that holds
    // "%1" stays as it is). The arguments listed in `terms` are words of the catalogue too (an error
    // class, "an unrecorded time"); the others are data (names, errors, reasons), never translated.
    struct Phrase
    {
        const char* source = "";
        QStringList args;
        QVector<int> terms;
    };

    QDateTime at;
    QString kind;    // created, attempts, held, last_error, sent, audit, inbox, dead_letter, replayed
    QString summary; // one line for people in English: the CLI and the API print it as is
    QJsonObject details;
    QVector<Phrase> phrases; // the summary's pieces, for text()

    // The summary in the user's language (the installed translators), for the desktop console.
    QString text() const;
    QJsonObject toJson() const;
};

// The life of one outbox event, in time order: created; its claims as far as the schema records
// them (attempt count, lease holder, last error; each attempt's time is not kept); the broker
// partition, offset and topic when sent; every audit-log action on it; the inbox row of each
// consumer; the dead letters consumers made of it and their replays (with the audit actions on
// them).
struct EventTrail
{
    OutboxEvent event;
    QVector<TrailStep> steps;

    static constexpr int MaxSteps = 1000; // audit, inbox and dead-letter rows read per kind at most

    QJsonObject toJson() const;
    // Builds the trail of the event with this numeric id or event_id, in one read transaction.
    static Result<EventTrail> build(Database& db, const QString& idOrEventId);
};

} // namespace outbox
