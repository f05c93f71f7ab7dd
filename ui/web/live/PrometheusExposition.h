#pragma once

#include "core/fleet/MemberSample.h"
#include "core/metrics/MetricsSnapshot.h"

#include <QByteArray>
#include <QPair>
#include <QVector>

namespace outbox::web {

// Renders a MetricsSnapshot in the Prometheus text exposition format (version 0.0.4) with the
// names listed in docs/operator-guide.md. Label values are escaped; every family has HELP and TYPE lines.
class PrometheusExposition
{
public:
    static constexpr const char* ContentType = "text/plain; version=0.0.4; charset=utf-8";

    using Labels = QVector<QPair<QByteArray, QString>>;

    struct Context
    {
        Labels labels;          // on every sample, first (none for the one database of a plain serve)
        qint64 sampleAgeMs = 0; // how old the snapshot is when scraped
        qint64 relayStaleAfterMs = 30000;
        bool samplerHealthy = true; // false after a failed tick
    };

    static QByteArray render(const MetricsSnapshot& snapshot, const Context& context);
    // A fleet (serve --fleet): every member's series with database="<member>" (and team, env from
    // its tags), its doctor's outbox_diagnosis_up and outbox_findings, and outbox_member_up; an
    // unreachable member has only outbox_member_up 0. One HELP/TYPE per family.
    static QByteArray renderFleet(const QVector<MemberSample>& members, const Context& context);
    // database, then team and env when the member has such tags.
    static Labels memberLabels(const MemberSample& member);
    static QByteArray escapeLabelValue(const QString& value);
};

} // namespace outbox::web
