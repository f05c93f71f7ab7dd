#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <deque>

namespace outbox::web {

// The dashboard's recent past: the last WindowMs of snapshots, reduced to what the charts draw,
// so a wall screen that connects (or reconnects) starts with full charts instead of empty ones.
//
// Memory is bounded whatever the sampler's tick rate: a point is kept only when at least
// windowMs / maxPoints have passed since the one kept before it (so at most maxPoints + 1 points
// live in the window), points older than the window are dropped, each point carries at most
// MaxHoldersPerPoint lease holders, and the encoded points never exceed maxBytes in total (the
// oldest go first). Each point is encoded once, when it is added; a connecting client gets the
// stored text joined, no JSON work per client.
class SnapshotHistory
{
public:
    static constexpr qint64 DefaultWindowMs = 15 * 60 * 1000;
    static constexpr int DefaultMaxPoints = 450; // one point per 2 s over 15 minutes
    static constexpr qint64 DefaultMaxBytes = 256 * 1024;
    static constexpr int MaxHoldersPerPoint = 16;

    explicit SnapshotHistory(qint64 windowMs = DefaultWindowMs, int maxPoints = DefaultMaxPoints,
                             qint64 maxBytes = DefaultMaxBytes);

    // `snapshot` is a snapshot's JSON as the clients see it (already masked); `atMs` a monotonic
    // clock reading (milliseconds). Returns whether the point was kept.
    bool add(const QJsonObject& snapshot, qint64 atMs);
    void clear();

    // The chart fields of a snapshot: taken_at, events (PENDING, SENDING, FAILED, DEAD),
    // relay_sent_total, oldest_pending_age_seconds and the largest lease holders.
    static QJsonObject chartPoint(const QJsonObject& snapshot);

    int size() const { return int(m_points.size()); }
    qint64 bytes() const { return m_bytes; }
    qint64 windowMs() const { return m_windowMs; }
    qint64 minSpacingMs() const { return m_minSpacingMs; }
    // Monotonic time of the oldest kept point (-1 when empty).
    qint64 oldestAtMs() const { return m_points.empty() ? -1 : m_points.front().atMs; }
    // {"type":"history","window_seconds":…,"points":[…]} with every point still inside the window
    // at `nowMs`, oldest first.
    QByteArray message(qint64 nowMs) const;

private:
    struct Point
    {
        qint64 atMs = 0;
        QByteArray json;
    };
    void expire(qint64 nowMs);

    qint64 m_windowMs;
    int m_maxPoints;
    qint64 m_maxBytes;
    qint64 m_minSpacingMs;
    std::deque<Point> m_points;
    qint64 m_bytes = 0;
};

} // namespace outbox::web
