#include "core/support/JsonPage.h"

#include <QJsonValue>

namespace outbox {

QJsonObject pageJson(const QString& key, const QJsonArray& rows, qint64 nextAfterId)
{
    return QJsonObject{
        {key, rows},
        {QStringLiteral("next_after_id"), nextAfterId > 0 ? QJsonValue(nextAfterId) : QJsonValue()}};
}

} // namespace outbox
