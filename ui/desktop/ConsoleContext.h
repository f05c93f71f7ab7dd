#pragma once

#include <QString>

namespace outbox::desktop {

class DatabaseSession;

// What every page needs from the open connection: sessions to read, act and analyse on, and who
// the operator is. Null sessions mean "not connected".
struct ConsoleContext
{
    DatabaseSession* browse = nullptr;
    DatabaseSession* actions = nullptr;
    DatabaseSession* analysis =
        nullptr; // slow on-demand reads (failure groups) that must not hold up browsing
    QString actor;
    bool production = false;
    QString tablePrefix; // of the connection's outbox tables, for the children the console starts
};

} // namespace outbox::desktop
