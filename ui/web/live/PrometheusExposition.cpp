#include "ui/web/live/PrometheusExposition.h"

#include "core/db/EventStatus.h"

namespace outbox::web {

namespace {

class Writer
{
public:
    void family(const char* name, const char* type, const char* help)
    {
        m_out += "# HELP " + QByteArray(name) + ' ' + help + '\n';
        m_out += "# TYPE " + QByteArray(name) + ' ' + type + '\n';
    }
    void sample(const char* name, double value) { m_out += QByteArray(name) + ' ' + number(value) + '\n'; }
    void sample(const char* name, const char* label, const QString& labelValue, double value)
    {
        m_out += QByteArray(name) + '{' + label + "=\"" + PrometheusExposition::escapeLabelValue(labelValue) +
                 "\"} " + number(value) + '\n';
    }
    void sampleLabels(const char* name, std::initializer_list<std::pair<const char*, QString>> labels,
                      double value)
    {
        QByteArray line = QByteArray(name) + '{';
        bool first = true;
        for (const auto& [label, labelValue] : labels) {
            if (!first)
                line += ',';
            first = false;
            line += QByteArray(label) + "=\"" + PrometheusExposition::escapeLabelValue(labelValue) + '"';
        }
        m_out += line + "} " + number(value) + '\n';
    }
    QByteArray take() { return std::move(m_out); }

private:
    static QByteArray number(double v) { return QByteArray::number(v, 'g', 15); }
    QByteArray m_out;
};

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

QByteArray PrometheusExposition::render(const MetricsSnapshot& s, const Context& context)
{
    Writer w;
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
    return w.take();
}

} // namespace outbox::web
