#pragma once

#include "app/outboxctl/Cli.h"
#include "core/ops/BulkActionEngine.h"

#include <functional>

namespace outbox::cli {

// One sub-command of `outboxctl dlq`: its word, its own options (besides the filter and action
// options every dlq sub-command shares, see Dlq.cpp) and what runs.
struct DlqSubcommand
{
    QString name;
    QList<QCommandLineOption> options;
    std::function<int(Context&)> run;
};

DlqSubcommand dlqList();      // DlqList.cpp
DlqSubcommand dlqShow();      // DlqShow.cpp
DlqSubcommand dlqGroups();    // DlqGroups.cpp
DlqSubcommand dlqEdit();      // DlqEdit.cpp
DlqSubcommand dlqEditGroup(); // DlqEditGroup.cpp
DlqSubcommand dlqReplay();    // DlqReplay.cpp
DlqSubcommand dlqDiscard();   // DlqDiscard.cpp

// dlq replay and dlq discard: the request from the ids, the dead-letter filter or a dead-letter
// group, run through the bulk engine (BulkAction.h).
int runDlqAction(Context& ctx, ActionKind kind, const std::function<int(const ActionResult&)>& then = {});

} // namespace outbox::cli
