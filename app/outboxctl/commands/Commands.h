#pragma once

#include "app/outboxctl/Cli.h"

namespace outbox::cli {

// The commands of outboxctl, one file each in this folder (KeePassXC's src/cli shape): a file
// holds what the command does and, in its xCommand() at the end, its usage (summary, syntax,
// options), from which --help and the man page are made. To add a command: a new file here with
// its xCommand(), declared below and listed in allCommands() (Commands.cpp).

Command migrateCommand();   // Migrate.cpp
Command statusCommand();    // Status.cpp
Command eventsCommand();    // Events.cpp
Command traceCommand();     // Trace.cpp
Command requeueCommand();   // Requeue.cpp
Command deadCommand();      // Dead.cpp
Command dlqCommand();       // Dlq.cpp and its sub-commands Dlq*.cpp
Command auditCommand();     // Audit.cpp
Command relayCommand();     // Relay.cpp
Command kafkaCommand();     // Kafka.cpp
Command demoCommand();      // Demo.cpp
Command serveCommand();     // Serve.cpp
Command consumeCommand();   // Consume.cpp
Command reconcileCommand(); // Reconcile.cpp
Command consumersCommand(); // Consumers.cpp
Command inboxCommand();     // Inbox.cpp
Command configCommand();    // Config.cpp
Command doctorCommand();    // Doctor.cpp
Command relaysCommand();    // Relays.cpp
Command notifyCommand();    // Notify.cpp

// Every command, in the order of `outboxctl --help`.
QList<Command> allCommands();

} // namespace outbox::cli
