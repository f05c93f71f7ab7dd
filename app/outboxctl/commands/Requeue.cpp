#include "app/outboxctl/BulkAction.h"
#include "app/outboxctl/commands/Commands.h"

namespace outbox::cli {

Command requeueCommand()
{
    QList<QCommandLineOption> options = eventActionOptions();
    options << QCommandLineOption(QStringLiteral("force"),
                                  QStringLiteral("Also take SENDING events whose lease is still live."))
            << QCommandLineOption(QStringLiteral("resend"),
                                  QStringLiteral("Also requeue SENT events (they are sent again)."));
    return {QStringLiteral("requeue"),
            QStringLiteral("Put FAILED/DEAD (or stuck SENDING) events back to PENDING."),
            QStringLiteral("[IDS...]"),
            options,
            [](Context& ctx) { return runEventAction(ctx, ActionKind::Requeue); },
            {}};
}

} // namespace outbox::cli
