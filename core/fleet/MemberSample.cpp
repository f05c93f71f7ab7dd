#include "core/fleet/MemberSample.h"

#include <QJsonArray>

namespace outbox {

QString MemberSample::stateName(State state)
{
    switch (state) {
    case State::Unreachable:
        return QStringLiteral("unreachable");
    case State::Critical:
        return QStringLiteral("critical");
    case State::Unmigrated:
        return QStringLiteral("unmigrated");
    case State::Warning:
        return QStringLiteral("warning");
    case State::Ok:
        return QStringLiteral("ok");
    }
    return {};
}

QJsonObject MemberSample::toJson() const
{
    return QJsonObject{
        {QStringLiteral("name"), member},
        {QStringLiteral("tags"), QJsonArray::fromStringList(tags)},
        {QStringLiteral("state"), stateName()},
        {QStringLiteral("error"), error.isEmpty() ? QJsonValue() : QJsonValue(error)},
        {QStringLiteral("sampled_at"), sampledAt.toString(Qt::ISODateWithMs)},
        {QStringLiteral("elapsed_ms"), elapsedMs},
        {QStringLiteral("backlog"), backlog},
        {QStringLiteral("oldest_pending_age_seconds"),
         oldestPendingAgeMs < 0 ? QJsonValue() : QJsonValue(double(oldestPendingAgeMs) / 1000.0)},
        {QStringLiteral("failed"), failed},
        {QStringLiteral("dead"), dead},
        {QStringLiteral("dead_letters"), deadLetters},
        {QStringLiteral("relays_alive"), relaysAlive},
        {QStringLiteral("findings"),
         QJsonObject{{QStringLiteral("critical"), critical}, {QStringLiteral("warning"), warning}}},
    };
}

bool MemberSample::worseThan(const MemberSample& a, const MemberSample& b)
{
    if (a.state != b.state)
        return int(a.state) < int(b.state);
    if (a.backlog != b.backlog)
        return a.backlog > b.backlog;
    return a.member < b.member;
}

} // namespace outbox
