// /api/v1/failure-groups: the outbox's failed events grouped by error class and fingerprint.
#include "core/db/FailureGroups.h"
#include "core/support/JsonPage.h"
#include "ui/web/api/ApiContext.h"
#include "ui/web/api/Controllers.h"

namespace outbox::web {

void FailureGroupsController::list(ApiContext& api, const ApiCall& call, ApiDone done)
{
    api.query(
        [statuses = queryValues(call.query, QStringLiteral("status"))](Database& db) {
            FailureGroups groups(db);
            return statuses.isEmpty() ? groups.list() : groups.list(statuses);
        },
        [masker = api.maskerFor(call.principal)](const QVector<FailureGroup>& groups) {
            // Error texts may quote payloads: masked for viewers, and grouped on the masked text.
            const QJsonArray rows = masker.maskGroups(
                rowsJson(groups), {QStringLiteral("error_class"), QStringLiteral("fingerprint")});
            return QJsonObject{{QStringLiteral("groups"), rows}};
        },
        std::move(done));
}

} // namespace outbox::web
