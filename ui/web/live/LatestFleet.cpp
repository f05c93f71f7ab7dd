#include "ui/web/live/LatestFleet.h"

#include <QJsonArray>

namespace outbox::web {

void LatestFleet::update(const QVector<MemberSample>& samples)
{
    m_members = samples;
    m_received.start();
}

WebReply LatestFleet::reply(const QString& tag, const PayloadMasker& masker) const
{
    if (!has())
        return WebReply::error(503, tr("the fleet has not been sampled yet"));
    QJsonArray members;
    for (const MemberSample& s : m_members) {
        if (!tag.isEmpty() && !s.tags.contains(tag))
            continue;
        QJsonObject json = s.toJson();
        if (!s.error.isEmpty())
            json.insert(QStringLiteral("error"), masker.maskText(s.error));
        members.append(json);
    }
    return WebReply::json(
        QJsonObject{{QStringLiteral("members"), members},
                    {QStringLiteral("sample_age_seconds"), double(m_received.elapsed()) / 1000.0}});
}

QByteArray LatestFleet::exposition() const
{
    if (!has())
        return {};
    // Member names are letters, digits, _ and - (Fleet checks them): nothing to escape in a label.
    QByteArray out =
        "# HELP outbox_member_up Whether the fleet member answered its last sample (0: unreachable).\n"
        "# TYPE outbox_member_up gauge\n";
    for (const MemberSample& s : m_members)
        out +=
            "outbox_member_up{database=\"" + s.member.toUtf8() + "\"} " + (s.reachable() ? "1" : "0") + "\n";
    return out;
}

} // namespace outbox::web
