#include "app/outboxctl/commands/Dlq.h"

namespace outbox::cli {

Subcommand dlqDiscard()
{
    return {QStringLiteral("discard"), {}, [](Context& ctx) {
                return runDlqAction(ctx, ActionKind::DiscardDeadLetters);
            }};
}

} // namespace outbox::cli
