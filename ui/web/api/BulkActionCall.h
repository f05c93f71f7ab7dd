#pragma once

#include "core/ops/BulkActionEngine.h"
#include "ui/web/api/ApiCall.h"

namespace outbox::web {

class ApiContext;

// The body every bulk action of the API takes (POST /api/v1/events/requeue, …/dead,
// /api/v1/dead-letters/replay, …/discard): ids, a group or a filter, reason, dry_run, force and
// the action's own fields, checked by core (BulkActionEngine::validate). A dry run and a small id
// list answer at once; more than one chunk runs as a job (202 with its Location).
void runBulkAction(ApiContext& api, const ApiCall& call, ActionKind kind, ApiDone done);
// Starts `request` (validated, counted) as a job: 202 with the job and its Location, or 429 when
// ActionJobs::MaxRunning jobs are running already.
void startBulkJob(ApiContext& api, ActionKind kind, const ActionRequest& request, const ApiDone& done);

} // namespace outbox::web
