#pragma once

#include "core/metrics/MetricsSnapshot.h"

#include <QByteArray>

namespace outbox::web {

// Renders a MetricsSnapshot in the Prometheus text exposition format (version 0.0.4) with the
// names listed in docs/operator-guide.md. Label values are escaped; every family has HELP and TYPE lines.
class PrometheusExposition
{
public:
    static constexpr const char* ContentType = "text/plain; version=0.0.4; charset=utf-8";

    struct Context
    {
        qint64 sampleAgeMs = 0; // how old the snapshot is when scraped
        qint64 relayStaleAfterMs = 30000;
        bool samplerHealthy = true; // false after a failed tick
    };

    static QByteArray render(const MetricsSnapshot& snapshot, const Context& context);
    static QByteArray escapeLabelValue(const QString& value);
};

} // namespace outbox::web
