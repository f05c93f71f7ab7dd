#pragma once

#include "core/ops/OperatorActions.h"

#include <functional>

namespace outbox {

// Where a running bulk action stands; handed to BulkControl::progress after every chunk.
struct BulkProgress
{
    QString action;
    qint64 expected = 0;  // rows eligible when the run started (may grow: new rows can join a filter)
    qint64 processed = 0; // rows targeted so far: affected + conflicts
    qint64 affected = 0;
    qint64 conflicts = 0;
    int chunks = 0;
    qint64 lastId = 0; // keyset cursor after the last committed chunk
};

// How a caller follows and stops a run. Both callbacks are optional and are called on the thread
// that runs the engine (a front end posts to its own thread from there).
struct BulkControl
{
    // After each committed chunk.
    std::function<void(const BulkProgress&)> progress;
    // Polled before each chunk; true stops the run there. Chunks already committed stay
    // committed (each has its own audit row); the rows after the cursor are left untouched.
    std::function<bool()> cancelRequested;
};

// The one bulk-action engine behind the console, `outboxctl` and the web API (and anything else
// that changes events or dead letters on an operator's behalf).
//
// Target: ids (at most MaxIds), a failure group (event actions) or a filter. The engine walks the
// target in keyset order (ascending id) in chunks of at most ActionRequest::chunkSize rows
// (MaxChunkSize = 1,000 at most). A chunk is selected with a short read, then changed in its own
// write transaction that locks its rows, re-checks that each is still in a state the action
// accepts, updates the eligible ones and appends one audit row (with the run id and chunk number
// in its filter) — the change and its audit row commit together. A row that was eligible when
// its chunk was selected but is not any more when it is locked (a relay or another operator got
// there first) is a conflict: counted, never changed. For ids, a row in another state or missing
// is a conflict as well. Filter and group rows that match but are not eligible at the start are
// reported as `skipped`.
//
// Between chunks the engine reports progress and polls for cancel. Memory stays bounded by one
// chunk whatever the size of the target. A run that finds nothing eligible still writes one audit
// row (outcome "none") so that the attempt is on record.
//
// Usage (on a thread that owns `db`):
//   BulkActionEngine engine(db);
//   auto preview = engine.preview(ActionKind::Requeue, request);  // count, sample, verb, phrase
//   auto result = engine.run(ActionKind::Requeue, request, *preview, control); // chunked, audited
//
// Failpoints (core/support/Failpoints.h) for tests: "ops.bulk.before_chunk_lock" between a chunk's
// selection and its transaction, "ops.bulk.between_chunks" after a chunk's progress report and
// before the cancel check, "ops.before_audit_commit" inside a chunk's transaction.
class BulkActionEngine
{
public:
    static constexpr int MaxChunkSize = 1000;
    static constexpr int MaxIds = 10000;
    static constexpr int MaxReasonLength = 2000;

    explicit BulkActionEngine(Database& db) : m_db(db) {}

    // Checks a request without touching the database. On failure `input` (when given) names the
    // part of the request at fault. The message names the problem, never a front end's flag.
    static Status validate(ActionKind kind, const ActionRequest& request, ActionInput* input = nullptr);

    // A dry run: `expected` and `matched` = rows eligible now, `skipped` (group/filter) or
    // `conflicts` (ids), `before` by status and a sample of up to request.sampleSize rows; the
    // verb, the confirmation phrase (ActionConfirmation) and whether the run takes more than one
    // chunk (`runsAsJob`), for every front end to show as they are.
    // Reads only (filter previews in one read transaction). request.dryRun is ignored.
    Result<ActionResult> preview(ActionKind kind, const ActionRequest& request);
    // preview() without a sample: what a run takes when no operator saw a preview of its own (a
    // confirmed `outboxctl` action, an API run, OperatorActions): its count, skipped rows, verb and
    // phrase.
    Result<ActionResult> previewForRun(ActionKind kind, const ActionRequest& request);

    // Changes the target in audited chunks (request.dryRun is ignored). `previewed` is the preview
    // of this request that the operator saw and confirmed: its count (the progress total,
    // `expected`) and skipped rows are taken as they are, never counted again; a preview of another
    // action is a usage error. An error stops the run; the chunks committed before it stay committed
    // and are listed in the audit log. The result is returned when the target is exhausted or the
    // run was cancelled.
    Result<ActionResult> run(ActionKind kind, const ActionRequest& request, const ActionResult& previewed,
                             const BulkControl& control = {});

private:
    Database& m_db;
};

} // namespace outbox
