#pragma once

#include "core/db/DatabaseTarget.h"

#include <QString>

namespace outbox::desktop {

class DatabaseSession;

// What every page needs from the open connection: sessions to read, act and analyse on, and who
// the operator is. Null sessions mean "not connected".
struct ConsoleContext
{
    // A relay whose heartbeat is older counts as stale on every page.
    static constexpr qint64 StaleHeartbeatMs = 30000;

    DatabaseSession* browse = nullptr;
    DatabaseSession* actions = nullptr;
    DatabaseSession* analysis =
        nullptr; // slow on-demand reads (failure groups) that must not hold up browsing
    QString actor;
    bool production = false;
    DatabaseTarget target; // the connection's database, for the doctor and the children the console starts
};

} // namespace outbox::desktop
