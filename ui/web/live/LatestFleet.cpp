#include "ui/web/live/LatestFleet.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace outbox::web {

void LatestFleet::update(const QVector<MemberSample>& samples)
{
    m_members = samples;
    m_received.start();
}

QVector<MemberSample> LatestFleet::visibleTo(const Principal& principal) const
{
    if (!principal.scope.restricted())
        return m_members;
    QVector<MemberSample> visible;
    for (const MemberSample& s : m_members)
        if (principal.sees(s.member, s.tags))
            visible << s;
    return visible;
}

QString LatestFleet::pushMessage(const PayloadMasker& masker, qint64 intervalMs,
                                 const Principal& principal) const
{
    QJsonArray members;
    for (const MemberSample& s : m_members) {
        if (!principal.sees(s.member, s.tags))
            continue;
        QJsonObject json = s.toJson();
        if (!s.error.isEmpty())
            json.insert(QStringLiteral("error"), masker.maskText(s.error));
        members.append(json);
    }
    return QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("type"), QStringLiteral("fleet")},
                                                       {QStringLiteral("members"), members},
                                                       {QStringLiteral("interval_ms"), double(intervalMs)}})
                                 .toJson(QJsonDocument::Compact));
}

WebReply LatestFleet::reply(const QString& tag, const PayloadMasker& masker, const Principal& principal) const
{
    if (!has())
        return WebReply::error(503, tr("the fleet has not been sampled yet"));
    QJsonArray members;
    for (const MemberSample& s : m_members) {
        if ((!tag.isEmpty() && !s.tags.contains(tag)) || !principal.sees(s.member, s.tags))
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

} // namespace outbox::web
