#pragma once

#include "core/consumer/ReconcileOptions.h"
#include "core/consumer/ReconcileResult.h"
#include "core/support/Result.h"

namespace outbox {

class Database;

// Finds events the broker acknowledged long enough ago that a consumer should have processed
// them, but whose inbox has no PROCESSED row. Walks the SENT events in keyset chunks over the
// outbox id (never one long query, never everything in memory): with the inbox in the same
// database each chunk is an anti-join; with a separate inbox database each chunk's event_ids are
// looked up there with one bounded IN list.
class Reconciler
{
public:
    // `inbox` null: the inbox table is in the outbox database.
    explicit Reconciler(Database& outbox, Database* inbox = nullptr) : m_outbox(outbox), m_inbox(inbox) {}

    Result<ReconcileResult> run(const ReconcileOptions& options);

private:
    Database& m_outbox;
    Database* m_inbox;
};

} // namespace outbox
