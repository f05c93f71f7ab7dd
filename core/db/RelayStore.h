#pragma once

#include "core/db/RelayRecord.h"
#include "core/support/Result.h"

#include <QVector>

namespace outbox {

class Database;

// Reads the relay registry (outbox_relays); relays write their own rows through RelayRegistry.
class RelayStore
{
public:
    explicit RelayStore(Database& db) : m_db(db) {}
    Result<QVector<RelayRecord>> list();
    // Registers the relay or refreshes its heartbeat and counters; returns its desired_state.
    Result<QString> heartbeat(const RelayRecord& relay);
    // Deregisters a relay that stopped cleanly.
    Status remove(const QString& workerId);

private:
    Database& m_db;
};

} // namespace outbox
