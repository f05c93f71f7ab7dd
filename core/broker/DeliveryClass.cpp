#include "core/broker/DeliveryClass.h"

namespace outbox {

QString deliveryClassName(DeliveryClass c)
{
    switch (c) {
    case DeliveryClass::Success:
        return QStringLiteral("success");
    case DeliveryClass::UnknownOutcome:
        return QStringLiteral("unknown_outcome");
    case DeliveryClass::Transient:
        return QStringLiteral("transient");
    case DeliveryClass::Deterministic:
        return QStringLiteral("deterministic");
    case DeliveryClass::ConnectionWide:
        return QStringLiteral("connection");
    }
    return {};
}

} // namespace outbox
