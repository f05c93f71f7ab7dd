#include "core/ops/OperatorActions.h"

#include "core/ops/BulkActionEngine.h"

namespace outbox {

Result<ActionResult> OperatorActions::perform(ActionKind kind, const ActionRequest& request)
{
    BulkActionEngine engine(m_db);
    if (request.dryRun)
        return engine.preview(kind, request);
    auto preview = engine.previewForRun(kind, request);
    if (!preview)
        return preview.error();
    return engine.run(kind, request, *preview);
}

} // namespace outbox
