#include "core/broker/InboxMessage.h"

namespace outbox {

QByteArray InboxMessage::header(const QByteArray& name) const
{
    // The first of that name: the relay's own headers come first, and a relay before issue 37 also
    // sent a writer's header of a reserved name (event_id, …) after them.
    for (const auto& h : headers)
        if (h.first == name)
            return h.second;
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
