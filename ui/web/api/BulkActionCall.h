#pragma once

#include "core/ops/BulkActionEngine.h"
#include "core/support/PayloadMasker.h"
#include "ui/web/api/ApiCall.h"

#include <functional>
#include <optional>

namespace outbox::web {

class ApiContext;

// The body every bulk action of the API takes (POST /api/v1/events/requeue, …/dead,
// /api/v1/dead-letters/replay, …/discard): ids, a group or a filter, reason, dry_run, force and
// the action's own fields, checked by core (BulkActionEngine::validate). A dry run answers with
// core's preview (its count, sample, verb and confirmation phrase); a run previews once on the pool
// and runs with that preview there, or as a job when core says it takes more than one chunk (202
// with its Location).
void runBulkAction(ApiContext& api, const ApiCall& call, ActionKind kind, ApiDone done);
// runBulkAction() for one action, as a handler of the route table.
template <ActionKind Kind> void bulkAction(ApiContext& api, const ApiCall& call, ApiDone done)
{
    runBulkAction(api, call, Kind, std::move(done));
}
// Starts `request` (validated) as a job that runs with its `preview`: 202 with the job and its
// Location, or 429 when ActionJobs::MaxRunning jobs are running already.
void startBulkJob(ApiContext& api, ActionKind kind, const ActionRequest& request, const ActionResult& preview,
                  const ApiDone& done, const PayloadMasker& masker = PayloadMasker());
// A run: `preview` on the pool, then `run` there with that preview, unless the preview says the run
// takes more than one chunk (ActionResult::runsAsJob) and `jobKind` names the bulk action it is:
// then a job runs `request` of that kind with the preview (startBulkJob).
void previewThenRun(ApiContext& api, const std::function<Result<ActionResult>(Database&)>& preview,
                    const std::function<Result<ActionResult>(Database&, const ActionResult&)>& run,
                    std::optional<ActionKind> jobKind, const ActionRequest& request,
                    const PayloadMasker& masker, ApiDone done);
// An action's answer (a result, a preview, a job) as `masker` lets its requester see it: the sample
// rows, the before/after states, a job's target. A viewer's token that acts on a member
// (operator=MEMBER) sees that member's data masked there too (docs/operator-guide.md).
QJsonObject maskActionReply(const PayloadMasker& masker, QJsonObject reply);
// A group as the requester named it, from a listing masked by `masker`: its members are those whose
// masked fingerprint is the one named (masking may have merged groups into one).
template <typename Group> void matchAsSeen(Group& group, const PayloadMasker& masker)
{
    if (!masker.isEmpty())
        group.fingerprintSeenAs = [masker](const QString& fingerprint) {
            return masker.maskText(fingerprint);
        };
}

} // namespace outbox::web
