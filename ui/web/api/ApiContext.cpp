#include "ui/web/api/ApiContext.h"

#include "ui/web/api/DatabaseWorkerPool.h"

namespace outbox::web {

ApiContext::ApiContext(DatabaseWorkerPool& pool_, const LatestSnapshot& latest_, PayloadMasker masker,
                       int sampleIntervalMs_)
    : pool(pool_), latest(latest_), sampleIntervalMs(sampleIntervalMs_), jobs(pool_.target()),
      m_viewerMasker(std::move(masker))
{
}

Status refuseMaskedSearch(const PayloadMasker& masker, bool searchesMaskedText)
{
    if (masker.isEmpty() || !searchesMaskedText)
        return {};
    return Error::usage(ApiContext::tr("the error, header and payload filters search text that is masked for "
                                       "viewers; an operator token may use them"));
}

Status refuseMaskedTraceSearch(const PayloadMasker& masker, bool searchesTraceId)
{
    if (!searchesTraceId || !masker.masksHeader(QStringLiteral("traceparent")))
        return {};
    return Error::usage(ApiContext::tr("the trace_id filter searches the traceparent header, which this "
                                       "configuration masks for viewers; an operator token may use it"));
}

PayloadMasker ApiContext::maskerFor(const Principal& principal) const
{
    return principal.seesUnmasked() ? PayloadMasker() : m_viewerMasker;
}

void ApiContext::submit(std::function<WebReply(Database&)> work, ApiDone done)
{
    pool.submit(std::move(work), this, std::move(done));
}

} // namespace outbox::web
