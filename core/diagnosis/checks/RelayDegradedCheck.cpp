#include "core/diagnosis/checks/RelayDegradedCheck.h"

#include "core/db/FailureGroups.h"
#include "core/diagnosis/DiagnosisContext.h"
#include "core/diagnosis/Runbook.h"
#include "core/support/TextClip.h"

#include <QJsonArray>
#include <algorithm>

namespace outbox {

namespace {

bool healthy(const RelayRecord& r)
{
    return r.state == QLatin1String("RUNNING") || r.state == QLatin1String("IDLE");
}

// What a DEGRADED relay's error says went wrong: the key of its cause and of its step in the
// runbook, the first whose words the error contains (RabbitMQ's errors name RabbitMQ: "RabbitMQ
// unreachable at …", "connection blocked by RabbitMQ …").
const char* errorKind(const QString& error)
{
    struct Kind
    {
        const char* key;
        bool rabbitOnly;
        QStringList words; // none: any error (of RabbitMQ, with rabbitOnly)
    };
    static const Kind kinds[] = {
        {"rabbitmq-blocked", true, {QStringLiteral("blocked")}},
        {"rabbitmq-refused", true, {QStringLiteral("access_refused")}},
        {"stalled", false, {QStringLiteral("no answer"), QStringLiteral("answered none")}},
        {"rabbitmq-unreachable", true, {}},
        {"authentication", false, {QStringLiteral("authenticat"), QStringLiteral("sasl")}},
        {"tls", false, {QStringLiteral("ssl"), QStringLiteral("tls"), QStringLiteral("certificate")}},
        {"cluster-acl",
         false,
         {QStringLiteral("cluster authorization"), QStringLiteral("cluster_authorization")}},
    };
    const QString lower = error.toLower();
    const bool rabbit = lower.contains(QLatin1String("rabbitmq"));
    for (const Kind& k : kinds) {
        if (k.rabbitOnly && !rabbit)
            continue;
        if (k.words.isEmpty() || std::any_of(k.words.cbegin(), k.words.cend(),
                                             [&](const QString& w) { return lower.contains(w); }))
            return k.key;
    }
    return "unreachable";
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
        f.evidence.addRelay(r.workerId, r.startedAt, r.heartbeatAt);
    }

    for (Finding& f : findings) {
        const QString error = f.evidence.details.value(QStringLiteral("last_error")).toString();
        f.title = tr("%1 relay(s) DEGRADED: %2")
                      .arg(f.evidence.count)
                      .arg(error.isEmpty() ? tr("no error given") : clipAtWord(error, 120));
        const char* kind = errorKind(error);
        f.causes << rb.cause(kind);
        f.runbook << rb.step(kind);
        f.causes << rb.cause("nothing-lost");
        f.runbook << rb.step("keep") << rb.step("recovers");
        if (f.severity == Severity::Critical)
            f.runbook << rb.step("no-healthy");
        f.runbook << rb.step("again");
    }
    return findings;
}

// Its page of docs/runbooks/ and the lines its findings take (core/diagnosis/Runbook.h).
Runbook RelayDegradedCheck::runbook() const
{
    Runbook r = Runbook::page(
        "relay-degraded", "A relay is DEGRADED and claims nothing",
        "critical when no relay is healthy, else warning",
        "A relay reports DEGRADED with its last error: it is alive (its heartbeat is fresh) but cannot "
        "publish: it cannot reach the brokers (down, network, authentication, TLS, a RabbitMQ memory alarm) "
        "or they stopped answering. Events stay PENDING; one finding per distinct error.");
    r.causes = {
        {"rabbitmq-blocked",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Connection blocked: RabbitMQ hit its memory or disk alarm and stops reading from every "
             "publishing "
             "connection until the alarm clears."),
         "the error says the connection is blocked by RabbitMQ"},
        {"rabbitmq-refused",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "RabbitMQ refuses the relay's login (wrong user or password, or the user may not use the "
             "vhost)."),
         "RabbitMQ answers ACCESS_REFUSED"},
        {"rabbitmq-unreachable",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The relay cannot reach RabbitMQ: the broker is down or restarting, the network or a firewall "
             "blocks the way, or the address in [broker] url is wrong."),
         "any other RabbitMQ error"},
        {"authentication",
         QT_TRANSLATE_NOOP("outbox::Runbook", "The brokers refuse the relay's credentials (wrong or expired "
                                              "SASL password, a rotated secret, a "
                                              "changed mechanism)."),
         "the error names authentication or SASL"},
        {"tls",
         QT_TRANSLATE_NOOP("outbox::Runbook", "The TLS handshake with the brokers fails (an expired or "
                                              "untrusted certificate, a wrong CA file, "
                                              "a host name mismatch)."),
         "the error names SSL, TLS or a certificate"},
        {"cluster-acl",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The relay's principal lacks a cluster-level ACL the idempotent producer needs "
                           "(IdempotentWrite)."),
         "the error is a cluster authorization failure"},
        {"stalled",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The broker took the connection but does not answer: it hangs, is overloaded, or a proxy or "
             "load balancer in between holds the connection without passing anything on."),
         "the error says the broker gave no answer"},
        {"unreachable",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The relay cannot reach any broker: the brokers are down, the network or a firewall blocks the "
             "way, or the bootstrap address is wrong."),
         "any other error"},
        {"nothing-lost",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "While DEGRADED a relay claims nothing: events stay PENDING and are sent once it "
                           "recovers; none is lost.")},
    };
    r.steps = {
        {"rabbitmq-blocked",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Outside the product: on the broker, rabbitmq-diagnostics alarms and rabbitmqctl status show "
             "the "
             "alarm and the memory or disk use; drain or purge the queues that grew (consumers down?), or "
             "raise "
             "vm_memory_high_watermark or disk_free_limit if the machine allows."),
         "the error says the connection is blocked by RabbitMQ"},
        {"rabbitmq-refused",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Outside the product: check the user in [broker] url and its password (OUTBOX_BROKER_PASSWORD "
             "or "
             "[amqp] password_file) with rabbitmqctl authenticate_user, and the vhost's permissions with "
             "rabbitmqctl list_permissions."),
         "RabbitMQ answers ACCESS_REFUSED"},
        {"rabbitmq-unreachable",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Outside the product: check that RabbitMQ runs (rabbitmq-diagnostics ping, rabbitmq-diagnostics "
             "listeners) and that the relay's host reaches its AMQP port (e.g. nc -vz BROKER 5672), and look "
             "at "
             "the relay's log."),
         "any other RabbitMQ error"},
        {"authentication",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Outside the product: check the relay's -X sasl.username / sasl.password (or its credential "
             "file) against the broker's users, and the broker's log for the rejected login."),
         "the error names authentication or SASL"},
        {"tls",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Outside the product: check the certificates' dates and the relay's -X ssl.ca.location, and try "
             "openssl s_client -connect BROKER:PORT from the relay's host."),
         "the error names SSL, TLS or a certificate"},
        {"cluster-acl",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Outside the product: grant the relay's principal IdempotentWrite on the cluster (kafka-acls "
             "--add --allow-principal User:RELAY --operation IdempotentWrite --cluster)."),
         "the error is a cluster authorization failure"},
        {"unreachable",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Outside the product: check that the brokers run and that the relay's host "
                           "reaches the bootstrap "
                           "address (e.g. nc -vz BROKER PORT), and look at the relay's log."),
         "any other error"},
        {"stalled",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Outside the product: check the broker's health and load (rabbitmq-diagnostics status, or the "
             "Kafka brokers' logs) and anything between the relay and the broker (proxy, load balancer, "
             "firewall that drops packets), and look at the relay's log."),
         "the error says the broker gave no answer"},
        {"keep",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Fix the broker, not the relay: do not start another relay (it cannot publish "
                           "either) and do not "
                           "forget this one (it is alive and registers again at its next heartbeat).")},
        {"recovers", QT_TRANSLATE_NOOP(
                         "outbox::Runbook",
                         "The relay probes the brokers by itself and returns to RUNNING when they answer; no "
                         "restart is needed once the cause is fixed.")},
        {"no-healthy",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "No relay is healthy: the backlog grows until this is fixed (see backlog-age)."),
         "no relay is healthy (critical)"},
        {"again", QT_TRANSLATE_NOOP("outbox::Runbook",
                                    "Run outboxctl doctor again to see the relays leave DEGRADED.")},
    };
    return r;
}

} // namespace outbox
