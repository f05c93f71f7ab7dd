#include "core/consumer/InboxMessage.h"

namespace outbox {

QByteArray InboxMessage::header(const QByteArray& name) const
{
    for (auto it = headers.crbegin(); it != headers.crend(); ++it)
        if (it->first == name)
            return it->second;
    return {};
}

bool InboxMessage::hasHeader(const QByteArray& name) const
{
    for (const auto& h : headers)
        if (h.first == name)
            return true;
    return false;
}

QJsonObject InboxMessage::headersJson() const
{
    QJsonObject o;
    for (const auto& h : headers)
        o.insert(QString::fromUtf8(h.first), QString::fromUtf8(h.second));
    return o;
}

} // namespace outbox
