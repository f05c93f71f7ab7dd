#pragma once

#include "ui/web/api/ApiContext.h"

namespace outbox::web {

// The JSON API under /api/v1: finds the route of a call (ApiRoutes), checks the token's role and
// the query's parameters against it, and hands the call to the route's controller.
class Api
{
public:
    Api(DatabaseWorkerPool& pool, const LatestSnapshot& latest, PayloadMasker masker, int sampleIntervalMs);

    // `call.principal` is already authenticated.
    void handle(ApiCall call, ApiDone done);

    ApiContext& context() { return m_context; }

private:
    ApiContext m_context;
};

} // namespace outbox::web
