#pragma once

#include "core/ops/BulkActionEngine.h"
#include "core/support/PayloadMasker.h"
#include "ui/web/api/ApiCall.h"

namespace outbox::web {

class ApiContext;

// The body every bulk action of the API takes (POST /api/v1/events/requeue, …/dead,
// /api/v1/dead-letters/replay, …/discard): ids, a group or a filter, reason, dry_run, force and
// the action's own fields, checked by core (BulkActionEngine::validate). A dry run and a small id
// list answer at once; more than one chunk runs as a job (202 with its Location).
void runBulkAction(ApiContext& api, const ApiCall& call, ActionKind kind, ApiDone done);
// runBulkAction() for one action, as a handler of the route table.
template <ActionKind Kind> void bulkAction(ApiContext& api, const ApiCall& call, ApiDone done)
{
    runBulkAction(api, call, Kind, std::move(done));
}
// Starts `request` (validated, counted) as a job: 202 with the job and its Location, or 429 when
// ActionJobs::MaxRunning jobs are running already.
void startBulkJob(ApiContext& api, ActionKind kind, const ActionRequest& request, const ApiDone& done,
                  const PayloadMasker& masker = PayloadMasker());
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
