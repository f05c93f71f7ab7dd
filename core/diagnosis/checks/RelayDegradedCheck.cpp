#include "core/diagnosis/checks/RelayDegradedCheck.h"

#include "core/db/FailureGroups.h"
#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/Runbook.h"
#include "core/support/TextClip.h"

#include <QJsonArray>

namespace outbox {

namespace {

bool healthy(const RelayRecord& r)
{
    return r.state == QLatin1String("RUNNING") || r.state == QLatin1String("IDLE");
}

} // namespace

Result<QVector<Finding>> RelayDegradedCheck::run(DiagnosisContext& context)
{
    const Runbook& rb = Runbook::of(id());
    auto live = context.liveRelays();
    if (!live)
        return live.error();
    bool anyHealthy = false;
    for (const RelayRecord& r : *live)
        anyHealthy = anyHealthy || healthy(r);

    // One finding per distinct error (normalised), so that "auth failed" on two hosts is one problem.
    QVector<Finding> findings;
    QStringList keys;
    for (const RelayRecord& r : *live) {
        if (r.state != QLatin1String("DEGRADED"))
            continue;
        const QString print = FailureGroups::fingerprint(r.lastError);
        int at = int(keys.indexOf(print));
        if (at < 0) {
            at = int(findings.size());
            keys << print;
            Finding f;
            f.id = id();
            f.key = id() + QLatin1Char('/') + print;
            f.severity = anyHealthy ? Severity::Warning : Severity::Critical;
            f.evidence.unit = QStringLiteral("relays");
            f.evidence.sampleKind = QStringLiteral("relay");
            f.evidence.details.insert(QStringLiteral("last_error"), r.lastError);
            f.evidence.details.insert(QStringLiteral("healthy_relays"), anyHealthy);
            findings << f;
        }
        Finding& f = findings[at];
        ++f.evidence.count;
        if (f.evidence.sampleNames.size() < Finding::MaxSamples)
            f.evidence.sampleNames << r.workerId;
        if (!f.evidence.oldest.isValid() || r.startedAt < f.evidence.oldest)
            f.evidence.oldest = r.startedAt;
        if (!f.evidence.newest.isValid() || r.heartbeatAt > f.evidence.newest)
            f.evidence.newest = r.heartbeatAt;
    }

    for (Finding& f : findings) {
        const QString error = f.evidence.details.value(QStringLiteral("last_error")).toString();
        const QString lower = error.toLower();
        f.title = tr("%1 relay(s) DEGRADED: %2")
                      .arg(f.evidence.count)
                      .arg(error.isEmpty() ? tr("no error given") : clipAtWord(error, 120));
        // RabbitMQ's errors say so ("RabbitMQ unreachable at …", "connection blocked by RabbitMQ …").
        const bool rabbit = lower.contains(QLatin1String("rabbitmq"));
        if (rabbit && lower.contains(QLatin1String("blocked"))) {
            f.causes << rb.cause("rabbitmq-blocked");
            f.runbook << rb.step("rabbitmq-blocked");
        } else if (rabbit && lower.contains(QLatin1String("access_refused"))) {
            f.causes << rb.cause("rabbitmq-refused");
            f.runbook << rb.step("rabbitmq-refused");
        } else if (lower.contains(QLatin1String("no answer")) ||
                   lower.contains(QLatin1String("answered none"))) {
            f.causes << rb.cause("stalled");
            f.runbook << rb.step("stalled");
        } else if (rabbit) {
            f.causes << rb.cause("rabbitmq-unreachable");
            f.runbook << rb.step("rabbitmq-unreachable");
        } else if (lower.contains(QLatin1String("authenticat")) || lower.contains(QLatin1String("sasl"))) {
            f.causes << rb.cause("authentication");
            f.runbook << rb.step("authentication");
        } else if (lower.contains(QLatin1String("ssl")) || lower.contains(QLatin1String("tls")) ||
                   lower.contains(QLatin1String("certificate"))) {
            f.causes << rb.cause("tls");
            f.runbook << rb.step("tls");
        } else if (lower.contains(QLatin1String("cluster authorization")) ||
                   lower.contains(QLatin1String("cluster_authorization"))) {
            f.causes << rb.cause("cluster-acl");
            f.runbook << rb.step("cluster-acl");
        } else {
            f.causes << rb.cause("unreachable");
            f.runbook << rb.step("unreachable");
        }
        f.causes << rb.cause("nothing-lost");
        f.runbook << rb.step("keep") << rb.step("recovers");
        if (f.severity == Severity::Critical)
            f.runbook << rb.step("no-healthy");
        f.runbook << rb.step("again");
    }
    return findings;
}

} // namespace outbox
