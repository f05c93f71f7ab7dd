#include "core/diagnosis/Runbook.h"

#include "core/diagnosis/FailureAdvice.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace outbox {

namespace {

const char* const Context = "outbox::Runbook";

QString translated(const char* text)
{
    return QCoreApplication::translate(Context, text);
}

// The lines are marked with QT_TRANSLATE_NOOP in full (lupdate expands no macro of ours).

const QString AlwaysAfter = QStringLiteral(
    "The doctor's own output of this finding adds the evidence (counts, oldest and newest, sample ids, "
    "the facts of the check) and the prepared actions with their exact `outboxctl` command lines "
    "(add `--reason` and `--yes`); the console's Recovery page and the web console's Recovery view walk "
    "through the same steps with a preview before each change.");

QVector<Runbook> build()
{
    QVector<Runbook> pages;
    Runbook r;

    r = {};
    r.id = QStringLiteral("no-relay");
    r.title = QStringLiteral("Events are pending and no relay is running");
    r.severity = QStringLiteral("critical");
    r.summary = QStringLiteral(
        "PENDING events wait and no relay has sent a heartbeat within `[doctor] relay_stale_heartbeats` "
        "heartbeat intervals. Nothing is delivered to Kafka until a relay runs again.");
    r.causes = {
        {"none-registered",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "No relay is registered with this database and table prefix: none was started, the relays "
             "stopped (a relay deregisters when it stops cleanly), or they use another database or table "
             "prefix."),
         "no relay is registered"},
        {"stopped",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The relays stopped or crashed: the last heartbeat came %1 s ago from %2 on %3."),
         "relays are registered", "SECONDS, WORKER, HOST"},
        {"database",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The relays cannot reach the database (network, credentials, a failover), so they cannot claim "
             "events or send heartbeats.")},
        {"other-database",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The relays run against another database or another table prefix than the "
                           "application.")},
    };
    r.steps = {
        {"service",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Check the relay service on its hosts (e.g. systemctl status 'outbox-relay@*' and its "
             "journal).")},
        {"start",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Start a relay against this database (prepared below, with the broker its relays publish to) "
             "or restart the service.")},
        {"same-target",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Make sure the relays use the same database URL and table prefix as the "
                           "application.")},
        {"again",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Run outboxctl doctor again: this finding disappears once a relay sends heartbeats, and "
             "backlog-age shows whether the backlog drains.")},
    };
    pages << r;

    r = {};
    r.id = QStringLiteral("relay-stale");
    r.title = QStringLiteral("A registered relay stopped sending heartbeats");
    r.severity = QStringLiteral("warning");
    r.summary = QStringLiteral(
        "A registered relay's heartbeat is older than `[doctor] relay_stale_heartbeats` intervals: the "
        "process died, hangs or lost its database connection. Its leases expire and other relays reap "
        "them.");
    r.causes = {
        {"died", QT_TRANSLATE_NOOP(
                     "outbox::Runbook",
                     "The relay process died without deregistering (killed, out of memory, its host went "
                     "down).")},
        {"database",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The relay lost its database connection and cannot write its heartbeat.")},
        {"hangs",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The relay hangs (e.g. blocked in a call to the broker) and its heartbeat thread "
                           "stopped.")},
    };
    r.steps = {
        {"look",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Look for the process on its host (host and pid are in the evidence) and read its log.")},
        {"restart",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "If it hangs, restart it; a relay that drains on SIGTERM finishes what it holds first.")},
        {"leases",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Its %1 SENDING lease(s) expire and any running relay reaps them back to PENDING; "
                           "expired-leases reports them if nobody does."),
         "the stale relays held leases", "N"},
        {"forget", QT_TRANSLATE_NOOP(
                       "outbox::Runbook",
                       "A relay that is gone for good keeps its registration: forget it (prepared below) so "
                       "that this finding clears.")},
    };
    pages << r;

    r = {};
    r.id = QStringLiteral("relay-degraded");
    r.title = QStringLiteral("A relay is DEGRADED and claims nothing");
    r.severity = QStringLiteral("critical when no relay is healthy, else warning");
    r.summary = QStringLiteral(
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
    pages << r;

    r = {};
    r.id = QStringLiteral("backlog-age");
    r.title = QStringLiteral("The oldest PENDING event is older than the threshold");
    r.severity = QStringLiteral("warning, critical after `[doctor] backlog_age_critical`");
    r.summary = QStringLiteral(
        "The oldest PENDING event waited longer than `[doctor] backlog_age` (default 5 min; critical after "
        "`backlog_age_critical`, default 30 min): relays are missing, paused, degraded or too slow.");
    r.causes = {
        {"no-relay", QT_TRANSLATE_NOOP("outbox::Runbook", "No relay is running (see no-relay)."),
         "no relay runs"},
        {"paused", QT_TRANSLATE_NOOP("outbox::Runbook", "%1 relay(s) are paused by an operator: %2."),
         "relays are paused", "N, WORKERS"},
        {"degraded",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "%1 relay(s) are DEGRADED and claim nothing (see relay-degraded)."),
         "relays are DEGRADED", "N"},
        {"backing-off",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "%1 of the oldest %2 PENDING events wait for a retry after transient errors (their available_at "
             "is in the future)."),
         "some of the oldest events back off", "N, WINDOW"},
        {"too-slow",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The running relays do not keep up with the rate of new events (too few workers, slow broker "
             "acknowledgements, a slow database)."),
         "relays are working"},
        {"blocked",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "In ordering mode, events wait behind a FAILED event of their aggregate (see "
                           "blocked-aggregates)."),
         "FAILED events exist"},
    };
    r.steps = {
        {"start",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Start a relay against this database (prepared below), or restart the relay service."),
         "no relay runs"},
        {"resume",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "If the pause is over, resume the paused relays (prepared below)."),
         "relays are paused"},
        {"logs",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Read the relays' logs for errors, and outboxctl status for their throughput.")},
        {"scale",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "If the relays are busy but too slow, add workers (outboxctl relay --workers N) or more "
             "relay processes; they share the table safely.")},
        {"again",
         QT_TRANSLATE_NOOP("outbox::Runbook", "Run outboxctl doctor again and watch the oldest age fall.")},
    };
    pages << r;

    r = {};
    r.id = QStringLiteral("expired-leases");
    r.title = QStringLiteral("SENDING events hold expired leases nobody reaps");
    r.severity = QStringLiteral("warning");
    r.summary = QStringLiteral(
        "SENDING events are past `lease_until` for longer than `[doctor] expired_lease_grace`: no running "
        "relay reaps them back to PENDING.");
    r.causes = {
        {"no-relay",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "No relay is running, and expired leases are returned to PENDING only by a running relay's "
             "reaper (see no-relay)."),
         "no relay runs"},
        {"reaper-fails",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The running relays' lease reaper fails (read their logs for \"reap\" errors, e.g. a lock "
             "timeout or missing privileges)."),
         "relays run"},
        {"holder-died",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The relay holding them died while sending: its lease ran out and no relay took "
                           "the events back yet.")},
    };
    r.steps = {
        {"run-relay",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Make sure at least one relay runs: every relay reaps expired leases every half "
                           "lease.")},
        {"requeue",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Or requeue the SENDING events with an expired lease now (prepared below); events whose "
             "lease is still live are left alone, so a working relay keeps what it holds.")},
        {"duplicates",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Events that the dead relay may have delivered already are sent again with the same "
             "event_id: consumers with an inbox ignore the duplicate.")},
    };
    pages << r;

    r = {};
    r.id = QStringLiteral("held-claims");
    r.title = QStringLiteral("Held batches outlived their relay and are not reaped");
    r.severity = QStringLiteral("warning");
    r.summary = QStringLiteral(
        "PostgreSQL with `relay.claim_mode = held`: journal rows of held batches are past their hold time "
        "for longer than `[doctor] expired_lease_grace`. Their relay died and no held relay reaps the "
        "journal, so the attempts of those batches are not counted.");
    r.causes = {
        {"holder-died",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The relay that held them died or was cut off while sending, and no relay runs with "
             "claim_mode = held: only held relays reap this journal.")},
        {"reaper-fails",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The held relays' reaper fails (read their logs for \"reaping held claims "
                           "failed\", e.g. missing privileges on outbox_held_claims after an upgrade).")},
    };
    r.steps = {
        {"nothing-lost",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Nothing is lost or stuck: the events went back to PENDING when their holder's "
             "connection closed, and relays send them again (consumers ignore the duplicate).")},
        {"attempts",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "What is missing is the attempt each of those batches began: until it is counted, an "
             "event that crashes every relay cannot reach its attempt limit and become DEAD.")},
        {"run-held",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Run at least one relay with --claim-mode held (or relay.claim_mode = held): it counts "
             "the attempts and removes the rows within a lease.")},
        {"grants", QT_TRANSLATE_NOOP(
                       "outbox::Runbook",
                       "A runtime role granted before migration 11 needs the grants printed by `outboxctl "
                       "migrate --print-grants` again.")},
    };
    pages << r;

    r = {};
    r.id = QStringLiteral("failed-events");
    r.title = QStringLiteral("Events FAILED and need an operator");
    r.severity = QStringLiteral("critical");
    r.summary = QStringLiteral(
        "One finding per failure group (error class and fingerprint) of FAILED events. A FAILED event is "
        "never retried on its own: the broker refused it for a reason that retrying cannot change, or "
        "(ordering mode) its attempts ran out. The doctor picks the causes and steps below by the "
        "group's error and prepares a requeue and a mark-DEAD of the group.");
    pages << r;

    r = {};
    r.id = QStringLiteral("dead-events");
    r.title = QStringLiteral("Events went DEAD recently");
    r.severity = QStringLiteral(
        "warning; info when older than `[doctor] dead_recent` or when an operator marked them DEAD");
    r.summary = QStringLiteral(
        "One finding per error group of DEAD events: the relay gave up on them (attempts exhausted or a "
        "deterministic error), or an operator marked them DEAD. The doctor picks the causes and steps "
        "below by the group's error and prepares a requeue of the group.");
    r.causes = {
        {"operator",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "An operator marked them DEAD (audit #%1: \"%2\"); this is a record of that decision."),
         "the audit log shows an operator marked them", "AUDIT ID, REASON"},
    };
    pages << r;

    r = {};
    r.id = QStringLiteral("blocked-aggregates");
    r.title = QStringLiteral("Aggregates are blocked behind a FAILED event");
    r.severity = QStringLiteral("critical");
    r.summary = QStringLiteral(
        "In ordering mode, later events of some aggregates wait behind a FAILED event for longer than "
        "`[doctor] blocked_after`: nothing of those aggregates is delivered until an operator requeues "
        "the blocking event or marks it DEAD.");
    r.causes = {
        {"ordering",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The relays run in ordering mode (--ordering aggregate): an event is sent only after "
             "every earlier event of its aggregate, so a FAILED event holds back all later ones.")},
        {"failed",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The FAILED event itself failed for a reason failed-events explains (a poison payload, "
             "a topic ACL, attempts exhausted).")},
    };
    r.steps = {
        {"list", QT_TRANSLATE_NOOP(
                     "outbox::Runbook",
                     "List every blocked aggregate with its blocking event, since when and how many events "
                     "wait: `outboxctl events blocked`, the console's Blocked page or GET "
                     "/api/v1/events/blocked.")},
        {"open",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Open the blocking event (samples) and read its error; failed-events has the "
                           "cause-specific runbook for its group.")},
        {"requeue",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Fix the cause, then requeue the blocking events (prepared below): they are sent first, "
             "and the waiting events of their aggregates follow in order.")},
        {"dead",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "If a blocking event must never be sent, mark it DEAD (prepared below): the waiting events "
             "of its aggregate are then sent after it, without it. Make sure the consumers can live "
             "with the gap in that aggregate's history.")},
    };
    pages << r;

    r = {};
    r.id = QStringLiteral("dead-letters");
    r.title = QStringLiteral("Consumers dead-lettered messages");
    r.severity = QStringLiteral("warning");
    r.summary = QStringLiteral(
        "NEW dead letters, one finding per consumer and error fingerprint: the consumer gave up on these "
        "messages. Replay or discard them once the cause is fixed.");
    r.causes = {
        {"gave-up",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Consumer %1 gave up on these messages: the handler failed for good (a poison message, missing "
             "reference data, a bug) or its retries ran out."),
         "", "CONSUMER"},
        {"kept", QT_TRANSLATE_NOOP(
                     "outbox::Runbook",
                     "The messages stay in dead_letters with their original bytes, key and headers; nothing "
                     "retries them on its own.")},
    };
    r.steps = {
        {"open", QT_TRANSLATE_NOOP("outbox::Runbook",
                                   "Open a sample dead letter and read its error, payload and context.")},
        {"fix", QT_TRANSLATE_NOOP(
                    "outbox::Runbook",
                    "Outside the product: fix the consumer or the data it missed (deploy the fix, add the "
                    "reference data).")},
        {"edit",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "When the payload itself is the cause (a typo, a wrong value, a missing field), repair the "
             "group's payloads before replaying, or the replay makes the same dead letters again: one JSON "
             "change for the whole group, every diff previewed, with a reason (outboxctl dlq edit-group "
             "--consumer NAME --group-class CLASS --group FINGERPRINT --set PATH --to VALUE --dry-run, then "
             "without --dry-run). Each letter keeps its original and the edit is audited in chunks.")},
        {"replay",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Replay the group (prepared below): a running relay produces the messages again to their "
             "topic with their original event_id, and the consumer's inbox keeps it idempotent.")},
        {"discard",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "If the messages are not needed any more, discard them (prepared below); the decision "
             "stays in the audit log.")},
    };
    pages << r;

    r = {};
    r.id = QStringLiteral("replay-stuck");
    r.title = QStringLiteral("Dead-letter replays are stuck in REPLAYING");
    r.severity = QStringLiteral("warning");
    r.summary = QStringLiteral(
        "Dead letters stay REPLAYING longer than `[doctor] replay_stuck`: no relay delivers them, or the "
        "delivery fails.");
    r.causes = {
        {"no-relay",
         QT_TRANSLATE_NOOP("outbox::Runbook", "No relay is running, and REPLAYING dead letters are delivered "
                                              "by a running relay (every second) "
                                              "or by outboxctl dlq replay --deliver."),
         "no relay runs"},
        {"fails",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The relays try to deliver them and fail: the replay topic is unknown or not writable, or the "
             "relays are DEGRADED (read the relays' logs for \"replay\")."),
         "relays run"},
        {"wrong-topic", QT_TRANSLATE_NOOP("outbox::Runbook",
                                          "A replay to another topic names a topic that does not exist.")},
    };
    r.steps = {
        {"relay",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Check that a relay runs (no-relay, relay-degraded) and read its log for replay errors.")},
        {"deliver",
         QT_TRANSLATE_NOOP("outbox::Runbook", "Deliver them now without a relay (prepared below, with the "
                                              "broker this database's relays publish "
                                              "to); "
                                              "the command says which dead letters fail and why.")},
        {"topic",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "If the topic is wrong, fix it outside the product (create it, grant the ACL); a replay "
             "that finally goes out marks the dead letters REPLAYED.")},
    };
    pages << r;

    r = {};
    r.id = QStringLiteral("unconsumed");
    r.title = QStringLiteral("Sent events were not processed by a consumer");
    r.severity = QStringLiteral("warning");
    r.summary = QStringLiteral(
        "Events SENT longer ago than `[doctor] unconsumed_older_than` (looking back "
        "`unconsumed_window` before that) that a consumer of `[doctor] consumers` has not PROCESSED: the "
        "consumer is down, lagging or dead-lettering. Only events of the topics the consumer subscribes to "
        "count (`outboxctl consume` records them when it starts; not recorded: every topic), and not events "
        "whose dead letter an operator discarded or replayed. Unconsumed events just before the window are "
        "counted apart; older ones are not checked (the finding says so; `outboxctl reconcile --list` "
        "lists them all). One finding per consumer.");
    r.causes = {
        {"down",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Consumer %1 is not running, or lags far behind (its consumer group's lag shows it)."),
         "", "CONSUMER"},
        {"dead-lettered",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The consumer received the events and dead-lettered them (see dead-letters for "
                           "%1)."),
         "", "CONSUMER"},
        {"topics",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The consumer subscribes to other topics than the events were sent to.")},
        {"topics-unknown",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Consumer %1 has not recorded the topics it subscribes to (a consumer of another make, or "
             "one on RabbitMQ without [consumer] topics): events of every topic are counted."),
         "the consumer recorded no topics", "CONSUMER"},
        {"inbox", QT_TRANSLATE_NOOP("outbox::Runbook",
                                    "The consumer writes its inbox to another database than this one.")},
    };
    r.steps = {
        {"lag",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Check that consumer %1 runs and look at its consumer-group lag (kafka-consumer-groups "
             "--describe --group GROUP)."),
         "", "CONSUMER"},
        {"dead-letters",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Look for dead letters of %1 (outboxctl dlq list --consumer %1)."),
         "", "CONSUMER"},
        {"list",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "List every unconsumed event, beyond this check's window (prepared below).")},
        {"resend",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "If the events were lost on the way (e.g. a topic was deleted and recreated), send them "
             "again (prepared below): the consumer's inbox ignores any it already processed. Events with a "
             "dead letter of the consumer, or one an operator discarded, are never sent again: decide "
             "their dead letters instead.")},
    };
    pages << r;

    r = {};
    r.id = QStringLiteral("contract-violations");
    r.title = QStringLiteral("Rows in the outbox or inbox break the writer and inbox contract");
    r.severity = QStringLiteral("critical for events that would never be published, else warning");
    r.summary = QStringLiteral(
        "A service wrote rows against docs/contract.md, among the newest 100,000 of each table: events "
        "inserted "
        "as SENT (never published) or SENDING without a lease (never reaped), unsent events without a topic "
        "that `[relay] topic_template` cannot make a valid name for, payloads that are no JSON object or "
        "array or headers that are no JSON object, headers of a name the relay sets itself, created_at or "
        "available_at in the future (a writer in another time zone), or inbox rows of a status other than "
        "PROCESSED/FAILED. One finding per kind of violation.");
    r.causes = {
        {"created-sent",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "A writer sets status = 'SENT' in its INSERT, or a script updated events to SENT by "
             "hand instead of requeueing or marking them DEAD."),
         "events SENT without sent_at"},
        {"created-sending",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "A writer sets status = 'SENDING' in its INSERT, or a script changed status by "
                           "hand without the relay's lease columns."),
         "events SENDING without a lease"},
        {"no-topic",
         QT_TRANSLATE_NOOP("outbox::Runbook", "The writer leaves topic NULL for aggregate or event types "
                                              "that are no valid topic name once put "
                                              "in the template (letters, digits, . _ - only)."),
         "unsent events without a usable topic"},
        {"not-json",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The writer stores a payload that is no JSON object or array (text that is not "
                           "JSON, or a bare string or number), or headers that are no JSON object (an array, "
                           "a string): text columns cannot refuse them, nor PostgreSQL before schema 18."),
         "payload or headers not JSON"},
        {"reserved-header",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The writer puts a member named like one of the relay's own headers (event_id, "
                           "event_type, aggregate_type, aggregate_id, schema_version, aggregate_version, "
                           "x-replay-*, x-replayed-by) into headers; the relay drops it and sends its own."),
         "events with a reserved header name"},
        {"future-time",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "A writer writes local time into UTC columns: MariaDB/MySQL NOW(6) or "
                           "CURRENT_TIMESTAMP(6) in a session whose time_zone is not +00:00 (DATETIME has "
                           "no zone), or a time taken from the application's clock in its own zone. The "
                           "relay claims the event only when available_at has come."),
         "events held back by a time in the future"},
        {"inbox-status",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "A consumer writes its own statuses (e.g. RECEIVED, DONE) into the inbox table."),
         "inbox rows of an unknown status"},
    };
    r.steps = {
        {"rule",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "A writer inserts only event_id, event_type, aggregate_type, aggregate_id and payload (and "
             "may set topic, headers, aggregate_version, schema_version, available_at); status, "
             "attempts, leases and sent_at belong to the relay (docs/contract.md).")},
        {"fix-status",
         QT_TRANSLATE_NOOP("outbox::Runbook", "Fix the writer: leave status to its default (PENDING)."),
         "events SENT or SENDING as written"},
        {"resend",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Send the events (prepared below): they go back to PENDING and the relay publishes them with "
             "their "
             "own event_id; an inbox skips any a consumer already has."),
         "events SENT without sent_at"},
        {"requeue",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Requeue the events (prepared below): no relay holds them, so forcing takes nothing from a "
             "working "
             "relay."),
         "events SENDING without a lease"},
        {"topic",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Set topic in the writer's INSERT, or change relay.topic_template so that it makes a valid name "
             "of "
             "these types (%1); then requeue the FAILED ones (outboxctl requeue --status FAILED)."),
         "unsent events without a usable topic", "TYPES"},
        {"json",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Fix the writer: payload is a JSON object or array, headers a JSON object whose values are "
             "strings. Consumers refuse such messages into their dead letters; mark these events DEAD if "
             "nobody should receive them (prepared below)."),
         "payload or headers not JSON"},
        {"reserved",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Fix the writer: rename the header (e.g. order_event_id). Consumers see only the "
                           "relay's value of these names (docs/contract.md, \"Headers\")."),
         "events with a reserved header name"},
        {"utc",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Fix the writer: leave available_at and created_at to their defaults, or write "
             "UTC (MariaDB/MySQL: UTC_TIMESTAMP(6), or SET time_zone = '+00:00' in the "
             "session). To send the events already written now: outboxctl dead ID… then outboxctl "
             "requeue ID… (both audited; a requeue sets available_at to now)."),
         "events held back by a time in the future"},
        {"inbox",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Fix the consumer: PROCESSED in the transaction of its effect, FAILED with the dead letter "
             "(docs/contract.md, \"Inbox contract\"); until then reconcile counts these events as "
             "unprocessed."),
         "inbox rows of an unknown status"},
    };
    pages << r;

    r = {};
    r.id = QStringLiteral("table-health");
    r.title = QStringLiteral("The outbox table is bloated or retention does not keep up");
    r.severity = QStringLiteral("warning");
    r.summary = QStringLiteral(
        "PostgreSQL: the outbox table's dead-tuple share is above `[doctor] dead_tuple_percent`, or "
        "autovacuum is off for it. Every database: SENT rows are older than `[relay] retention` plus a "
        "day. Claims and the console slow down and the table grows.");
    r.causes = {
        {"dead-tuples",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Every status change of an outbox row leaves a dead tuple; autovacuum's defaults (vacuum at 20% "
             "of the table) let a busy queue table bloat."),
         "dead tuples above the threshold"},
        {"autovacuum-off",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Autovacuum is off (server setting or the table's autovacuum_enabled)."),
         "dead tuples above the threshold and autovacuum off"},
        {"horizon",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "A long-running transaction (or an abandoned replication slot) holds back the cleanup horizon, "
             "so vacuum cannot remove the dead rows."),
         "dead tuples above the threshold"},
        {"autovacuum-turned-off",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Autovacuum was turned off on the server or for this table; every status change of an outbox "
             "row leaves a dead tuple that nothing removes."),
         "autovacuum off (dead tuples below the threshold)"},
        {"retention-no-relay",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "No relay runs the retention cleanup (it runs inside every relay)."),
         "SENT rows outlive the retention"},
        {"retention-setting",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The relays run with --retention 0 (keep everything) or a longer window than [doctor] "
             "retention."),
         "SENT rows outlive the retention"},
        {"retention-rate",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The cleanup deletes in bounded batches and falls behind a very high event rate."),
         "SENT rows outlive the retention"},
    };
    r.steps = {
        {"old-transactions",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Outside the product (psql): look for old transactions: SELECT pid, now() - xact_start, state, "
             "query FROM pg_stat_activity ORDER BY xact_start LIMIT 5; end those that should not be there."),
         "dead tuples above the threshold"},
        {"vacuum", QT_TRANSLATE_NOOP("outbox::Runbook", "Vacuum the table now: %1"),
         "dead tuples above the threshold", "VACUUM STATEMENT"},
        {"autovacuum-on",
         QT_TRANSLATE_NOOP("outbox::Runbook", "Outside the product (psql): turn autovacuum back on (ALTER "
                                              "TABLE %1 RESET (autovacuum_enabled), "
                                              "or autovacuum = on in postgresql.conf)."),
         "autovacuum off", "TABLE"},
        {"tune", QT_TRANSLATE_NOOP("outbox::Runbook", "Make autovacuum keep up with a queue table: %1"),
         "dead tuples or autovacuum off", "ALTER TABLE STATEMENT"},
        {"again", QT_TRANSLATE_NOOP("outbox::Runbook", "Run outboxctl doctor again after the vacuum."),
         "dead tuples above the threshold"},
        {"retention-setting",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Check the relays' --retention against [doctor] retention; set them to the same value."),
         "SENT rows outlive the retention"},
        {"retention-relay",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Make sure a relay runs: it deletes SENT rows older than its retention in "
                           "batches."),
         "SENT rows outlive the retention"},
        {"retention-backlog",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "If the backlog of old rows is huge, delete it in batches outside peak hours (or drop old "
             "partitions where the table is partitioned)."),
         "SENT rows outlive the retention"},
    };
    pages << r;

    r = {};
    r.id = QStringLiteral("notify-lock-wait");
    r.title = QStringLiteral("Writers' commits wait for the notification lock");
    r.severity = QStringLiteral("warning");
    r.summary = QStringLiteral(
        "PostgreSQL: the wake-up trigger is on (`outboxctl notify on`; off by default since migration 19) "
        "and the services' commits queue for the lock every notifying commit takes across its WAL flush "
        "(`pg_stat_activity`: wait_event_type `Lock`, wait_event `object`). Each writing service pays it "
        "inside its own transaction: 25-84 % of the commit rate at 8-64 durable writers "
        "(docs/benchmarks.md). Relays do not need it: they wake by the doorbell or by polling.");
    r.causes = {
        {"switched-on",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "An operator switched notifications on with outboxctl notify on (the audit log "
                           "keeps who, when and why: outboxctl audit --action notify.on), and more than one "
                           "writer now commits at a time.")},
        {"never-off",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The trigger was enabled with SQL (ALTER TABLE … ENABLE TRIGGER) or by a script; "
                           "nothing recorded why.")},
    };
    r.steps = {
        {"cost", QT_TRANSLATE_NOOP(
                     "outbox::Runbook",
                     "Every writing service's commit waits here: its commit rate is capped at about one "
                     "notifying commit per WAL flush of the server, whatever the machine.")},
        {"off",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Switch back to the default, as the schema owner: outboxctl notify off --reason "
                           "TEXT --yes. Running relays notice within a heartbeat and wake by the doorbell or "
                           "by polling (relay.poll_ms); nothing is lost.")},
        {"single-writer",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Keep notifications on only where a single writer commits at a time and the "
                           "lowest idle latency matters more than the writers' throughput.")},
    };
    pages << r;

    r = {};
    r.id = QStringLiteral("schema-outdated");
    r.title = QStringLiteral("The database schema is behind this binary's migrations");
    r.severity = QStringLiteral("critical");
    r.summary =
        QStringLiteral("The outbox schema is older than the migrations of this `outboxctl` (or missing): run "
                       "`outboxctl migrate`.");
    r.causes = {
        {"not-migrated",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "This binary was upgraded but outboxctl migrate was not run against this "
                           "database.")},
        {"other-target",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The application, the relays and this tool use different table prefixes or "
                           "databases.")},
    };
    r.steps = {
        {"read",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Read what the migrations change in the release notes; they are idempotent and upgrade an "
             "existing database in place.")},
        {"migrate",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Run the migration (prepared below) with an account that may change the schema.")},
        {"restart",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "Restart the relays and consoles of older versions after the migration.")},
    };
    pages << r;

    // Alerts about the doctor itself (resources/prometheus/outbox.rules.yml), no check behind them.
    r = {};
    r.id = QStringLiteral("doctor-failing");
    r.finding = false;
    r.title = QStringLiteral("The doctor cannot diagnose the outbox");
    r.severity = QStringLiteral("warning (alert OutboxDoctorFailing)");
    r.summary = QStringLiteral(
        "`outbox_diagnosis_up` is 0: the last run of the doctor in `outboxctl serve` failed, or one of its "
        "checks failed. The findings, and every alert built on them, may be out of date.");
    r.causes = {
        {"database",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The database cannot be reached from the server that runs outboxctl serve.")},
        {"privileges",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The role of outboxctl serve lacks a privilege a check needs (e.g. after an "
                           "upgrade added a table).")},
        {"schema",
         QT_TRANSLATE_NOOP("outbox::Runbook", "The schema is outdated or missing (see schema-outdated).")},
    };
    r.steps = {
        {"timings", QT_TRANSLATE_NOOP(
                        "outbox::Runbook",
                        "Run outboxctl doctor --timings against the same database and configuration: failed "
                        "checks are printed on stderr with their error.")},
        {"fix", QT_TRANSLATE_NOOP(
                    "outbox::Runbook",
                    "Fix what the error names (connection, grants from outboxctl migrate --print-grants, "
                    "outboxctl migrate), then watch outbox_diagnosis_up return to 1.")},
    };
    pages << r;

    r = {};
    r.id = QStringLiteral("metrics-missing");
    r.finding = false;
    r.title = QStringLiteral("No outbox doctor metrics are scraped");
    r.severity = QStringLiteral("warning (alert OutboxMetricsMissing)");
    r.summary = QStringLiteral(
        "Prometheus scrapes no `outbox_diagnosis_up`: `outboxctl serve` is down, not scraped, or refuses "
        "the scrape token. No outbox alert can fire meanwhile.");
    r.causes = {
        {"down", QT_TRANSLATE_NOOP("outbox::Runbook",
                                   "outboxctl serve does not run (its unit failed or was stopped).")},
        {"scrape",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Prometheus does not scrape its /metrics, or sends no or a wrong viewer token (401).")},
    };
    r.steps = {
        {"service",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Check that outboxctl serve runs: systemctl status 'outbox-serve@*' and its journal.")},
        {"target", QT_TRANSLATE_NOOP(
                       "outbox::Runbook",
                       "Check the scrape target in Prometheus (Status › Targets): the address, and a viewer "
                       "token as bearer token.")},
        {"meanwhile", QT_TRANSLATE_NOOP("outbox::Runbook",
                                        "Meanwhile run outboxctl doctor by hand against the database.")},
    };
    pages << r;

    r = {};
    r.id = QStringLiteral("database-unreachable");
    r.finding = false;
    r.title = QStringLiteral("A database of the fleet does not answer");
    r.severity = QStringLiteral("critical (alert OutboxDatabaseUnreachable)");
    r.summary = QStringLiteral(
        "`outbox_member_up{database=\"NAME\"}` is 0: `outboxctl serve --fleet FILE` could not sample that "
        "member within the fleet's `timeout`. Nothing is known about its outbox meanwhile (the wall shows "
        "the member unreachable with its error), and its relays may be stuck too.");
    r.causes = {
        {"down",
         QT_TRANSLATE_NOOP("outbox::Runbook", "The database server is down, restarting or failing over.")},
        {"network",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The network between the server of outboxctl serve and the database drops or "
                           "black-holes the connection (firewall, routing, DNS).")},
        {"login",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "The database refuses the login: a changed password (OUTBOX_DB_PASSWORD_<MEMBER> or the "
             "member's password_file), a dropped role, too many connections.")},
        {"slow",
         QT_TRANSLATE_NOOP("outbox::Runbook",
                           "The database answers slower than the fleet's timeout (overload, locks).")},
    };
    r.steps = {
        {"status",
         QT_TRANSLATE_NOOP(
             "outbox::Runbook",
             "Run outboxctl status --fleet FILE on the server of outboxctl serve: the member's line "
             "carries the error (connection refused, timeout, authentication).")},
        {"doctor", QT_TRANSLATE_NOOP(
                       "outbox::Runbook",
                       "Run outboxctl doctor --fleet FILE --member NAME to connect to that member alone and "
                       "see the whole error.")},
        {"fix", QT_TRANSLATE_NOOP(
                    "outbox::Runbook",
                    "Fix what the error names; the member turns healthy on the wall within one fleet "
                    "interval once it answers (a member that failed twice is retried with backoff, at most "
                    "5 minutes).")},
    };
    pages << r;

    // failed-events and dead-events: the advice by cause is FailureAdvice's own table.
    for (Runbook& page : pages) {
        const bool failed = page.id == QLatin1String("failed-events");
        const bool dead = page.id == QLatin1String("dead-events");
        if (!failed && !dead)
            continue;
        QString text;
        for (FailureAdvice::Cause cause : FailureAdvice::allCauses()) {
            const FailureAdvice a = FailureAdvice::forCause(cause, dead);
            text += QStringLiteral("\n## When the error is %1\n\n").arg(a.title);
            text += QStringLiteral("Likely causes:\n\n");
            for (const QString& c : a.causes)
                text += QStringLiteral("- %1\n").arg(c);
            text += QStringLiteral("\nWhat to do:\n\n");
            int n = 0;
            for (const QString& s : a.runbook)
                text += QStringLiteral("%1. %2\n").arg(++n).arg(s);
        }
        page.extraMarkdown = text;
    }
    return pages;
}

// What the page shows for %1, %2 …: the names of `args`.
QString withArgs(const RunbookLine& line)
{
    QString text = QString::fromUtf8(line.text);
    const QStringList names = QString::fromUtf8(line.args).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (int i = int(names.size()); i >= 1; --i)
        text.replace(QStringLiteral("%%1").arg(i), names.at(i - 1).trimmed());
    if (*line.when)
        text += QStringLiteral(" *(when %1)*").arg(QString::fromUtf8(line.when));
    return text;
}

QString lineText(const QVector<RunbookLine>& lines, const char* key, const QString& id)
{
    Q_UNUSED(id) // in release builds, where the assertion is compiled out
    for (const RunbookLine& l : lines)
        if (qstrcmp(l.key, key) == 0)
            return translated(l.text);
    Q_ASSERT_X(false, "Runbook", qPrintable(id + QLatin1Char('/') + QLatin1String(key)));
    return QString::fromUtf8(key);
}

} // namespace

QString Runbook::cause(const char* key) const
{
    return lineText(causes, key, id);
}

QString Runbook::step(const char* key) const
{
    return lineText(steps, key, id);
}

QString Runbook::generatedHeader()
{
    return QStringLiteral(
        "<!-- GENERATED from core/diagnosis/Runbook.cpp (the text the doctor prints) by\n"
        "     build/app/outboxctl/outboxctl help --docs docs\n"
        "     Do not edit: tst_docs fails when this file differs from what the command writes. -->\n\n");
}

QString Runbook::markdown() const
{
    QString page = generatedHeader();
    page += QStringLiteral("# %1: %2\n\n").arg(id, title);
    page += QStringLiteral("**Severity:** %1.  \n").arg(severity);
    if (finding)
        page += QStringLiteral(
                    "**Check:** `outboxctl doctor --check %1` (alert: `outbox_findings{id=\"%1\"}`)\n\n")
                    .arg(id);
    else
        page += QStringLiteral("**Not a finding:** an alert about the doctor itself.\n\n");
    page += summary + QStringLiteral("\n");
    if (!causes.isEmpty()) {
        page += QStringLiteral("\n## Likely causes\n\n");
        for (const RunbookLine& c : causes)
            page += QStringLiteral("- %1\n").arg(withArgs(c));
    }
    if (!steps.isEmpty()) {
        page += QStringLiteral("\n## What to do\n\n");
        int n = 0;
        for (const RunbookLine& s : steps)
            page += QStringLiteral("%1. %2\n").arg(++n).arg(withArgs(s));
    }
    page += extraMarkdown;
    page += QStringLiteral("\n---\n\n");
    if (finding)
        page += AlwaysAfter + QStringLiteral("\n\n");
    page += QStringLiteral("All runbooks: [README.md](README.md).\n");
    return page;
}

QString Runbook::indexMarkdown()
{
    QString page = generatedHeader();
    page += QStringLiteral(
        "# Runbooks\n\n"
        "One page per finding of `outboxctl doctor` (the ids are a contract: alert rules, scripts and the "
        "console match on them) and per alert about the doctor itself. Each Prometheus alert of "
        "`resources/prometheus/outbox.rules.yml` links its page in `runbook_url`; `outboxctl serve` "
        "serves the same pages at `/docs/runbooks/<id>`.\n\n"
        "| id | severity | |\n|---|---|---|\n");
    for (const Runbook& r : all())
        page += QStringLiteral("| [%1](%1.md) | %2 | %3 |\n").arg(r.id, r.severity, r.title);
    return page;
}

const QVector<Runbook>& Runbook::all()
{
    static const QVector<Runbook> pages = build();
    return pages;
}

const Runbook* Runbook::find(const QString& id)
{
    for (const Runbook& r : all())
        if (r.id == id)
            return &r;
    return nullptr;
}

const Runbook& Runbook::of(const QString& id)
{
    const Runbook* r = find(id);
    Q_ASSERT_X(r, "Runbook::of", qPrintable(id));
    static const Runbook none;
    return r ? *r : none;
}

} // namespace outbox
