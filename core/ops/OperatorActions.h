#pragma once

#include "core/db/DeadLetterFilter.h"
#include "core/db/EventFilter.h"
#include "core/support/Result.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QVector>
#include <optional>

namespace outbox {

class Database;

// What an operator asks for: targets by ids or by a filter, never both.
struct ActionRequest
{
    QVector<qint64> ids;
    std::optional<EventFilter> eventFilter;           // event actions
    std::optional<DeadLetterFilter> deadLetterFilter; // dead-letter actions
    QString reason;                                   // required unless dryRun
    QString actor;
    bool dryRun = false;
    bool force = false;  // requeue: also SENDING rows with a live lease; replay: also REPLAYED/DISCARDED
    bool resend = false; // requeue: also SENT rows
    QString replayTopic; // replay: produce to this topic instead of the original
    int sampleSize = 10;
};

// A requested row that the action did not change, and why.
struct ActionConflict
{
    qint64 id = 0;
    QString status; // empty when the row does not exist
    QString reason;
};

struct ActionResult
{
    QString action;
    bool dryRun = false;
    qint64 matched = 0;                // rows eligible for the change
    qint64 affected = 0;               // rows changed (0 on a dry run)
    QVector<ActionConflict> conflicts; // by-id requests: rows not changed
    QMap<QString, qint64> skipped; // filter requests: rows matching the filter but not eligible, by status
    QJsonArray sample;             // up to sampleSize eligible rows as JSON
    QJsonObject before;            // status -> count of the targeted rows before
    QJsonObject after;             // status -> count after
    qint64 auditId = 0;
    QString replayToken;

    QJsonObject toJson() const;
};

// Operator actions shared by the console, the CLI and the web API. Each runs in one
// transaction with its audit row, changes only rows in the expected state, and has a dry run.
class OperatorActions
{
public:
    explicit OperatorActions(Database& db) : m_db(db) {}

    Result<ActionResult> requeue(const ActionRequest& request);
    Result<ActionResult> markDead(const ActionRequest& request);
    Result<ActionResult> discardDeadLetters(const ActionRequest& request);
    // Records the intent: NEW -> REPLAYING with a token; the relay delivers and marks REPLAYED.
    Result<ActionResult> replayDeadLetters(const ActionRequest& request);

private:
    struct Spec
    {
        QString action;
        QString table;
        QString targetKind;
        QString eligible; // SQL condition on the row's current state
        QString set;      // SQL SET clause
        QVariantMap setBinds;
        QString toState;
        QString sampleColumns;
        QString conflictHint; // what states the action accepts, for conflict messages
    };

    Result<ActionResult> run(const Spec& spec, const ActionRequest& request, const SqlCondition& filter);
    Status validate(const ActionRequest& request, bool hasFilter) const;

    Database& m_db;
};

} // namespace outbox
