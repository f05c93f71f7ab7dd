#pragma once

#include "ui/web/api/ApiCall.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <variant>

namespace outbox::web {

class ApiContext;

// One entry of the API: the only place a path is matched. Declared in ApiRoutes.cpp, in one
// table, as qBittorrent's web UI declares its API; docs/api.md is generated from the same table
// (`outboxctl serve --api-reference`) and a test fails when the two drift apart.
struct ApiRoute
{
    // How the route treats query parameters it does not name.
    enum class Query {
        Checked, // any other parameter is a 400 naming the ones it takes
        Ignored  // parameters are not read
    };
    // What the route reads or changes.
    enum class Scope {
        Database, // one database: also served for each fleet member at /api/v1/members/{name}/…
        Server    // the server itself (the token, the fleet): only at its own path
    };

    QByteArray method; // GET, POST, PATCH or DELETE
    // The path; a {name} segment is a parameter (any segment), {name:regex} one that matches regex.
    QString pattern;
    Role role; // Viewer: any token; Operator: changes, an operator's token
    QString summary;
    QStringList parameters; // the query parameters it takes
    Query query;
    void (*handler)(ApiContext& api, const ApiCall& call, ApiDone done); // of a controller (Controllers.h)
    Scope scope = Scope::Database;
};

namespace ApiRoutes {

// Every route of /api/v1, in the order of the reference.
const QList<ApiRoute>& all();

// The route for `call.method` and `call.path` with the path's parameters in `call->args`, or the
// answer when there is none: 404 when no route has the path, 405 (with Allow) when the path is
// served for other methods. A literal path wins over a pattern (/events/blocked over /events/{id}).
// /api/v1/members/{name}/REST is the route of /api/v1/REST for the member `name` (call->member,
// call->path becomes /api/v1/REST); only Database routes are served there.
std::variant<const ApiRoute*, WebReply> resolve(ApiCall& call);

// The reference of the API as Markdown: docs/api.md.
QString reference();

} // namespace ApiRoutes

} // namespace outbox::web
