#pragma once

#include "app/outboxctl/Cli.h"
#include "core/ops/BulkActionEngine.h"

#include <functional>

namespace outbox::cli {

// The sub-commands of `outboxctl dlq`; their options come besides the filter and action options
// every dlq sub-command shares (Dlq.cpp).
Subcommand dlqList();      // DlqList.cpp
Subcommand dlqShow();      // DlqShow.cpp
Subcommand dlqGroups();    // DlqGroups.cpp
Subcommand dlqEdit();      // DlqEdit.cpp
Subcommand dlqEditGroup(); // DlqEditGroup.cpp
Subcommand dlqReplay();    // DlqReplay.cpp
Subcommand dlqDiscard();   // DlqDiscard.cpp

// dlq replay and dlq discard: the request from the ids, the dead-letter filter or a dead-letter
// group, run through the bulk engine (BulkAction.h).
int runDlqAction(Context& ctx, ActionKind kind, const std::function<int(const ActionResult&)>& then = {});

} // namespace outbox::cli
