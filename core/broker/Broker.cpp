#include "core/broker/Broker.h"

namespace outbox {

Broker::~Broker() = default;

QString Broker::text() const
{
    return kindName() + QLatin1Char(' ') + address();
}

Result<QString> Broker::declareExchange(const QString& exchange) const
{
    return Error::usage(QStringLiteral("%1 has no exchanges to declare (\"%2\")").arg(kindName(), exchange));
}

} // namespace outbox
