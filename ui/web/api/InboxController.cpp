// /api/v1/inbox: the consumer side's inbox rows (what each consumer has processed).
#include "core/db/InboxStore.h"
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/Controllers.h"

namespace outbox::web {

void InboxController::list(ApiContext& api, const ApiCall& call, ApiDone done)
{
    InboxFilter filter;
    filter.consumerName = queryValue(call.query, QStringLiteral("consumer"));
    filter.status = queryValue(call.query, QStringLiteral("status")).toUpper();
    filter.eventId = queryValue(call.query, QStringLiteral("event_id"));
    if (Status s = filter.validate(); !s)
        return done(WebReply::fromError(s.error()));
    api.queryPage(
        QStringLiteral("inbox"),
        [filter, page = call.page](Database& db) {
            return InboxStore(db).list(filter, page.afterId, page.limit);
        },
        &InboxPage::records, call.principal, std::move(done));
}

} // namespace outbox::web
