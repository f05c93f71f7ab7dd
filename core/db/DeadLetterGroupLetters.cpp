#include "core/db/DeadLetterGroupLetters.h"

#include "core/db/EventStatus.h"

namespace outbox {

Result<DeadLetterPage> DeadLetterGroupLetters::list(const DeadLetterGroup& group, qint64 beforeId, int limit)
{
    if (limit <= 0 || limit > 10000)
        return Error::usage(QStringLiteral("page size must be between 1 and 10000"));
    // The consumer's letters in the group's statuses, page by page, keeping the group's.
    DeadLetterFilter filter;
    filter.statuses = group.statuses.isEmpty() ? QStringList{DeadLetterStatus::New} : group.statuses;
    filter.consumerName = group.consumerName;
    constexpr int Scan = 500;
    DeadLetterStore store(m_db);
    DeadLetterPage page;
    qint64 cursor = beforeId;
    while (true) {
        auto scanned = store.list(filter, cursor, Scan);
        if (!scanned)
            return scanned.error();
        for (const DeadLetter& letter : std::as_const(scanned->letters)) {
            if (!DeadLetterGroups::isMember(group, letter.error))
                continue;
            page.letters << letter;
            if (page.letters.size() == limit) {
                page.nextAfterId = letter.id;
                return page;
            }
        }
        if (scanned->nextAfterId == 0)
            return page;
        cursor = scanned->nextAfterId;
    }
}

} // namespace outbox
