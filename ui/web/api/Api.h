#pragma once

#include "core/fleet/Fleet.h"
#include "core/fleet/MemberSample.h"
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/ApiRoutes.h"
#include "ui/web/live/LatestFindings.h"
#include "ui/web/live/LatestSnapshot.h"

#include <QHash>
#include <map>
#include <memory>
#include <optional>

namespace outbox::web {

// What the server answers over HTTP: checks a call's query parameters against its route (found and
// admitted by ApiRoutes::resolve() and ApiRoutes::admit()) and hands the call to the route's
// controller with the context of the database it is about: the server's own, or a fleet member's
// (/api/v1/members/{name}/…).
class Api
{
public:
    Api(DatabaseWorkerPool& pool, const LatestSnapshot& latest, PayloadMasker masker, int sampleIntervalMs);
    ~Api();

    // `route` is ApiRoutes::resolve(call)'s, `call.principal` ApiRoutes::admit()'s.
    void handle(const ApiRoute& route, ApiCall call, ApiDone done);

    ApiContext& context() { return m_context; }

    // false: the server has no database of its own (serve --fleet FILE without --member); the
    // per-database routes answer 404 at their own path and are served per member only.
    void setOwnDatabase(bool own) { m_ownDatabase = own; }
    bool ownDatabase() const { return m_ownDatabase; }
    // Serves every member of `fleet` at /api/v1/members/{name}/…: each member its own database
    // threads (`threads`, made on the member's first request) on the member's DatabaseTarget.
    void watchFleet(const Fleet& fleet, int threads);
    // The fleet sampler's latest tick: each member's summary and findings.
    void updateFleet(const QVector<MemberSample>& samples);
    // The context of member `name` (made now if needed), or nullptr when the fleet has no such member.
    ApiContext* member(const QString& name);

private:
    struct Member
    {
        explicit Member(int findingsIntervalMs) : findings(findingsIntervalMs) {}
        ~Member();
        FleetMember member;
        std::unique_ptr<DatabaseWorkerPool> pool;
        LatestSnapshot latest;
        LatestFindings findings;
        std::unique_ptr<ApiContext> context;
        void update(const MemberSample& sample);
    };

    ApiContext m_context;
    PayloadMasker m_viewerMasker;
    int m_sampleIntervalMs;
    bool m_ownDatabase = true;
    std::optional<Fleet> m_fleet;
    int m_memberThreads = 1;
    QHash<QString, MemberSample> m_samples; // the latest tick, by member
    std::map<QString, std::unique_ptr<Member>> m_members;
};

} // namespace outbox::web
