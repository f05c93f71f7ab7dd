#pragma once

#include <QString>

namespace outbox::desktop {

class DatabaseSession;

// What every page needs from the open connection: a session to read on, one to act on, and who
// the operator is. Null sessions mean "not connected".
struct ConsoleContext
{
    DatabaseSession* browse = nullptr;
    DatabaseSession* actions = nullptr;
    QString actor;
    bool production = false;
};

} // namespace outbox::desktop
