#pragma once

#include "app/outboxctl/Cli.h"
#include "core/ops/BulkActionEngine.h"

#include <functional>

namespace outbox::cli {

// What requeue, dead, dlq replay and dlq discard share: the audited bulk engine of core behind a
// dry run, a confirmation, a progress bar and Ctrl-C between chunks.

// Exit code of a bulk action stopped by Ctrl-C (128 + SIGINT, as shells report it).
constexpr int CancelledExit = 130;

// --reason and --dry-run.
QList<QCommandLineOption> actionOptions();
// The common part of a request: the positional ids, --reason, the actor and --dry-run.
Result<ActionRequest> baseRequest(Context& ctx);
// Whether any of `options` is set.
bool anySet(const QCommandLineParser& p, const QList<QCommandLineOption>& options);
// Core's preview first (a dry run prints it), the confirmation it asks for (on a terminal, unless
// --yes), then the bulk engine with that preview in audited chunks with progress and Ctrl-C
// between chunks; `then` runs after a successful (non-dry, not cancelled) action.
int runAction(Context& ctx, ActionRequest request, ActionKind kind, const QString& noun,
              const std::function<int(const ActionResult&)>& then = {});

// requeue and dead: the event filter, --group and --group-class besides actionOptions().
QList<QCommandLineOption> eventActionOptions();
// requeue and dead: the request from the ids, the event filter or a failure group.
int runEventAction(Context& ctx, ActionKind kind);

} // namespace outbox::cli
