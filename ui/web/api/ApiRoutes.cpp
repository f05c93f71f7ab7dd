#include "ui/web/api/ApiRoutes.h"

#include "core/db/DeadLetterFilter.h"
#include "core/db/EventFilter.h"
#include "ui/web/api/ApiInput.h"
#include "ui/web/api/BulkActionCall.h"
#include "ui/web/api/Controllers.h"

#include <QRegularExpression>

namespace outbox::web {

namespace {

QStringList paged(QStringList parameters)
{
    return parameters << QStringLiteral("limit") << QStringLiteral("after_id");
}

constexpr auto Checked = ApiRoute::Query::Checked;
constexpr auto Ignored = ApiRoute::Query::Ignored;
constexpr auto Anyone = Access::Anyone;
constexpr auto Server = ApiRoute::Scope::Server; // not per fleet member
constexpr bool OidcOnly = true;                  // served only with [oidc]
constexpr auto Viewer = Access::Viewer;
constexpr auto Operator = Access::Operator;
const QByteArray Get = QByteArrayLiteral("GET");
const QByteArray Post = QByteArrayLiteral("POST");
const QByteArray Patch = QByteArrayLiteral("PATCH");
const QByteArray Delete = QByteArrayLiteral("DELETE");

// A bulk action (requeue, dead, replay, discard): an operator's POST of `what` with the bulk
// engine's body (`fields`: the action's own fields besides the common ones).
template <ActionKind Kind> ApiRoute bulkRoute(const QString& path, const QString& what, const QString& fields)
{
    return {Post,
            path,
            Operator,
            what + QStringLiteral(
                       " Body: ids, group or filter, reason (required), dry_run, force%1. A dry run answers "
                       "with core's preview: matched, sample, verb, confirmation (the phrase a console asks "
                       "the operator to type, empty when none) and job (whether the run takes more than one "
                       "chunk). A run previews once and answers at once, or, when it takes more than one "
                       "chunk, runs as a job (202, Location: the job's href, /api/v1/jobs/{id} or, on a "
                       "fleet member, /api/v1/members/{name}/jobs/{id}).")
                       .arg(fields),
            {},
            Checked,
            bulkAction<Kind>};
}

// The API. Lists take limit (1..1000, default 100) and after_id and answer next_after_id.
QList<ApiRoute> table()
{
    return {
        {Get,
         QStringLiteral("/api/v1/summary"),
         Viewer,
         QStringLiteral("The latest sample as the dashboard shows it, its age and whether it is stale."),
         {},
         Ignored,
         SummaryController::summary},
        {Get,
         QStringLiteral("/api/v1/me"),
         Viewer,
         QStringLiteral(
             "Who the token is: name, role and may_change (an identity provider's token also person, "
             "issuer and expires_at); member=NAME: its role on that fleet member (tokens scoped with "
             "members= / operator=), 404 for a member it does not see."),
         {},
         Ignored,
         SummaryController::me,
         ApiRoute::Scope::Server},
        {Get,
         QStringLiteral("/api/v1/auth"),
         Anyone,
         QStringLiteral("How the pages sign people in: {\"oidc\": false} with static tokens only, else the "
                        "identity provider's issuer, client_id, scopes and endpoints (no token needed)."),
         {},
         Ignored,
         AuthController::settings,
         ApiRoute::Scope::Server},
        {Post,
         QStringLiteral("/api/v1/auth/token"),
         Anyone,
         QStringLiteral(
             "A confidential client's exchange ([oidc] client_secret): body grant_type "
             "authorization_code with code, code_verifier and redirect_uri, or refresh_token with "
             "refresh_token; the server adds its secret, asks the token endpoint and answers "
             "access_token, expires_in and refresh_token (no token needed; 404 for a public client, "
             "502 when the provider refuses the secret). Only with `[oidc]`."),
         {},
         Ignored,
         AuthController::token,
         ApiRoute::Scope::Server,
         OidcOnly},

        {Get,
         QStringLiteral("/api/v1/filters"),
         Viewer,
         QStringLiteral(
             "The fields the lists filter by, as core names them: events (GET /api/v1/events), "
             "dead_letters (GET /api/v1/dead-letters) and dead_letter_groups (GET "
             "/api/v1/dead-letters/groups), each a list of name (the query parameter and the filter's "
             "JSON field), label, example and choices (the values a status takes)."),
         {},
         Ignored,
         FiltersController::list},
        {Get, QStringLiteral("/api/v1/events"), Viewer,
         QStringLiteral("Outbox events, newest first (order=asc: oldest first); filters as `outboxctl events "
                        "list` takes them."),
         paged(EventFilter::keys()) << QStringLiteral("order"), Checked, EventsController::list},
        {Get,
         QStringLiteral("/api/v1/events/blocked"),
         Viewer,
         QStringLiteral(
             "Aggregates held back in ordering mode by a FAILED event, the longest blocked first."),
         {QStringLiteral("limit"), QStringLiteral("min_wait_ms")},
         Checked,
         EventsController::blocked},
        bulkRoute<ActionKind::Requeue>(
            QStringLiteral("/api/v1/events/requeue"),
            QStringLiteral(
                "Puts FAILED or DEAD (with force: stuck SENDING; with resend: SENT) events back to "
                "PENDING."),
            QStringLiteral(", resend")),
        bulkRoute<ActionKind::MarkDead>(QStringLiteral("/api/v1/events/dead"),
                                        QStringLiteral("Marks PENDING or FAILED events DEAD."), QString()),
        {Get,
         QStringLiteral("/api/v1/events/{id}"),
         Viewer,
         QStringLiteral("One event by its row id or event id."),
         {},
         Ignored,
         EventsController::show},
        {Get,
         QStringLiteral("/api/v1/events/{id}/trace"),
         Viewer,
         QStringLiteral("One event with its trail: attempts, audit entries, dead letters and inbox rows."),
         {},
         Ignored,
         EventsController::trace},

        {Get,
         QStringLiteral("/api/v1/failure-groups"),
         Viewer,
         QStringLiteral(
             "Failed events grouped by error class and fingerprint (status: the statuses to group)."),
         {QStringLiteral("status")},
         Checked,
         FailureGroupsController::list},

        {Get, QStringLiteral("/api/v1/dead-letters"), Viewer, QStringLiteral("Dead letters, newest first."),
         paged(DeadLetterFilter::keys()), Checked, DeadLettersController::list},
        {Get,
         QStringLiteral("/api/v1/dead-letters/groups"),
         Viewer,
         QStringLiteral(
             "Dead letters grouped by consumer, error class and fingerprint (status: NEW by default)."),
         {QStringLiteral("status"), QStringLiteral("consumer")},
         Checked,
         DeadLettersController::groups},
        {Post,
         QStringLiteral("/api/v1/dead-letters/groups/edit/preview"),
         Operator,
         QStringLiteral(
             "What one JSON change makes of every NEW dead letter of a group, changing nothing. Body: "
             "group {consumer, error_class, fingerprint}, change {set: PATH, value} or {replace: "
             "PATH or \"\", from, to}. Answers each letter's id, edit_count, differences, before "
             "and after."),
         {},
         Checked,
         DeadLettersController::previewGroupEdit},
        {Post,
         QStringLiteral("/api/v1/dead-letters/groups/edit"),
         Operator,
         QStringLiteral("Edits the payloads of a group's dead letters by one JSON change, in audited chunks "
                        "(dlq.edit_group). Body: group, change, reason, versions [{id, edit_count}] of the "
                        "preview's letters that change (a letter edited since is a conflict, left as it is), "
                        "chunk_size."),
         {},
         Checked,
         DeadLettersController::editGroup},
        bulkRoute<ActionKind::ReplayDeadLetters>(
            QStringLiteral("/api/v1/dead-letters/replay"),
            QStringLiteral(
                "Replays NEW (with force: also REPLAYED or DISCARDED) dead letters to their topic."),
            QStringLiteral(", to_topic")),
        bulkRoute<ActionKind::DiscardDeadLetters>(QStringLiteral("/api/v1/dead-letters/discard"),
                                                  QStringLiteral("Discards dead letters."), QString()),
        {Get,
         QStringLiteral("/api/v1/dead-letters/{id:\\d+}"),
         Viewer,
         QStringLiteral("One dead letter."),
         {},
         Ignored,
         DeadLettersController::show},
        {Patch,
         QStringLiteral("/api/v1/dead-letters/{id:\\d+}"),
         Operator,
         QStringLiteral("Edits a dead letter before its replay. Body: payload (text, object or array) or "
                        "payload_base64, headers, reason, json_payload, edit_count (required: the edit_count "
                        "read; a stale "
                        "edit is a 409)."),
         {},
         Checked,
         DeadLettersController::edit},

        {Get,
         QStringLiteral("/api/v1/consumers"),
         Viewer,
         QStringLiteral("Each consumer's progress and backlog; broker lag when [web] has a Kafka bootstrap."),
         {QStringLiteral("consumer"), QStringLiteral("older_than_ms"), QStringLiteral("reconcile")},
         Checked,
         ConsumersController::list},
        {Get, QStringLiteral("/api/v1/inbox"), Viewer,
         QStringLiteral("The consumers' inbox rows, newest first."),
         paged({QStringLiteral("consumer"), QStringLiteral("status"), QStringLiteral("event_id")}), Checked,
         InboxController::list},

        {Get, QStringLiteral("/api/v1/audit"), Viewer,
         QStringLiteral("The audit log of operator actions, newest first; format=csv: the page as CSV "
                        "(header on the first "
                        "page, cells never spreadsheet formulas, the next cursor in X-Next-After-Id). "
                        "Before/after states "
                        "over 4096 bytes are left out (null, states_omitted, before_bytes, after_bytes): "
                        "/api/v1/audit/{id} has them."),
         paged({QStringLiteral("since"), QStringLiteral("action"), QStringLiteral("actor"),
                QStringLiteral("target_kind"), QStringLiteral("target_id"), QStringLiteral("format")}),
         Checked, AuditController::list},
        {Get,
         QStringLiteral("/api/v1/audit/{id:\\d+}"),
         Viewer,
         QStringLiteral("One audit entry with its before and after states whole (a list leaves states over "
                        "4096 bytes out: before/after null, states_omitted, before_bytes, after_bytes)."),
         {},
         Ignored,
         AuditController::show},
        {Get,
         QStringLiteral("/api/v1/findings"),
         Viewer,
         QStringLiteral("The doctor's latest report: findings with evidence, causes, runbook and prepared "
                        "actions."),
         {},
         Ignored,
         FindingsController::show},
        {Post,
         QStringLiteral("/api/v1/findings/{id}/actions/{index:\\d+}"),
         Operator,
         QStringLiteral(
             "Previews (dry_run) or runs the prepared action number index (from 0) of the finding "
             "with this id and key in the doctor's latest run, through core as the desktop's "
             "Recovery runs it. Body: key, dry_run, reason (required to run), expected (required "
             "to run: the preview's matched count; another count now is a 409 and nothing "
             "changes). The preview carries verb, confirmation and job as the bulk actions' do. More "
             "rows than one chunk run as a job: 202 with the job and its Location, as "
             "the bulk actions. An action that is a command line to run, or that core does not "
             "know, is a 400."),
         {},
         Checked,
         FindingsController::act},
        {Get,
         QStringLiteral("/api/v1/fleet"),
         Viewer,
         QStringLiteral(
             "Every member of the fleet (serve --fleet FILE), worst first: name, tags, state "
             "(ok, warning, critical, unreachable, unmigrated), error, backlog, oldest pending age, "
             "failed, dead, dead letters, live relays and findings by severity; tag=team=checkout "
             "keeps the members with that tag."),
         {QStringLiteral("tag")},
         Checked,
         FleetController::list,
         ApiRoute::Scope::Server},

        {Get,
         QStringLiteral("/api/v1/jobs"),
         Viewer,
         QStringLiteral("The bulk-action jobs, newest first."),
         {},
         Checked,
         JobsController::list},
        {Get,
         QStringLiteral("/api/v1/jobs/{id:[0-9a-f-]{1,64}}"),
         Viewer,
         QStringLiteral("One job: state, progress and, when finished, the result (kept for an hour)."),
         {},
         Checked,
         JobsController::show},
        {Delete,
         QStringLiteral("/api/v1/jobs/{id:[0-9a-f-]{1,64}}"),
         Operator,
         QStringLiteral("Cancels a running job before its next chunk."),
         {},
         Checked,
         JobsController::cancel},

        {Post,
         QStringLiteral("/api/v1/relays/{command:pause|resume|drain|forget}"),
         Operator,
         QStringLiteral("Pauses, resumes or drains relay workers, or forgets the registration of relays "
                        "that are gone (as `outboxctl relays forget`: 409 for a relay whose heartbeat is "
                        "fresher than stale_after_s, default 60). Body: workers (1 to 1000 ids), reason, "
                        "stale_after_s (forget only), dry_run (nothing changes; the answer carries "
                        "verb and confirmation, the phrase a console asks the operator to type)."),
         {},
         Checked,
         RelaysController::control},

        // Outside the API: the pages and their files, the metrics, the dashboard's WebSocket and
        // the runbooks. None of the pages holds data: that needs a token on /ws or the API.
        {Get,
         QStringLiteral("/"),
         Anyone,
         QStringLiteral("The dashboard (index.html)."),
         {},
         Ignored,
         PagesController::dashboard,
         Server},
        {Post,
         QStringLiteral("/"),
         Anyone,
         QStringLiteral(
             "The identity provider's answer to the wall's sign-in (response_mode=form_post: code "
             "and state in the body, never in an address): the dashboard with them for its script."),
         {},
         Ignored,
         PagesController::signInAnswer,
         Server,
         OidcOnly},
        {Get,
         QStringLiteral("/static/{file:dashboard\\.js|dashboard\\.css|chart\\.js|signin\\.js}"),
         Anyone,
         QStringLiteral("The dashboard's script and style sheet, the pages' sign-in script, and Chart.js "
                        "(from libjs-chart.js or [web] chartjs)."),
         {},
         Ignored,
         PagesController::staticFile,
         Server},
        {Get,
         QStringLiteral("/console"),
         Anyone,
         QStringLiteral("Redirects (301) to /console/."),
         {},
         Ignored,
         PagesController::consoleRedirect,
         Server},
        {Get,
         QStringLiteral("/console/"),
         Anyone,
         QStringLiteral("The web admin console (index.html)."),
         {},
         Ignored,
         PagesController::console,
         Server},
        {Post,
         QStringLiteral("/console/"),
         Anyone,
         QStringLiteral("The identity provider's answer to the console's sign-in (as POST /)."),
         {},
         Ignored,
         PagesController::signInAnswer,
         Server,
         OidcOnly},
        {Get,
         QStringLiteral("/console/{file:[A-Za-z0-9_-]+\\.(?:html|js|css|json)}"),
         Anyone,
         QStringLiteral("The console's files (404 for a name that is not one of them)."),
         {},
         Ignored,
         PagesController::console,
         Server},
        {Get,
         QStringLiteral("/metrics"),
         Access::Dashboard,
         QStringLiteral("Prometheus exposition of the latest sample, the doctor's findings and the fleet."),
         {},
         Ignored,
         MetricsController::exposition,
         Server},
        {Get,
         QStringLiteral("/ws"),
         Access::WebSocket,
         QStringLiteral("The dashboard's WebSocket (snapshots, findings and job progress); a request that is "
                        "not an upgrade is a 426."),
         {},
         Ignored,
         SocketController::notUpgraded,
         Server},
        {Get,
         QStringLiteral("/docs/runbooks"),
         Anyone,
         QStringLiteral("The index of the runbooks (also at /docs/runbooks/ and /docs/runbooks/README.md)."),
         {},
         Ignored,
         RunbooksController::index,
         Server},
        {Get,
         QStringLiteral("/docs/runbooks/"),
         Anyone,
         QStringLiteral("The index of the runbooks."),
         {},
         Ignored,
         RunbooksController::index,
         Server},
        {Get,
         QStringLiteral("/docs/runbooks/README.md"),
         Anyone,
         QStringLiteral("The index of the runbooks."),
         {},
         Ignored,
         RunbooksController::index,
         Server},
        {Get,
         QStringLiteral("/docs/runbooks/{id:[a-z][a-z-]{0,63}(?:\\.md)?}"),
         Anyone,
         QStringLiteral(
             "The runbook of a doctor finding as Markdown text (alert rules link it as runbook_url)."),
         {},
         Ignored,
         RunbooksController::page,
         Server},
    };
}

// A route's pattern as a regular expression: {name} is one segment, {name:regex} one that matches.
QRegularExpression compile(const QString& pattern)
{
    static const QRegularExpression parameter(QStringLiteral("\\{([a-z_]+)(?::([^}]*\\}?[^}]*))?\\}"));
    QString regex = QStringLiteral("^");
    qsizetype at = 0;
    for (auto it = parameter.globalMatch(pattern); it.hasNext();) {
        const auto m = it.next();
        regex += QRegularExpression::escape(pattern.mid(at, m.capturedStart() - at));
        regex += QStringLiteral("(") + (m.captured(2).isEmpty() ? QStringLiteral("[^/]+") : m.captured(2)) +
                 QStringLiteral(")");
        at = m.capturedEnd();
    }
    return QRegularExpression(regex + QRegularExpression::escape(pattern.mid(at)) + QStringLiteral("$"));
}

struct Compiled
{
    QList<ApiRoute> routes = table();
    QList<QRegularExpression> patterns;
    Compiled()
    {
        for (const ApiRoute& r : routes)
            patterns << compile(r.pattern);
    }
};

const Compiled& compiled()
{
    static const Compiled c;
    return c;
}

} // namespace

const QList<ApiRoute>& ApiRoutes::all()
{
    return compiled().routes;
}

std::variant<const ApiRoute*, WebReply> ApiRoutes::resolve(ApiCall& call, bool oidc)
{
    static const QRegularExpression memberPath(QStringLiteral("^/api/v1/members/([^/]+)(/.*)?$"));
    if (const auto m = memberPath.match(call.path); m.hasMatch()) {
        call.member = m.captured(1);
        call.path = QStringLiteral("/api/v1") + m.captured(2);
        auto resolved = resolve(call, oidc);
        if (const auto* route = std::get_if<const ApiRoute*>(&resolved);
            route && (*route)->scope != ApiRoute::Scope::Database)
            return WebReply::error(404, tr("%1 is not served per member").arg(call.path));
        return resolved;
    }
    const Compiled& c = compiled();
    // The routes that serve the path: the literal ones when there are any, else the patterns.
    QList<int> candidates;
    bool literal = false;
    for (int i = 0; i < c.routes.size(); ++i) {
        if ((c.routes.at(i).oidcOnly && !oidc) || !c.patterns.at(i).match(call.path).hasMatch())
            continue;
        const bool isLiteral = !c.routes.at(i).pattern.contains(QLatin1Char('{'));
        if (isLiteral && !literal)
            candidates.clear();
        if (isLiteral || !literal)
            candidates << i;
        literal = literal || isLiteral;
    }
    if (candidates.isEmpty())
        return WebReply::error(404, tr("there is nothing at %1").arg(call.path));
    QByteArrayList allowed;
    for (int i : candidates) {
        const ApiRoute& route = c.routes.at(i);
        if (route.method != call.method) {
            allowed << route.method;
            continue;
        }
        const auto m = c.patterns.at(i).match(call.path);
        call.args = m.capturedTexts().mid(1);
        return &route;
    }
    WebReply r =
        WebReply::error(405, tr("%1 takes %2").arg(call.path, QString::fromLatin1(allowed.join(", "))));
    r.headers << qMakePair(QByteArrayLiteral("Allow"), allowed.join(", "));
    return r;
}

std::variant<Principal, WebReply>
ApiRoutes::admit(const ApiRoute& route, const std::optional<Principal>& token, bool publicDashboard)
{
    Principal anonymous;
    anonymous.anonymous = true;
    switch (route.access) {
    case Access::Anyone:
    case Access::WebSocket:
        return token ? *token : anonymous;
    case Access::Dashboard:
        if (!token && publicDashboard)
            return anonymous;
        break;
    case Access::Viewer:
    case Access::Operator:
        break;
    }
    if (!token) {
        WebReply r = WebReply::error(401, tr("a valid token is required (Authorization: Bearer TOKEN)"));
        r.headers << qMakePair(QByteArrayLiteral("WWW-Authenticate"),
                               QByteArrayLiteral("Bearer realm=\"outbox\""));
        return r;
    }
    // A viewer's token that is an operator on some fleet members passes here; Api::handle checks its
    // role on the member the call is about.
    if (route.access == Access::Operator && !token->mayChangeSomewhere())
        return WebReply::error(403, tr("this token may only read; changes need an operator token"));
    return *token;
}

QString ApiRoutes::reference()
{
    QString md = QStringLiteral(
        "<!-- Generated from the route table in ui/web/api/ApiRoutes.cpp; do not edit by hand.\n"
        "     Regenerate: build/app/outboxctl/outboxctl serve --api-reference > docs/api.md\n"
        "     (the test api_reference_check fails when this file and the table differ). -->\n"
        "# The JSON API\n\n"
        "`outboxctl serve` answers under `/api/v1`. Every request carries a token "
        "(`Authorization: Bearer TOKEN`, made with `outboxctl serve --new-token NAME`); a viewer's token "
        "reads, an operator's token also changes (role *operator* below). Viewers see payloads and error "
        "texts masked as `[web] masked_fields` and `mask_patterns` say.\n\n"
        "Answers are JSON. An error is `{\"error\": \"one sentence\", \"status\": N}`: 400 for a request to "
        "change (an unknown parameter or field is one), 401 without a valid token, 403 for a viewer's token "
        "on a change, 404, 405 (with `Allow`) for a path served for other methods, 409, 429 when too many "
        "jobs run, 503 when the database or the first sample is not there yet.\n\n"
        "Lists are pages: `limit` (1 to 1000, default 100) and `after_id`; the answer's `next_after_id` is "
        "the `after_id` of the next page (null on the last).\n\n"
        "A path segment in braces is a parameter; `{id:regex}` shows what it must match.\n\n"
        "With a fleet (`outboxctl serve --fleet FILE`), every route marked *per member* is also served for "
        "each member at `/api/v1/members/{name}/…` (e.g. `/api/v1/members/orders/events/requeue`): it reads "
        "and changes that member's database, and an action's audit row is written there. Without "
        "`--member`, a fleet server has no database of its own: those routes answer 404 at their own path "
        "and are used per member.\n\n"
        "| Method | Path | Role | Per member | Query parameters | What it does |\n"
        "|---|---|---|---|---|---|\n");
    auto path = [](const ApiRoute& r) {
        QString pattern = r.pattern;
        return pattern.replace(QLatin1Char('|'), QStringLiteral("\\|"));
    };
    for (const ApiRoute& r : all()) {
        if (!r.pattern.startsWith(QLatin1String("/api/")))
            continue;
        QString parameters;
        if (r.query == ApiRoute::Query::Ignored)
            parameters = QStringLiteral("—");
        else if (r.parameters.isEmpty())
            parameters = QStringLiteral("none");
        else
            parameters = QLatin1Char('`') + r.parameters.join(QStringLiteral("`, `")) + QLatin1Char('`');
        md += QStringLiteral("| %1 | `%2` | %3 | %4 | %5 | %6 |\n")
                  .arg(QString::fromLatin1(r.method), path(r),
                       r.access == Access::Operator ? QStringLiteral("operator") : QStringLiteral("viewer"),
                       r.scope == ApiRoute::Scope::Database ? QStringLiteral("yes") : QStringLiteral("—"),
                       parameters, r.summary);
    }
    md += QStringLiteral(
        "\n## Pages and other paths\n\n"
        "The same table serves these; they answer 404 and 405 (with `Allow`) as the API does.\n\n"
        "| Method | Path | Token | What it serves |\n"
        "|---|---|---|---|\n");
    for (const ApiRoute& r : all()) {
        if (r.pattern.startsWith(QLatin1String("/api/")))
            continue;
        QString token;
        switch (r.access) {
        case Access::Anyone:
            token = QStringLiteral("none");
            break;
        case Access::Dashboard:
            token = QStringLiteral("viewer (none with `[web] public_dashboard`)");
            break;
        case Access::WebSocket:
            token = QStringLiteral("in the first message; the page's Origin is checked");
            break;
        case Access::Viewer:
            token = QStringLiteral("viewer");
            break;
        case Access::Operator:
            token = QStringLiteral("operator");
            break;
        }
        const QString only =
            r.oidcOnly ? QStringLiteral(" Only with `[oidc]` (without it, 405).") : QString();
        md += QStringLiteral("| %1 | `%2` | %3 | %4 |\n")
                  .arg(QString::fromLatin1(r.method), path(r), token, r.summary + only);
    }
    return md;
}

} // namespace outbox::web
