#include "ui/web/api/Api.h"

#include "ui/web/api/ApiInput.h"

namespace outbox::web {

Api::Api(DatabaseWorkerPool& pool, const LatestSnapshot& latest, PayloadMasker masker, int sampleIntervalMs)
    : m_context(pool, latest, std::move(masker), sampleIntervalMs)
{
}

void Api::handle(const ApiRoute& route, ApiCall call, ApiDone done)
{
    if (route.query == ApiRoute::Query::Checked) {
        for (const auto& item : call.query.queryItems(QUrl::FullyDecoded)) {
            if (route.parameters.contains(item.first))
                continue;
            return done(WebReply::error(
                400, route.parameters.isEmpty()
                         ? tr("%1 takes no parameters").arg(call.path)
                         : tr("unknown parameter \"%1\" (expected one of %2)")
                               .arg(item.first, route.parameters.join(QStringLiteral(", ")))));
        }
    }
    if (route.parameters.contains(QStringLiteral("after_id"))) {
        auto page = Page::fromQuery(call.query);
        if (!page)
            return done(WebReply::fromError(page.error()));
        call.page = *page;
    }
    route.handler(m_context, call, std::move(done));
}

} // namespace outbox::web
