#pragma once

#include "core/db/DeadLetterGroups.h"
#include "core/db/DeadLetterStore.h"
#include "core/support/Result.h"

namespace outbox {

class Database;

// The dead letters of one group (consumer, error class, fingerprint), in the pages and the order
// of DeadLetterStore::list (newest first, keyset on the id): what a list shows when it is opened
// on a group (the desktop's Dead letters page from its Groups dialog). A letter belongs to the
// group as DeadLetterGroups::isMember decides it (as for DeadLetterGroups::ids).
class DeadLetterGroupLetters
{
public:
    explicit DeadLetterGroupLetters(Database& db) : m_db(db) {}

    // Up to `limit` letters of the group with an id below `beforeId` (0: from the newest);
    // nextAfterId is the cursor of the next page, 0 at the end.
    Result<DeadLetterPage> list(const DeadLetterGroup& group, qint64 beforeId, int limit);

private:
    Database& m_db;
};

} // namespace outbox
