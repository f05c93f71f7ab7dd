#include "core/diagnosis/DiagnosisReport.h"

#include "core/support/JsonPage.h"

#include <QJsonArray>

namespace outbox {

QString CheckRun::outcomeName() const
{
    switch (outcome) {
    case Outcome::Ran:
        return QStringLiteral("ran");
    case Outcome::Skipped:
        return QStringLiteral("skipped");
    case Outcome::Failed:
        return QStringLiteral("failed");
    }
    return {};
}

QJsonObject CheckRun::toJson() const
{
    QJsonObject o{{QStringLiteral("id"), id},
                  {QStringLiteral("outcome"), outcomeName()},
                  {QStringLiteral("elapsed_ms"), qRound(elapsedMs * 10) / 10.0},
                  {QStringLiteral("findings"), findings}};
    if (!note.isEmpty())
        o.insert(QStringLiteral("note"), note);
    return o;
}

int DiagnosisReport::count(Severity severity) const
{
    int n = 0;
    for (const Finding& f : findings)
        n += f.severity == severity ? 1 : 0;
    return n;
}

bool DiagnosisReport::reaches(Severity severity) const
{
    for (const Finding& f : findings)
        if (f.severity >= severity)
            return true;
    return false;
}

bool DiagnosisReport::anyCheckFailed() const
{
    for (const CheckRun& c : checks)
        if (c.outcome == CheckRun::Outcome::Failed)
            return true;
    return false;
}

const Finding* DiagnosisReport::findByKey(const QString& key) const
{
    for (const Finding& f : findings)
        if (f.key == key)
            return &f;
    return nullptr;
}

QVector<Finding> DiagnosisReport::withId(const QString& id) const
{
    QVector<Finding> out;
    for (const Finding& f : findings)
        if (f.id == id)
            out << f;
    return out;
}

QJsonObject DiagnosisReport::toJson() const
{
    return {
        {QStringLiteral("taken_at"),
         takenAt.isValid() ? QJsonValue(takenAt.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue()},
        {QStringLiteral("elapsed_ms"), qRound(elapsedMs * 10) / 10.0},
        {QStringLiteral("database"), database},
        {QStringLiteral("counts"), QJsonObject{{severityName(Severity::Critical), count(Severity::Critical)},
                                               {severityName(Severity::Warning), count(Severity::Warning)},
                                               {severityName(Severity::Info), count(Severity::Info)}}},
        {QStringLiteral("findings"), rowsJson(findings)},
        {QStringLiteral("checks"), rowsJson(checks)}};
}

} // namespace outbox
