#include "core/support/TimeZone.h"

#include <QByteArray>
#include <QtGlobal>

namespace outbox {

void pinLocalTimeZone()
{
    if (qEnvironmentVariableIsEmpty("TZ"))
        qputenv("TZ", QByteArrayLiteral(":/etc/localtime"));
}

} // namespace outbox
