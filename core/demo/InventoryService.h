#pragma once

#include "core/broker/InboxMessage.h"
#include "core/consumer/HandlerResult.h"
#include "core/support/Result.h"

namespace outbox {
class Database;
}

namespace outbox::demo {

// The demo's inventory service (the article's example): consumes OrderCreated and reserves stock
// in its own tables (demo_inventory, demo_reservations), in the transaction the InboxConsumer
// opened for the inbox row. An order for a SKU the catalog does not know fails for good (a dead
// letter; add the SKU and replay it); now and then the first attempt fails transiently.
class InventoryService
{
public:
    static constexpr int CatalogSize = 40; // SKU-0 … SKU-39
    static QString defaultConsumerName() { return QStringLiteral("inventory"); }

    // Creates the demo tables and stocks the catalog, if not done yet.
    static Status prepare(Database& db);

    explicit InventoryService(int transientPercent) : m_transientPercent(transientPercent) {}
    HandlerResult handle(Database& db, const InboxMessage& message) const;
    // The same for a batch's new messages (InboxConsumer::BatchHandler): the orders checked first,
    // then one stock query, one UPDATE and the reservations in one insert (bound arrays on
    // PostgreSQL). The orders that cannot be reserved are named at once and left out
    // (BatchHandlerResult::doneExcept); the others are reserved.
    BatchHandlerResult handleBatch(Database& db, const QVector<const InboxMessage*>& messages) const;

private:
    int m_transientPercent;
};

} // namespace outbox::demo
