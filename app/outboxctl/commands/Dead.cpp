#include "app/outboxctl/BulkAction.h"
#include "app/outboxctl/commands/Commands.h"

namespace outbox::cli {

Command deadCommand()
{
    return {QStringLiteral("dead"),
            QStringLiteral("Mark PENDING or FAILED events DEAD."),
            QStringLiteral("[IDS...]"),
            eventActionOptions(),
            [](Context& ctx) { return runEventAction(ctx, ActionKind::MarkDead); },
            {}};
}

} // namespace outbox::cli
