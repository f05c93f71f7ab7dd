#pragma once

#include "ui/web/api/ApiCall.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>
#include <variant>

namespace outbox::web {

class ApiContext;

// Who may use a route.
enum class Access {
    Anyone,    // pages, their files and the runbooks: no data in them, no token
    Dashboard, // read-only numbers (/metrics): a token, or none when [web] public_dashboard is on
    WebSocket, // the dashboard's WebSocket: the page's Origin is checked, the token comes in the first
               // message
    Viewer,    // any token
    Operator   // changes: an operator's token
};

// One path the server answers: the only place a path is matched, for the JSON API and for the
// pages, files, /metrics, /ws and the runbooks alike. Declared in ApiRoutes.cpp, in one table, as
// qBittorrent's web UI declares its API; docs/api.md is generated from the same table
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
    Access access;
    QString summary;
    QStringList parameters; // the query parameters it takes
    Query query;
    void (*handler)(ApiContext& api, const ApiCall& call, ApiDone done); // of a controller (Controllers.h)
    Scope scope = Scope::Database;
    bool oidcOnly = false; // served only when [oidc] is configured (else as if it were not in the table)
};

namespace ApiRoutes {

// Every route, /api/v1 first, in the order of the reference.
const QList<ApiRoute>& all();

// The route for `call.method` and `call.path` with the path's parameters in `call->args`, or the
// answer when there is none: 404 when no route has the path, 405 (with Allow) when the path is
// served for other methods (HEAD included: every answer has a body). A literal path wins over a
// pattern (/events/blocked over /events/{id}).
// /api/v1/members/{name}/REST is the route of /api/v1/REST for the member `name` (call->member,
// call->path becomes /api/v1/REST); only Database routes are served there. Without `oidc` (serve
// has no [oidc]), the routes marked oidcOnly are not served: POST / is a 405 as before.
std::variant<const ApiRoute*, WebReply> resolve(ApiCall& call, bool oidc);

// Who the request is for `route`, from its token (`token`: the principal of a valid token, if any):
// an anonymous principal where the route needs no token, else the token's; or the refusal: 401
// (with WWW-Authenticate) without a valid token, 403 for a viewer's token on an operator's route.
std::variant<Principal, WebReply> admit(const ApiRoute& route, const std::optional<Principal>& token,
                                        bool publicDashboard);

// The reference of the API as Markdown: docs/api.md.
QString reference();

} // namespace ApiRoutes

} // namespace outbox::web
