#include "ui/web/live/PrometheusExposition.h"

#include "core/db/EventStatus.h"
#include "core/diagnosis/Doctor.h"

#include <QHash>
#include <QMap>

namespace outbox::web {

namespace {

// Samples grouped by family: the text format wants every sample of a family after its HELP and
// TYPE lines, also when several databases (a fleet) write the same family. Every sample carries
// the base labels first (database, team, env in a fleet).
class Writer
{
public:
    void setBase(const PrometheusExposition::Labels& labels)
    {
        m_base.clear();
        for (const auto& [label, value] : labels)
            m_base += label + "=\"" + PrometheusExposition::escapeLabelValue(value) + "\",";
    }
    void family(const char* name, const char* type, const char* help)
    {
        m_current = name;
        if (m_families.contains(m_current))
            return;
        m_order << m_current;
        m_families.insert(m_current, "# HELP " + m_current + ' ' + help + '\n' + "# TYPE " + m_current + ' ' +
                                         type + '\n');
    }
    void sample(const char* name, double value) { line(name, QByteArray(), value); }
    void sample(const char* name, const char* label, const QString& labelValue, double value)
    {
        line(name, QByteArray(label) + "=\"" + PrometheusExposition::escapeLabelValue(labelValue) + '"',
             value);
    }
    void sampleLabels(const char* name, std::initializer_list<std::pair<const char*, QString>> labels,
                      double value)
    {
        QByteArray text;
        for (const auto& [label, labelValue] : labels) {
            if (!text.isEmpty())
                text += ',';
            text += QByteArray(label) + "=\"" + PrometheusExposition::escapeLabelValue(labelValue) + '"';
        }
        line(name, text, value);
    }
    QByteArray take()
    {
        QByteArray out;
        for (const QByteArray& name : std::as_const(m_order))
            out += m_families.value(name);
        m_order.clear();
        m_families.clear();
        return out;
    }

private:
    void line(const char* name, const QByteArray& labels, double value)
    {
        QByteArray all = m_base + labels;
        if (all.endsWith(','))
            all.chop(1);
        m_families[m_current] +=
            QByteArray(name) + (all.isEmpty() ? QByteArray() : '{' + all + '}') + ' ' + number(value) + '\n';
    }
    static QByteArray number(double v) { return QByteArray::number(v, 'g', 15); }
    QByteArray m_base;
    QByteArray m_current;
    QList<QByteArray> m_order;
    QHash<QByteArray, QByteArray> m_families;
};

void writeSnapshot(Writer& w, const MetricsSnapshot& s, const PrometheusExposition::Context& context);

} // namespace

QByteArray PrometheusExposition::escapeLabelValue(const QString& value)
{
    QByteArray out;
    for (char c : value.toUtf8()) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

QByteArray PrometheusExposition::render(const MetricsSnapshot& snapshot, const Context& context)
{
    Writer w;
    w.setBase(context.labels);
    writeSnapshot(w, snapshot, context);
    return w.take();
}

namespace {

void writeSnapshot(Writer& w, const MetricsSnapshot& s, const PrometheusExposition::Context& context)
{
    w.family("outbox_events", "gauge", "Outbox events by status (SENT may be estimated on large tables).");
    for (const QString& status : EventStatus::all())
        w.sample("outbox_events", "status", status, double(s.events.value(status)));

    w.family("outbox_events_sent_is_estimate", "gauge",
             "1 when the SENT count is estimated from table statistics.");
    w.sample("outbox_events_sent_is_estimate", s.sentIsEstimate ? 1 : 0);

    w.family("outbox_oldest_pending_age_seconds", "gauge",
             "Age of the oldest PENDING event (0 when none is pending).");
    w.sample("outbox_oldest_pending_age_seconds",
             s.oldestPendingAgeMs < 0 ? 0.0 : double(s.oldestPendingAgeMs) / 1000.0);

    w.family("outbox_sent_total", "counter",
             "Events the registered relays have sent (sum of their counters).");
    w.sample("outbox_sent_total", double(s.relaySentTotal));
    w.family("outbox_failed_total", "counter",
             "Events the registered relays have failed (sum of their counters).");
    w.sample("outbox_failed_total", double(s.relayFailedTotal));
    w.family("outbox_fenced_total", "counter", "Marks rejected because the lease had been taken over.");
    w.sample("outbox_fenced_total", double(s.relayFencedTotal));

    w.family("outbox_lease_expired_total", "counter",
             "Expired leases the relays' reapers returned to PENDING.");
    w.sample("outbox_lease_expired_total", double(s.relayLeaseExpiredTotal));
    w.family("outbox_send_latency_seconds", "histogram",
             "Commit to broker acknowledgement, over the registered relays.");
    for (int i = 0; i < s.latencyBucketBounds.size() && i < s.latencyBucketCounts.size(); ++i)
        w.sample("outbox_send_latency_seconds_bucket", "le", QString::number(s.latencyBucketBounds.at(i)),
                 double(s.latencyBucketCounts.at(i)));
    w.sample("outbox_send_latency_seconds_bucket", "le", QStringLiteral("+Inf"), double(s.latencyCount));
    w.sample("outbox_send_latency_seconds_sum", s.latencySumSeconds);
    w.sample("outbox_send_latency_seconds_count", double(s.latencyCount));
    w.family("outbox_unconsumed_events", "gauge",
             "Events SENT a while ago (created in the last hour) that the consumer has not processed.");
    for (auto it = s.unconsumed.cbegin(); it != s.unconsumed.cend(); ++it)
        w.sample("outbox_unconsumed_events", "consumer", it.key(), double(it.value()));
    w.family("outbox_consumer_processed_total", "counter", "Inbox rows PROCESSED per consumer.");
    for (auto it = s.consumerProcessedTotal.cbegin(); it != s.consumerProcessedTotal.cend(); ++it)
        w.sample("outbox_consumer_processed_total", "consumer", it.key(), double(it.value()));
    w.family("outbox_consumer_duplicates_total", "counter",
             "Redeliveries a consumer skipped because it had processed the event already.");
    for (auto it = s.consumerDuplicatesTotal.cbegin(); it != s.consumerDuplicatesTotal.cend(); ++it)
        w.sample("outbox_consumer_duplicates_total", "consumer", it.key(), double(it.value()));
    if (!s.consumerLag.isEmpty()) {
        w.family("outbox_consumer_lag", "gauge",
                 "Messages between a consumer group's committed offset and the partition's high watermark.");
        for (const PartitionLag& l : s.consumerLag)
            w.sampleLabels("outbox_consumer_lag",
                           {{"consumer", l.consumerName},
                            {"topic", l.topic},
                            {"partition", QString::number(l.partition)}},
                           double(l.lag));
    }
    w.family("outbox_leases_held", "gauge", "SENDING events per lease holder.");
    qint64 expired = 0;
    for (const LeaseHolder& h : s.leaseHolders) {
        w.sample("outbox_leases_held", "worker", h.workerId, double(h.sending));
        expired += h.expired;
    }
    w.family("outbox_leases_expired", "gauge",
             "SENDING events whose lease has expired (waiting for the reaper).");
    w.sample("outbox_leases_expired", double(expired));

    w.family("outbox_relay_up", "gauge", "1 when the relay's heartbeat is recent.");
    for (const RelayRecord& r : s.relays)
        w.sample("outbox_relay_up", "worker", r.workerId,
                 r.heartbeatAgeMs <= context.relayStaleAfterMs ? 1 : 0);
    w.family("outbox_relay_wakeup", "gauge",
             "1 per relay, labelled with what wakes it: notify (the trigger, opt-in), doorbell (a temporary "
             "logical replication slot), data_version (SQLite) or poll.");
    for (const RelayRecord& r : s.relays)
        if (!r.wakeup.isEmpty())
            w.sampleLabels("outbox_relay_wakeup", {{"worker", r.workerId}, {"wakeup", r.wakeup}}, 1);
    w.family("outbox_relay_heartbeat_age_seconds", "gauge", "Seconds since the relay's last heartbeat.");
    for (const RelayRecord& r : s.relays)
        w.sample("outbox_relay_heartbeat_age_seconds", "worker", r.workerId,
                 double(r.heartbeatAgeMs) / 1000.0);

    w.family("outbox_unsent_attempts", "gauge",
             "Unsent events (PENDING, SENDING, FAILED) by attempts so far.");
    for (auto it = s.attemptsOfUnsent.cbegin(); it != s.attemptsOfUnsent.cend(); ++it)
        w.sample("outbox_unsent_attempts", "attempts", QString::number(it.key()), double(it.value()));

    w.family("outbox_dead_letters", "gauge", "Consumer dead letters by status.");
    for (const QString& status : DeadLetterStatus::all())
        w.sample("outbox_dead_letters", "status", status, double(s.deadLetters.value(status)));

    w.family("outbox_inbox_failed", "gauge", "Inbox rows in FAILED per consumer.");
    for (const ConsumerStats& c : s.consumers)
        w.sample("outbox_inbox_failed", "consumer", c.consumerName, double(c.failed));

    w.family("outbox_sample_age_seconds", "gauge", "Age of the sample these metrics come from.");
    w.sample("outbox_sample_age_seconds", double(context.sampleAgeMs) / 1000.0);
    w.family("outbox_sample_duration_seconds", "gauge", "How long the sampler's query set took.");
    w.sample("outbox_sample_duration_seconds", double(s.queryMillis) / 1000.0);
    w.family("outbox_sampler_up", "gauge", "1 when the last sampler tick succeeded.");
    w.sample("outbox_sampler_up", context.samplerHealthy ? 1 : 0);
}

} // namespace

PrometheusExposition::Labels PrometheusExposition::memberLabels(const MemberSample& member)
{
    Labels labels{{QByteArrayLiteral("database"), member.member}};
    for (const char* key : {"team", "env"}) {
        const QString prefix = QString::fromLatin1(key) + QLatin1Char('=');
        for (const QString& tag : member.tags)
            if (tag.startsWith(prefix)) {
                labels.append({QByteArray(key), tag.mid(prefix.size())});
                break;
            }
    }
    return labels;
}

QByteArray PrometheusExposition::renderFleet(const QVector<MemberSample>& members, const Context& context)
{
    Writer w;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (const MemberSample& m : members) {
        w.setBase(memberLabels(m));
        w.family("outbox_member_up", "gauge",
                 "1 when the fleet member answered its last sample (0: unreachable).");
        w.sample("outbox_member_up", m.reachable() ? 1 : 0);
        // A member that missed ticks keeps exporting its last answer (outbox_sample_age_seconds
        // says how old) until it is unreachable: a slow member's `for:` timers keep running.
        w.family("outbox_member_missed_samples", "gauge",
                 "Fleet ticks in a row the member did not answer within the fleet's timeout (0: its last "
                 "sample answered in time; the member is unreachable after [fleet] unreachable_after).");
        w.sample("outbox_member_missed_samples", m.missedTicks);
        if (!m.reachable())
            continue; // OutboxDatabaseUnreachable says it, nothing else is known
        if (m.hasSnapshot) {
            Context c = context;
            c.sampleAgeMs = m.sampledAt.isValid() ? m.sampledAt.msecsTo(now) : 0;
            c.samplerHealthy = true;
            writeSnapshot(w, m.snapshot, c);
        }
        if (m.findingsAt.isValid()) {
            w.family("outbox_findings_age_seconds", "gauge",
                     "Age of the doctor's report the fleet member's outbox_findings come from (the doctor "
                     "runs every [fleet] doctor_interval, the counts every tick).");
            w.sample("outbox_findings_age_seconds", double(m.findingsAt.msecsTo(now)) / 1000.0);
        }
        const bool ran = m.state != MemberSample::State::Unmigrated;
        w.family("outbox_diagnosis_up", "gauge",
                 "1 when the doctor's last run succeeded and every check ran.");
        w.sample("outbox_diagnosis_up", ran && !m.report.anyCheckFailed() ? 1 : 0);
        if (!ran)
            continue;
        w.family("outbox_findings", "gauge",
                 "Findings of the doctor's last run by check id and severity (outboxctl doctor --check ID "
                 "explains them).");
        QMap<QString, int> counts;
        for (const Finding& f : m.report.findings)
            counts[f.id + QLatin1Char('\x1f') + severityName(f.severity)] += 1;
        for (const QString& id : Doctor::checkIds())
            for (const QString& severity : severityNames())
                w.sampleLabels("outbox_findings", {{"id", id}, {"severity", severity}},
                               double(counts.value(id + QLatin1Char('\x1f') + severity)));
    }
    return w.take();
}

} // namespace outbox::web
