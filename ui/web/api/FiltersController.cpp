// /api/v1/filters: the fields the lists filter by, as core names them, so that the web console
// builds its search forms from them instead of keeping a copy of the names.
#include "core/db/DeadLetterFilter.h"
#include "core/db/EventFilter.h"
#include "ui/web/api/Controllers.h"
#include "ui/web/http/WebReply.h"

#include <QJsonArray>

namespace outbox::web {

namespace {

QJsonArray fieldsJson(const QVector<FilterField>& fields)
{
    QJsonArray list;
    for (const FilterField& f : fields)
        list.append(f.toJson());
    return list;
}

} // namespace

void FiltersController::list(ApiContext&, const ApiCall&, ApiDone done)
{
    done(WebReply::json(
        QJsonObject{{QStringLiteral("events"), fieldsJson(EventFilter::fields())},
                    {QStringLiteral("dead_letters"), fieldsJson(DeadLetterFilter::fields())}}));
}

} // namespace outbox::web
