#include "core/consumer/ReconcileResult.h"

#include <QJsonArray>

namespace outbox {

QJsonObject ReconcileResult::toJson() const
{
    QJsonArray sample;
    for (int i = 0; i < sampleIds.size(); ++i)
        sample.append(QJsonObject{{QStringLiteral("id"), sampleIds.at(i)},
                                  {QStringLiteral("event_id"), sampleEventIds.value(i)}});
    return QJsonObject{{QStringLiteral("consumer"), consumerName},
                       {QStringLiteral("older_than_ms"), olderThanMs},
                       {QStringLiteral("separate_inbox"), separateInbox},
                       {QStringLiteral("scanned"), scanned},
                       {QStringLiteral("unconsumed"), unconsumed},
                       {QStringLiteral("chunks"), chunks},
                       {QStringLiteral("sample"), sample}};
}

} // namespace outbox
