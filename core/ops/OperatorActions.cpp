#include "core/ops/OperatorActions.h"

#include "core/ops/BulkActionEngine.h"

namespace outbox {

Result<ActionResult> OperatorActions::perform(ActionKind kind, const ActionRequest& request)
{
    BulkActionEngine engine(m_db);
    return request.dryRun ? engine.preview(kind, request) : engine.run(kind, request);
}

} // namespace outbox
