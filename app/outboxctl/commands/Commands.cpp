#include "app/outboxctl/commands/Commands.h"

namespace outbox::cli {

QList<Command> allCommands()
{
    return {migrateCommand(), statusCommand(), eventsCommand(),  traceCommand(),     requeueCommand(),
            deadCommand(),    dlqCommand(),    auditCommand(),   relayCommand(),     kafkaCommand(),
            demoCommand(),    serveCommand(),  consumeCommand(), reconcileCommand(), consumersCommand(),
            inboxCommand(),   configCommand(), doctorCommand(),  relaysCommand(),    notifyCommand()};
}

} // namespace outbox::cli
