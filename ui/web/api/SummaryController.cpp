// /api/v1/summary and /api/v1/me: the latest sample as the dashboard shows it, and who the token is.
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/Controllers.h"
#include "ui/web/live/LatestSnapshot.h"

namespace outbox::web {

void SummaryController::summary(ApiContext& api, const ApiCall& call, ApiDone done)
{
    const LatestSnapshot& latest = api.latest;
    if (auto unavailable = latest.unavailable())
        return done(*unavailable);
    const PayloadMasker masker = api.maskerFor(call.principal);
    QJsonObject o = masker.maskSnapshot(latest.snapshot().toJson());
    o[QStringLiteral("sample_age_seconds")] = double(latest.ageMs()) / 1000.0;
    o[QStringLiteral("stale")] = latest.ageMs() > 3 * qint64(api.sampleIntervalMs) || !latest.healthy();
    if (!latest.healthy())
        o[QStringLiteral("sampler_error")] = masker.maskText(latest.lastError());
    done(WebReply::json(o));
}

void SummaryController::me(ApiContext&, const ApiCall& call, ApiDone done)
{
    // Who the token is: the web console shows actions to operators.
    const bool operatorToken = call.principal.memberRole.value_or(call.principal.role) == Role::Operator;
    QJsonObject o{
        {QStringLiteral("name"), call.principal.name},
        {QStringLiteral("role"), operatorToken ? QStringLiteral("operator") : QStringLiteral("viewer")},
        {QStringLiteral("may_change"), call.principal.mayChange()}};
    // Signed in with the identity provider: the person, the issuer and when the token expires (a
    // static token's answer is as it always was).
    if (!call.principal.person.isEmpty()) {
        o.insert(QStringLiteral("person"), call.principal.person);
        o.insert(QStringLiteral("issuer"), call.principal.issuer);
        o.insert(QStringLiteral("expires_at"), double(call.principal.expiresAt));
    }
    done(WebReply::json(o));
}

} // namespace outbox::web
