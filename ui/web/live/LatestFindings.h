#pragma once

#include "core/diagnosis/DiagnosisReport.h"
#include "core/support/PayloadMasker.h"
#include "ui/web/http/WebReply.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QString>
#include <optional>

namespace outbox::web {

// The doctor's most recent report on the server's thread (a DiagnosisMonitor runs it every
// [web] findings_interval_ms), in the three shapes the server hands out: GET /api/v1/findings,
// the dashboard's "Needs attention" push over /ws, and outbox_findings{id,severity} on /metrics.
class LatestFindings
{
    Q_DECLARE_TR_FUNCTIONS(outbox::web::LatestFindings)

public:
    explicit LatestFindings(int intervalMs) : m_intervalMs(intervalMs) {}

    void update(const DiagnosisReport& report);
    void fail(const QString& message);

    bool has() const { return m_report.has_value(); }
    const DiagnosisReport& report() const { return *m_report; }
    qint64 ageMs() const { return m_received.isValid() ? m_received.elapsed() : -1; }
    bool stale() const;

    // The whole report (findings with evidence, causes, runbook and actions) and its age; error
    // texts masked by `masker` (viewers) as the rest of the API masks them.
    WebReply reply(const PayloadMasker& masker) const;
    // {"type":"findings", …}: each finding's id, key, severity, title and evidence counts, worst
    // first, masked by `masker`.
    QString pushMessage(const PayloadMasker& masker) const;
    // outbox_findings{id,severity} for every check and severity (0 when none), the run's age and
    // whether it succeeded.
    QByteArray exposition() const;

private:
    int m_intervalMs;
    std::optional<DiagnosisReport> m_report;
    QElapsedTimer m_received;
    QString m_lastError;
};

} // namespace outbox::web
