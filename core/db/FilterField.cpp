#include "core/db/FilterField.h"

#include <QJsonArray>

namespace outbox {

QJsonObject FilterField::toJson() const
{
    return QJsonObject{{QStringLiteral("name"), name},
                       {QStringLiteral("label"), label},
                       {QStringLiteral("example"), example},
                       {QStringLiteral("choices"), QJsonArray::fromStringList(choices)}};
}

QStringList FilterField::names(const QVector<FilterField>& fields)
{
    QStringList names;
    for (const FilterField& f : fields)
        names << f.name;
    return names;
}

} // namespace outbox
