// /api/v1/filters: the fields the lists filter by, as core names them, so that the web console
// builds its search forms from them instead of keeping a copy of the names.
#include "core/db/DeadLetterFilter.h"
#include "core/db/DeadLetterGroups.h"
#include "core/db/EventFilter.h"
#include "core/support/JsonPage.h"
#include "ui/web/api/Controllers.h"
#include "ui/web/http/WebReply.h"

#include <QJsonArray>

namespace outbox::web {

void FiltersController::list(ApiContext&, const ApiCall&, ApiDone done)
{
    done(WebReply::json(
        QJsonObject{{QStringLiteral("events"), rowsJson(EventFilter::fields())},
                    {QStringLiteral("dead_letters"), rowsJson(DeadLetterFilter::fields())},
                    {QStringLiteral("dead_letter_groups"), rowsJson(DeadLetterGroups::fields())}}));
}

} // namespace outbox::web
