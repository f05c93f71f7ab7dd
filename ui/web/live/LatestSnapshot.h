#pragma once

#include "core/metrics/MetricsSnapshot.h"
#include "ui/web/http/WebReply.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QString>
#include <optional>

namespace outbox::web {

// The sampler's most recent snapshot and how old it is, read by /metrics, the summary API and
// new dashboard clients. Lives on the server's thread.
class LatestSnapshot
{
    Q_DECLARE_TR_FUNCTIONS(outbox::web::LatestSnapshot)

public:
    void update(const MetricsSnapshot& snapshot);
    void fail(const QString& message);

    bool has() const { return m_snapshot.has_value(); }
    const MetricsSnapshot& snapshot() const { return *m_snapshot; }
    qint64 ageMs() const { return m_received.isValid() ? m_received.elapsed() : -1; }
    bool healthy() const { return m_lastError.isEmpty(); }
    const QString& lastError() const { return m_lastError; }
    int count() const { return m_count; }
    // The 503 of /metrics and the summary before the first sample (or while the sampler fails
    // without one); nothing once there is a snapshot to show.
    std::optional<WebReply> unavailable() const;

private:
    std::optional<MetricsSnapshot> m_snapshot;
    QElapsedTimer m_received;
    QString m_lastError;
    int m_count = 0;
};

} // namespace outbox::web
