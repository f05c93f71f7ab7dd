#pragma once

#include "app/outboxctl/Cli.h"
#include "core/db/DeadLetterStore.h"
#include "core/db/EventStore.h"

namespace outbox::cli {

// The filter options of the listing and action commands, written once.

// --status, --type, --aggregate, … of `events list`, `requeue` and `dead`.
QList<QCommandLineOption> eventFilterOptions();
Result<EventFilter> eventFilterFromOptions(const QCommandLineParser& p);

// --status, --consumer, --topic, --event-id and --error of `dlq list`, `dlq replay` and `dlq discard`.
QList<QCommandLineOption> deadLetterFilterOptions();
Result<DeadLetterFilter> deadLetterFilterFromOptions(const QCommandLineParser& p);

} // namespace outbox::cli
