#include "core/ops/AuditCsv.h"

#include "core/support/Csv.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace outbox {
namespace {

QString text(const QJsonValue& value)
{
    switch (value.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return {};
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double:
        return QString::number(value.toDouble(), 'g', 17);
    case QJsonValue::String:
        return value.toString();
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    }
    return {};
}

} // namespace

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
        cells << text(entry.value(key));
    return Csv::line(cells);
}

} // namespace outbox
