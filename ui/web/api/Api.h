#pragma once

#include "ui/web/api/ApiContext.h"
#include "ui/web/api/ApiRoutes.h"

namespace outbox::web {

// What the server answers over HTTP: checks a call's query parameters against its route (found and
// admitted by ApiRoutes::resolve() and ApiRoutes::admit()) and hands the call to the route's controller.
class Api
{
public:
    Api(DatabaseWorkerPool& pool, const LatestSnapshot& latest, PayloadMasker masker, int sampleIntervalMs);

    // `route` is ApiRoutes::resolve(call)'s, `call.principal` ApiRoutes::admit()'s.
    void handle(const ApiRoute& route, ApiCall call, ApiDone done);

    ApiContext& context() { return m_context; }

private:
    ApiContext m_context;
};

} // namespace outbox::web
