#include "ui/web/live/LatestFleet.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace outbox::web {

void LatestFleet::update(const QVector<MemberSample>& samples)
{
    m_members = samples;
    m_received.start();
}

QString LatestFleet::pushMessage(const PayloadMasker& masker, qint64 intervalMs) const
{
    QJsonArray members;
    for (const MemberSample& s : m_members) {
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

} // namespace outbox::web
