#include "ui/web/live/LatestFindings.h"

#include "core/diagnosis/Doctor.h"
#include "ui/web/live/PrometheusExposition.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>

namespace outbox::web {

void LatestFindings::update(const DiagnosisReport& report)
{
    m_report = report;
    m_received.start();
    m_lastError.clear();
}

void LatestFindings::fail(const QString& message)
{
    m_lastError = message;
}

bool LatestFindings::stale() const
{
    return !m_lastError.isEmpty() || ageMs() > 3 * qint64(m_intervalMs);
}

WebReply LatestFindings::reply(const PayloadMasker& masker) const
{
    if (!m_report)
        return WebReply::error(
            503, m_lastError.isEmpty()
                     ? tr("the doctor has not finished its first run yet; try again in a moment")
                     : tr("the doctor cannot read the database: %1").arg(masker.maskText(m_lastError)));
    QJsonObject o = masker.maskValue(m_report->toJson()).toObject();
    o.insert(QStringLiteral("age_seconds"), double(ageMs()) / 1000.0);
    o.insert(QStringLiteral("interval_seconds"), m_intervalMs / 1000.0);
    o.insert(QStringLiteral("stale"), stale());
    if (!m_lastError.isEmpty())
        o.insert(QStringLiteral("doctor_error"), masker.maskText(m_lastError));
    return WebReply::json(o);
}

QString LatestFindings::pushMessage(const PayloadMasker& masker) const
{
    QJsonArray list;
    if (m_report) {
        for (const Finding& f : m_report->findings)
            list.append(QJsonObject{
                {QStringLiteral("id"), f.id},
                {QStringLiteral("key"), f.key},
                {QStringLiteral("severity"), severityName(f.severity)},
                {QStringLiteral("title"), f.title},
                {QStringLiteral("count"), f.evidence.count},
                {QStringLiteral("unit"), f.evidence.unit},
                {QStringLiteral("oldest"), f.evidence.oldest.isValid()
                                               ? QJsonValue(f.evidence.oldest.toString(Qt::ISODateWithMs))
                                               : QJsonValue()}});
    }
    QJsonObject o{{QStringLiteral("type"), QStringLiteral("findings")},
                  {QStringLiteral("findings"), list},
                  {QStringLiteral("taken_at"), m_report && m_report->takenAt.isValid()
                                                   ? QJsonValue(m_report->takenAt.toString(Qt::ISODateWithMs))
                                                   : QJsonValue()}};
    if (!m_lastError.isEmpty())
        o.insert(QStringLiteral("error"), m_lastError);
    return QString::fromUtf8(QJsonDocument(masker.maskValue(o).toObject()).toJson(QJsonDocument::Compact));
}

QByteArray LatestFindings::exposition() const
{
    QByteArray out;
    out += "# HELP outbox_diagnosis_up 1 when the doctor's last run succeeded and every check ran.\n"
           "# TYPE outbox_diagnosis_up gauge\n";
    const bool up = m_report && m_lastError.isEmpty() && !m_report->anyCheckFailed();
    out += "outbox_diagnosis_up " + QByteArray(up ? "1" : "0") + '\n';
    if (!m_report)
        return out;
    out += "# HELP outbox_diagnosis_age_seconds Seconds since the doctor's last completed run.\n"
           "# TYPE outbox_diagnosis_age_seconds gauge\n";
    out += "outbox_diagnosis_age_seconds " + QByteArray::number(double(ageMs()) / 1000.0, 'g', 15) + '\n';
    out +=
        "# HELP outbox_findings Findings of the doctor's last run by check id and severity (outboxctl doctor "
        "--check ID explains them).\n"
        "# TYPE outbox_findings gauge\n";
    QMap<QString, int> counts;
    for (const Finding& f : m_report->findings)
        counts[f.id + QLatin1Char('\x1f') + severityName(f.severity)] += 1;
    for (const QString& id : Doctor::checkIds()) {
        for (const QString& severity : severityNames()) {
            out += "outbox_findings{id=\"" + PrometheusExposition::escapeLabelValue(id) + "\",severity=\"" +
                   severity.toUtf8() + "\"} " +
                   QByteArray::number(counts.value(id + QLatin1Char('\x1f') + severity)) + '\n';
        }
    }
    return out;
}

} // namespace outbox::web
