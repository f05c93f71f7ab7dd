#include "ui/web/api/Api.h"

#include "ui/web/api/ApiInput.h"
#include "ui/web/api/DatabaseWorkerPool.h"
#include "ui/web/live/LatestFindings.h"
#include "ui/web/live/LatestSnapshot.h"

namespace outbox::web {

Api::Api(DatabaseWorkerPool& pool, const LatestSnapshot& latest, PayloadMasker masker, int sampleIntervalMs)
    : m_context(pool, latest, masker, sampleIntervalMs), m_viewerMasker(std::move(masker)),
      m_sampleIntervalMs(sampleIntervalMs)
{
}

Api::~Api() = default;

Api::Member::~Member()
{
    pool.reset(); // joins the member's database threads before the context they answer to goes
    context.reset();
}

void Api::Member::update(const MemberSample& sample)
{
    if (!sample.reachable()) {
        latest.fail(sample.error);
        findings.fail(sample.error);
        return;
    }
    if (sample.hasSnapshot)
        latest.update(sample.snapshot);
    else
        latest.fail(sample.error);
    if (sample.state != MemberSample::State::Unmigrated)
        findings.update(sample.report);
    else
        findings.fail(sample.error);
}

void Api::watchFleet(const Fleet& fleet, int threads)
{
    m_fleet = fleet;
    m_memberThreads = std::max(1, threads);
}

void Api::updateFleet(const QVector<MemberSample>& samples)
{
    for (const MemberSample& s : samples) {
        m_samples.insert(s.member, s);
        if (const auto it = m_members.find(s.member); it != m_members.end())
            it->second->update(s);
    }
}

ApiContext* Api::member(const QString& name)
{
    if (const auto it = m_members.find(name); it != m_members.end())
        return it->second->context.get();
    const FleetMember* fleetMember = m_fleet ? m_fleet->member(name) : nullptr;
    if (!fleetMember)
        return nullptr;
    auto m = std::make_unique<Member>(int(m_fleet->intervalMs()));
    m->member = *fleetMember;
    m->pool = std::make_unique<DatabaseWorkerPool>(fleetMember->target, m_memberThreads);
    m->context =
        std::make_unique<ApiContext>(*m->pool, m->latest, m_viewerMasker, int(m_fleet->intervalMs()));
    m->context->findings = &m->findings;
    m->context->fleet = m_context.fleet;
    m->context->consumerLag = m_context.consumerLag;
    m->context->relayStaleAfterMs = m_context.relayStaleAfterMs;
    // Its jobs are served under the member's routes (/api/v1/jobs/{id} is the server's own).
    m->context->jobs.setApiBase(QStringLiteral("/api/v1/members/") +
                                QString::fromLatin1(QUrl::toPercentEncoding(name)));
    if (const auto it = m_samples.constFind(name); it != m_samples.constEnd())
        m->update(*it);
    ApiContext* context = m->context.get();
    m_members.emplace(name, std::move(m));
    return context;
}

void Api::handle(const ApiRoute& route, ApiCall call, ApiDone done)
{
    ApiContext* context = &m_context;
    // me?member=NAME: the token's role on that member (the member's console shows its actions); a
    // member the token does not see is not there for it, as on the member routes (the console opened
    // on it by its address says so instead of showing pages that all fail).
    if (call.member.isEmpty() && call.path == QLatin1String("/api/v1/me") && m_fleet &&
        call.query.hasQueryItem(QStringLiteral("member"))) {
        const QString name = call.query.queryItemValue(QStringLiteral("member"), QUrl::FullyDecoded);
        const FleetMember* m = m_fleet->member(name);
        const auto role = m ? call.principal.roleOn(m->name, m->tagTexts()) : std::nullopt;
        if (!role)
            return done(WebReply::error(404, ApiContext::tr("the fleet has no member %1").arg(name)));
        call.principal.memberRole = *role;
    }
    if (!call.member.isEmpty()) {
        // A member the token does not see is not there for it (the same 404 as an unknown one); on
        // one it sees, its role there is the token's role.
        const FleetMember* fleetMember = m_fleet ? m_fleet->member(call.member) : nullptr;
        const auto role =
            fleetMember ? call.principal.roleOn(fleetMember->name, fleetMember->tagTexts()) : std::nullopt;
        context = role ? member(call.member) : nullptr;
        if (role) {
            // Its role there decides what it may change; what it sees stays its own role's.
            call.principal.memberRole = *role;
            call.principal.scope = {};
        }
        if (!context)
            return done(WebReply::error(
                404, m_fleet ? ApiContext::tr("the fleet has no member %1").arg(call.member)
                             : ApiContext::tr("this server watches no fleet (serve --fleet FILE)")));
    } else if (route.scope == ApiRoute::Scope::Database && call.principal.scope.restricted()) {
        return done(WebReply::error(403, ApiContext::tr("this token is scoped to fleet members: use "
                                                        "/api/v1/members/{name}%1")
                                             .arg(call.path.mid(int(qstrlen("/api/v1"))))));
    } else if (route.scope == ApiRoute::Scope::Database && !m_ownDatabase) {
        return done(WebReply::error(404, ApiContext::tr("this server watches a fleet and has no database of "
                                                        "its own (no --member): use "
                                                        "/api/v1/members/{name}%1")
                                             .arg(call.path.mid(int(qstrlen("/api/v1"))))));
    }
    if (route.access == Access::Operator && !call.principal.mayChange())
        return done(WebReply::error(403, tr("this token may only read; changes need an operator token")));
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
    route.handler(*context, call, std::move(done));
}

} // namespace outbox::web
