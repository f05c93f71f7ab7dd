#pragma once

#include "core/db/BlockedAggregates.h"
#include "core/db/DeadLetterFilter.h"
#include "core/db/DeadLetterGroups.h"
#include "core/db/EventFilter.h"
#include "core/db/FailureGroups.h"
#include "core/ops/ActionTarget.h"
#include "core/support/Result.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QVector>
#include <optional>

namespace outbox {

class Database;

// The four operator actions. Event actions take ids, a failure group or an event filter;
// dead-letter actions take ids, a dead-letter failure group or a dead-letter filter.
enum class ActionKind { Requeue, MarkDead, ReplayDeadLetters, DiscardDeadLetters };

// "events.requeue", "events.dead", "dlq.replay", "dlq.discard": the audit log's action names.
QString actionName(ActionKind kind);
bool isEventAction(ActionKind kind);

// What an operator asks for: exactly one target (ids, a failure group or a filter).
struct ActionRequest : ActionTarget
{
    QString reason; // required unless dryRun
    QString actor;
    bool dryRun = false;
    bool force = false;   // requeue: also SENDING rows with a live lease; replay: also REPLAYED/DISCARDED
    bool resend = false;  // requeue: also SENT rows
    QString replayTopic;  // replay: produce to this topic instead of the original
    int sampleSize = 10;  // dry run: eligible rows returned as a sample (0..1000)
    int chunkSize = 1000; // rows per audited transaction (1..BulkActionEngine::MaxChunkSize)
    // The preview asks for a typed confirmation even for one row (a production connection, a
    // doctor's action that asks for it); see core/ops/ActionConfirmation.h.
    bool confirmAlways = false;
};

// The part of a request a validation error is about, so that each front end can name its own
// flag or field ("--reason", the JSON "reason", the dialog's Reason box) next to core's sentence.
enum class ActionInput { Targets, Ids, Filter, Group, Reason, Actor, SampleSize, ChunkSize, ReplayTopic };

// A targeted row that the action did not change, and why: by-id requests name rows in another
// state (or missing); group and filter runs name rows whose state changed between the moment
// their chunk was selected and the moment it was locked.
struct ActionConflict
{
    qint64 id = 0;
    QString status; // empty when the row does not exist
    QString reason;
};

struct ActionResult
{
    static constexpr int MaxConflictDetails = 1000;

    QString action;
    bool dryRun = false;
    qint64 expected = 0;               // rows eligible when the action started (the preview's count)
    qint64 matched = 0;                // rows eligible for the change (a run: when their chunk was locked)
    qint64 affected = 0;               // rows changed (0 on a dry run)
    qint64 conflictCount = 0;          // targeted rows not changed (see ActionConflict)
    QVector<ActionConflict> conflicts; // the first MaxConflictDetails of them
    QMap<QString, qint64> skipped;     // group/filter: rows that match but are not eligible, by status
    QJsonArray sample;                 // dry run: up to sampleSize eligible rows as JSON
    QJsonObject before;                // status -> count of the changed rows before
    QJsonObject after;                 // status -> count after
    int chunks = 0;                    // committed chunks (each one transaction and one audit row)
    QVector<qint64> auditIds;          // one per chunk, in order
    qint64 auditId = 0;                // the first of auditIds
    qint64 lastId = 0;                 // keyset cursor: the highest id a committed chunk covered
    bool cancelled = false;            // stopped between chunks on request; the rest is untouched
    QString replayToken;
    // A preview's decisions, which every front end shows as it is given: the action's verb, the
    // phrase the operator types to confirm (empty: none needed; core/ops/ActionConfirmation.h) and
    // whether the run takes more than one chunk (a job with progress and cancel).
    QString verb;
    QString confirmation;
    bool runsAsJob = false;
    // Event actions, previews: the targeted events that have later PENDING events in their
    // aggregate (in ordering mode those wait for them), at most MaxOrderingIds targets looked at,
    // and one sentence for each ("3 later events of Order/O-42 will be sent after it").
    static constexpr int MaxOrderingIds = 1000;
    QVector<OrderingConsequence> ordering;
    QStringList consequences;

    qint64 processed() const { return matched + conflictCount; }
    QJsonObject toJson() const;
};

// The named entry points of the operator actions, for callers that need neither progress nor
// cancel. They go through BulkActionEngine (core/ops/BulkActionEngine.h): a dry run is its
// preview(), anything else its run() in audited chunks.
class OperatorActions
{
public:
    explicit OperatorActions(Database& db) : m_db(db) {}

    Result<ActionResult> perform(ActionKind kind, const ActionRequest& request);
    Result<ActionResult> requeue(const ActionRequest& request)
    {
        return perform(ActionKind::Requeue, request);
    }
    Result<ActionResult> markDead(const ActionRequest& request)
    {
        return perform(ActionKind::MarkDead, request);
    }
    Result<ActionResult> discardDeadLetters(const ActionRequest& request)
    {
        return perform(ActionKind::DiscardDeadLetters, request);
    }
    // Records the intent: NEW -> REPLAYING with a token; the relay delivers and marks REPLAYED.
    Result<ActionResult> replayDeadLetters(const ActionRequest& request)
    {
        return perform(ActionKind::ReplayDeadLetters, request);
    }

private:
    Database& m_db;
};

} // namespace outbox
