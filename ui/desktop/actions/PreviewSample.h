#pragma once

#include <QCoreApplication>
#include <QJsonArray>
#include <QStringList>

class QJsonObject;
class QTableWidget;

namespace outbox::desktop {

// The sample of an action's preview as an operator reads it, the same in the action dialogs and
// in the Recovery flow: captions in the user's language, the columns that tell the rows apart
// (events: id, type, aggregate, error; dead letters: id, consumer, event id, error; relays: worker,
// host, state, desired state, heartbeat age; the wake-up trigger: table, trigger, on or off), each cell one
// line elided in the middle, the full text (bounded) on hover; payloads are never shown here. And what the
// action means for the ordering of the aggregates it unblocks (core's BlockedAggregates sentences).
class PreviewSample
{
    Q_DECLARE_TR_FUNCTIONS(outbox::desktop::PreviewSample)

public:
    enum class Kind { Events, DeadLetters, Relays, Trigger };
    static constexpr int MaxCellLength = 160; // cells are elided in the middle beyond this
    static constexpr int OrderingShown = 8;   // ordering sentences listed; the rest are counted

    // One line, elided in the middle: the start and the end of an error say the most.
    static QString cell(const QString& text);
    static QStringList captions(Kind kind);
    static QStringList cells(Kind kind, const QJsonObject& row);
    // Sets `table`'s columns and one row per element of `sample`.
    static void fill(QTableWidget* table, Kind kind, const QJsonArray& sample);
    // "Ordering:" and one line per consequence (at most OrderingShown); empty without any.
    static QString ordering(const QStringList& consequences);
};

} // namespace outbox::desktop
