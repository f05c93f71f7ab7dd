#include "core/ops/OperatorActions.h"

#include "core/ops/BulkActionEngine.h"

namespace outbox {

Result<ActionResult> OperatorActions::perform(ActionKind kind, const ActionRequest& request)
{
    BulkActionEngine engine(m_db);
    if (request.dryRun)
        return engine.preview(kind, request);
    ActionRequest counting = request; // the run takes its count from a preview, without a sample
    counting.sampleSize = 0;
    auto preview = engine.preview(kind, counting);
    if (!preview)
        return preview.error();
    return engine.run(kind, request, *preview);
}

} // namespace outbox
