#include "core/ops/AuditCsv.h"

#include "core/support/Csv.h"
#include "core/support/JsonText.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace outbox {

const QStringList& AuditCsv::columns()
{
    static const QStringList keys{QStringLiteral("id"),         QStringLiteral("at"),
                                  QStringLiteral("actor"),      QStringLiteral("host"),
                                  QStringLiteral("action"),     QStringLiteral("target_kind"),
                                  QStringLiteral("target_ids"), QStringLiteral("filter"),
                                  QStringLiteral("reason"),     QStringLiteral("affected_count"),
                                  QStringLiteral("before"),     QStringLiteral("after"),
                                  QStringLiteral("outcome")};
    return keys;
}

QByteArray AuditCsv::header()
{
    return Csv::line(columns());
}

QByteArray AuditCsv::line(const QJsonObject& entry)
{
    QStringList cells;
    cells.reserve(columns().size());
    for (const QString& key : columns())
        cells << JsonText::of(entry.value(key));
    return Csv::line(cells);
}

} // namespace outbox
