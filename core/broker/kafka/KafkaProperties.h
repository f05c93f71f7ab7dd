#pragma once

#include "core/support/Result.h"

#include <QMap>
#include <QString>
#include <QStringList>

namespace outbox {

// librdkafka producer properties. Defaults make the producer safe for the outbox
// (enable.idempotence=true, acks=all); anything can be overridden with -X name=value or the
// [kafka] section of the config file, except what would break the delivery guarantees.
class KafkaProperties
{
public:
    KafkaProperties();

    // "name=value" as given to -X.
    Status setFromArgument(const QString& nameEqualsValue);
    Status set(const QString& name, const QString& value);
    QString value(const QString& name, const QString& fallback = {}) const
    {
        return m_values.value(name, fallback);
    }
    const QMap<QString, QString>& values() const { return m_values; }
    qint64 messageTimeoutMs() const;

private:
    QMap<QString, QString> m_values;
};

} // namespace outbox
