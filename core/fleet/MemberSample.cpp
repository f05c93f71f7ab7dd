#include "core/fleet/MemberSample.h"

#include <QJsonArray>
#include <cmath>

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

void MemberSample::adoptReport(const DiagnosisReport& doctorReport, const QDateTime& madeAt)
{
    report = doctorReport;
    findingsAt = madeAt;
    critical = report.count(Severity::Critical);
    warning = report.count(Severity::Warning);
    info = report.count(Severity::Info);
    if (state == State::Unreachable || state == State::Unmigrated)
        return;
    state = critical > 0 ? State::Critical : warning > 0 ? State::Warning : State::Ok;
}

double MemberSample::ageSeconds(const QDateTime& now) const
{
    return sampledAt.isValid() ? double(sampledAt.msecsTo(now)) / 1000.0 : -1;
}

double MemberSample::findingsAgeSeconds(const QDateTime& now) const
{
    return findingsAt.isValid() ? double(findingsAt.msecsTo(now)) / 1000.0 : -1;
}

QJsonObject MemberSample::toJson() const
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const auto seconds = [](double s) { return s < 0 ? QJsonValue() : QJsonValue(std::round(s * 10) / 10); };
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
        {QStringLiteral("stale"), stale},
        {QStringLiteral("slow"), slow},
        {QStringLiteral("missed_ticks"), missedTicks},
        {QStringLiteral("sample_age_seconds"), seconds(ageSeconds(now))},
        {QStringLiteral("findings_age_seconds"), seconds(findingsAgeSeconds(now))},
        {QStringLiteral("answered_at"),
         answeredAt.isValid() ? QJsonValue(answeredAt.toString(Qt::ISODateWithMs)) : QJsonValue()},
        {QStringLiteral("next_attempt_seconds"),
         nextAttemptMs < 0 ? QJsonValue() : QJsonValue(double((nextAttemptMs + 999) / 1000))},
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
