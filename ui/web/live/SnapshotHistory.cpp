#include "ui/web/live/SnapshotHistory.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>

namespace outbox::web {

SnapshotHistory::SnapshotHistory(qint64 windowMs, int maxPoints, qint64 maxBytes)
    : m_windowMs(std::max<qint64>(1, windowMs)), m_maxPoints(std::max(1, maxPoints)),
      m_maxBytes(std::max<qint64>(1, maxBytes)), m_minSpacingMs(m_windowMs / m_maxPoints)
{
}

QJsonObject SnapshotHistory::chartPoint(const QJsonObject& snapshot)
{
    const QJsonObject allEvents = snapshot.value(QStringLiteral("events")).toObject();
    QJsonObject events;
    for (const char* status : {"PENDING", "SENDING", "FAILED", "DEAD"}) {
        const QString key = QLatin1String(status);
        events[key] = allEvents.value(key).toInteger();
    }
    // The largest holders only: a point stays small however many relays there are.
    QJsonArray holders = snapshot.value(QStringLiteral("lease_holders")).toArray();
    if (holders.size() > MaxHoldersPerPoint) {
        QVector<QJsonObject> sorted;
        for (const QJsonValue& h : holders)
            sorted << h.toObject();
        std::stable_sort(sorted.begin(), sorted.end(), [](const QJsonObject& a, const QJsonObject& b) {
            return a.value(QStringLiteral("sending")).toInteger() >
                   b.value(QStringLiteral("sending")).toInteger();
        });
        holders = QJsonArray();
        for (int i = 0; i < MaxHoldersPerPoint; ++i)
            holders.append(sorted.at(i));
    }
    QJsonArray slimHolders;
    for (const QJsonValue& v : holders) {
        const QJsonObject h = v.toObject();
        slimHolders.append(QJsonObject{{QStringLiteral("worker_id"), h.value(QStringLiteral("worker_id"))},
                                       {QStringLiteral("sending"), h.value(QStringLiteral("sending"))},
                                       {QStringLiteral("expired"), h.value(QStringLiteral("expired"))}});
    }
    return QJsonObject{
        {QStringLiteral("taken_at"), snapshot.value(QStringLiteral("taken_at"))},
        {QStringLiteral("events"), events},
        {QStringLiteral("relay_sent_total"), snapshot.value(QStringLiteral("relay_sent_total"))},
        {QStringLiteral("oldest_pending_age_seconds"),
         snapshot.value(QStringLiteral("oldest_pending_age_seconds"))},
        {QStringLiteral("lease_holders"), slimHolders},
    };
}

void SnapshotHistory::expire(qint64 nowMs)
{
    while (!m_points.empty() && nowMs - m_points.front().atMs > m_windowMs) {
        m_bytes -= m_points.front().json.size();
        m_points.pop_front();
    }
}

bool SnapshotHistory::add(const QJsonObject& snapshot, qint64 atMs)
{
    expire(atMs);
    if (!m_points.empty() && atMs - m_points.back().atMs < m_minSpacingMs)
        return false;
    Point p{atMs, QJsonDocument(chartPoint(snapshot)).toJson(QJsonDocument::Compact)};
    if (p.json.size() > m_maxBytes)
        return false;
    m_bytes += p.json.size();
    m_points.push_back(std::move(p));
    while (m_bytes > m_maxBytes || int(m_points.size()) > m_maxPoints + 1) {
        m_bytes -= m_points.front().json.size();
        m_points.pop_front();
    }
    return true;
}

void SnapshotHistory::clear()
{
    m_points.clear();
    m_bytes = 0;
}

QByteArray SnapshotHistory::message(qint64 nowMs) const
{
    QByteArray out;
    out.reserve(int(m_bytes + qint64(m_points.size()) + 80));
    out += "{\"type\":\"history\",\"window_seconds\":";
    out += QByteArray::number(m_windowMs / 1000);
    out += ",\"points\":[";
    bool first = true;
    for (const Point& p : m_points) {
        if (nowMs - p.atMs > m_windowMs)
            continue; // the sampler has stopped for a while: nothing stale is shown as recent
        if (!first)
            out += ',';
        out += p.json;
        first = false;
    }
    out += "]}";
    return out;
}

} // namespace outbox::web
