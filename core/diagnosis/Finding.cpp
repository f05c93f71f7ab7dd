#include "core/diagnosis/Finding.h"

#include "core/support/JsonPage.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace outbox {

namespace {

QJsonValue time(const QDateTime& t)
{
    return t.isValid() ? QJsonValue(t.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue();
}

// The units the checks count in (FindingEvidence::unit), for lupdate.
const char* const Units[] = {
    QT_TRANSLATE_NOOP("outbox::FindingEvidence", "events"),
    QT_TRANSLATE_NOOP("outbox::FindingEvidence", "relays"),
    QT_TRANSLATE_NOOP("outbox::FindingEvidence", "dead letters"),
    QT_TRANSLATE_NOOP("outbox::FindingEvidence", "dead rows"),
    QT_TRANSLATE_NOOP("outbox::FindingEvidence", "aggregates"),
    QT_TRANSLATE_NOOP("outbox::FindingEvidence", "batches"),
    QT_TRANSLATE_NOOP("outbox::FindingEvidence", "migrations"),
    QT_TRANSLATE_NOOP("outbox::FindingEvidence", "consumers"),
    QT_TRANSLATE_NOOP("outbox::FindingEvidence", "members"),
    QT_TRANSLATE_NOOP("outbox::FindingEvidence", "triggers"),
    QT_TRANSLATE_NOOP("outbox::FindingEvidence", "commits waiting"),
};

} // namespace

QString FindingEvidence::unitText() const
{
    for (const char* known : Units)
        if (unit == QLatin1String(known))
            return QCoreApplication::translate("outbox::FindingEvidence", known);
    return unit;
}

void widenSpan(QDateTime& oldest, QDateTime& newest, const QDateTime& from, const QDateTime& to)
{
    if (from.isValid() && (!oldest.isValid() || from < oldest))
        oldest = from;
    if (to.isValid() && (!newest.isValid() || to > newest))
        newest = to;
}

void FindingEvidence::span(const QDateTime& from, const QDateTime& to)
{
    widenSpan(oldest, newest, from, to);
}

void FindingEvidence::addRelay(const QString& workerId, const QDateTime& from, const QDateTime& to)
{
    ++count;
    if (sampleNames.size() < Finding::MaxSamples)
        sampleNames << workerId;
    span(from, to);
}

QJsonObject FindingEvidence::toJson() const
{
    QJsonObject o = details;
    o.insert(QStringLiteral("count"), count);
    o.insert(QStringLiteral("unit"), unit);
    o.insert(QStringLiteral("oldest"), time(oldest));
    o.insert(QStringLiteral("newest"), time(newest));
    o.insert(QStringLiteral("sample_kind"), sampleKind);
    QJsonArray samples;
    for (qint64 id : sampleIds)
        samples.append(id);
    for (const QString& name : sampleNames)
        samples.append(name);
    o.insert(QStringLiteral("samples"), samples);
    return o;
}

QJsonObject Finding::toJson() const
{
    return {{QStringLiteral("id"), id},
            {QStringLiteral("key"), key},
            {QStringLiteral("severity"), severityName(severity)},
            {QStringLiteral("title"), title},
            {QStringLiteral("evidence"), evidence.toJson()},
            {QStringLiteral("causes"), QJsonArray::fromStringList(causes)},
            {QStringLiteral("runbook"), QJsonArray::fromStringList(runbook)},
            {QStringLiteral("actions"), rowsJson(actions)}};
}

} // namespace outbox
