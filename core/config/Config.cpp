#include "core/config/Config.h"

#include "core/config/IniFile.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSet>

namespace outbox::config {

namespace {

ConfigKey text(QString key, QString flag, QString env, QString defaultValue, QString valueName, QString help)
{
    ConfigKey k;
    k.key = std::move(key);
    k.flag = std::move(flag);
    k.env = std::move(env);
    k.defaultValue = std::move(defaultValue);
    k.valueName = std::move(valueName);
    k.help = std::move(help);
    return k;
}

ConfigKey integer(QString key, QString flag, QString env, qint64 defaultValue, qint64 min, qint64 max,
                  QString valueName, QString help)
{
    ConfigKey k = text(std::move(key), std::move(flag), std::move(env), QString::number(defaultValue),
                       std::move(valueName), std::move(help));
    k.type = ValueType::Integer;
    k.min = min;
    k.max = max;
    return k;
}

ConfigKey boolean(QString key, QString flag, QString flagSets, QString env, bool defaultValue, QString help)
{
    ConfigKey k =
        text(std::move(key), std::move(flag), std::move(env),
             defaultValue ? QStringLiteral("true") : QStringLiteral("false"), QString(), std::move(help));
    k.type = ValueType::Boolean;
    k.flagSets = std::move(flagSets);
    return k;
}

ConfigKey typed(ConfigKey k, ValueType type)
{
    k.type = type;
    return k;
}

ConfigKey secret(QString key, QString env, QString help)
{
    ConfigKey k = text(std::move(key), QString(), std::move(env), QString(), QString(), std::move(help));
    k.secret = true;
    return k;
}

QVector<ConfigKey> buildKeys()
{
    // The defaults are those of RelayOptions, ConsumerOptions and DiagnosisOptions (tst_config
    // checks that they agree); config sits below their owners and does not include them.
    QVector<ConfigKey> keys;
    // [general]
    keys << text(QStringLiteral("general.actor"), QStringLiteral("actor"), QStringLiteral("OUTBOX_ACTOR"),
                 QString(), QStringLiteral("name"),
                 QStringLiteral("Who acts, for the audit log (default: the login name)."));
    keys << text(
        QStringLiteral("general.fleet"), QStringLiteral("fleet"), QStringLiteral("OUTBOX_FLEET"), QString(),
        QStringLiteral("file"),
        QStringLiteral("Fleet file: the databases doctor, status and serve watch together, one [member NAME] "
                       "section each (see docs/operator-guide.md, \"Watch a fleet\")."));
    // [database]
    keys << text(
        QStringLiteral("database.url"), QStringLiteral("db"), QStringLiteral("OUTBOX_DB_URL"), QString(),
        QStringLiteral("url"),
        QStringLiteral("Database URL: postgresql://user@host:5432/db, mysql://…, sqlite:///path.db."));
    keys << secret(QStringLiteral("database.password"), QStringLiteral("OUTBOX_DB_PASSWORD"),
                   QStringLiteral("Database password, when the URL has none (never a flag)."));
    ConfigKey prefix = text(QStringLiteral("database.table_prefix"), QStringLiteral("table-prefix"),
                            QStringLiteral("OUTBOX_DB_TABLE_PREFIX"), QString(), QStringLiteral("prefix"),
                            QStringLiteral("Prefix of the outbox tables (t_ for t_outbox_events)."));
    // Lower case only (PostgreSQL folds unquoted names to lower case); Database::open and the fleet
    // file check prefixes against this pattern.
    prefix.pattern = QStringLiteral("[a-z_][a-z0-9_]{0,30}");
    // Translated where it is shown (check(), the fleet file's table_prefix).
    prefix.patternHelp = QString::fromUtf8(QT_TRANSLATE_NOOP(
        "outbox::config::Config",
        "must be a lower-case letter or _ followed by up to 30 lower-case letters, digits or _"));
    keys << prefix;
    // [kafka]: bootstrap and any librdkafka property
    keys << text(QStringLiteral("kafka.bootstrap"), QStringLiteral("kafka-bootstrap"),
                 QStringLiteral("OUTBOX_KAFKA_BOOTSTRAP"), QString(), QStringLiteral("host:port"),
                 QStringLiteral("Kafka bootstrap servers."));
    keys << text(QStringLiteral("kafka.sasl.username"), QString(),
                 QStringLiteral("OUTBOX_KAFKA_SASL_USERNAME"), QString(), QString(),
                 QStringLiteral("librdkafka sasl.username."));
    keys << secret(QStringLiteral("kafka.sasl.password"), QStringLiteral("OUTBOX_KAFKA_SASL_PASSWORD"),
                   QStringLiteral("librdkafka sasl.password (never a flag)."));
    // [broker]: which broker (Kafka or RabbitMQ) and its password
    keys << text(QStringLiteral("broker.url"), QStringLiteral("broker"), QStringLiteral("OUTBOX_BROKER_URL"),
                 QString(), QStringLiteral("url"),
                 QStringLiteral("Broker: kafka://host:port[,host:port…] (as --kafka-bootstrap) or "
                                "amqp://user@host:5672/vhost, amqps://… (RabbitMQ)."));
    keys << secret(QStringLiteral("broker.password"), QStringLiteral("OUTBOX_BROKER_PASSWORD"),
                   QStringLiteral("RabbitMQ password, when the URL has none (never a flag)."));
    // [amqp]: RabbitMQ
    keys << text(
        QStringLiteral("amqp.exchange"), QStringLiteral("exchange"), QStringLiteral("OUTBOX_AMQP_EXCHANGE"),
        QStringLiteral("outbox"), QStringLiteral("name"),
        QStringLiteral("Exchange events are published to ({aggregate_type}, {event_type} filled in); "
                       "the routing key is the topic."));
    keys << text(QStringLiteral("amqp.password_file"), QString(), QStringLiteral("OUTBOX_AMQP_PASSWORD_FILE"),
                 QString(), QStringLiteral("file"),
                 QStringLiteral("File holding the RabbitMQ password (its first line)."));
    keys << integer(QStringLiteral("amqp.window"), QString(), QStringLiteral("OUTBOX_AMQP_WINDOW"), 1000, 1,
                    65535, QStringLiteral("n"),
                    QStringLiteral("Unconfirmed publishes in flight on the relay's channel."));
    keys << integer(QStringLiteral("amqp.confirm_timeout_ms"), QString(),
                    QStringLiteral("OUTBOX_AMQP_CONFIRM_TIMEOUT_MS"), 20000, 100, 3600000,
                    QStringLiteral("ms"),
                    QStringLiteral("A publish unconfirmed for this long is retried (same message_id)."));
    keys << text(QStringLiteral("amqp.ca_file"), QString(), QStringLiteral("OUTBOX_AMQP_CA_FILE"), QString(),
                 QStringLiteral("file"), QStringLiteral("amqps: CA certificate (PEM) of the broker's."));
    // [relay]
    keys << integer(QStringLiteral("relay.workers"), QStringLiteral("workers"),
                    QStringLiteral("OUTBOX_RELAY_WORKERS"), 1, 1, 64, QStringLiteral("n"),
                    QStringLiteral("Relay workers in this process."));
    keys << text(QStringLiteral("relay.worker_id"), QStringLiteral("worker-id"),
                 QStringLiteral("OUTBOX_RELAY_WORKER_ID"), QString(), QStringLiteral("id"),
                 QStringLiteral("Worker id (default host-pid-random)."));
    keys << integer(QStringLiteral("relay.batch_size"), QStringLiteral("batch-size"),
                    QStringLiteral("OUTBOX_RELAY_BATCH_SIZE"), 500, 1, 10000, QStringLiteral("n"),
                    QStringLiteral("Events per claim."));
    keys << integer(QStringLiteral("relay.lease_ms"), QStringLiteral("lease-ms"),
                    QStringLiteral("OUTBOX_RELAY_LEASE_MS"), 30000, 1000, 86400000, QStringLiteral("ms"),
                    QStringLiteral("Lease of a claim."));
    keys << integer(QStringLiteral("relay.poll_ms"), QStringLiteral("poll-ms"),
                    QStringLiteral("OUTBOX_RELAY_POLL_MS"), 250, 10, 600000, QStringLiteral("ms"),
                    QStringLiteral("Poll interval when idle."));
    keys << integer(QStringLiteral("relay.linger_ms"), QStringLiteral("linger-ms"),
                    QStringLiteral("OUTBOX_RELAY_LINGER_MS"), 3, 0, 1000, QStringLiteral("ms"),
                    QStringLiteral("Caught up, wait this long after a claim before the next one, so "
                                   "that the commits meanwhile share a claim and a mark."));
    keys << integer(QStringLiteral("relay.poll_min_ms"), QStringLiteral("poll-min-ms"),
                    QStringLiteral("OUTBOX_RELAY_POLL_MIN_MS"), 10, 1, 600000, QStringLiteral("ms"),
                    QStringLiteral("Without wake-ups (no doorbell, --no-notify, MariaDB): first wait after "
                                   "an empty claim, doubling up to poll_ms."));
    keys << integer(
        QStringLiteral("relay.max_attempts"), QStringLiteral("max-attempts"),
        QStringLiteral("OUTBOX_RELAY_MAX_ATTEMPTS"), 10, 1, 1000, QStringLiteral("n"),
        QStringLiteral("Attempts before DEAD: only leases that expired because their relay died "
                       "count (a deterministic refusal is FAILED at once; nacks, retriable errors "
                       "and unanswered publishes spend none)."));
    keys << integer(QStringLiteral("relay.backoff_base_ms"), QStringLiteral("backoff-base-ms"),
                    QStringLiteral("OUTBOX_RELAY_BACKOFF_BASE_MS"), 500, 1, 3600000, QStringLiteral("ms"),
                    QStringLiteral("Backoff base."));
    keys << integer(QStringLiteral("relay.backoff_cap_ms"), QStringLiteral("backoff-cap-ms"),
                    QStringLiteral("OUTBOX_RELAY_BACKOFF_CAP_MS"), 60000, 1, 86400000, QStringLiteral("ms"),
                    QStringLiteral("Backoff cap."));
    ConfigKey ordering = text(QStringLiteral("relay.ordering"), QStringLiteral("ordering"),
                              QStringLiteral("OUTBOX_RELAY_ORDERING"), QStringLiteral("none"),
                              QStringLiteral("mode"), QStringLiteral("none or aggregate."));
    ordering.type = ValueType::Choice;
    ordering.choices = {QStringLiteral("none"), QStringLiteral("aggregate")};
    keys << ordering;
    ConfigKey claimMode =
        text(QStringLiteral("relay.claim_mode"), QStringLiteral("claim-mode"),
             QStringLiteral("OUTBOX_RELAY_CLAIM_MODE"), QStringLiteral("lease"), QStringLiteral("mode"),
             QStringLiteral("lease, or held: row locks kept while sending (PostgreSQL)."));
    claimMode.type = ValueType::Choice;
    claimMode.choices = {QStringLiteral("lease"), QStringLiteral("held")};
    keys << claimMode;
    keys << text(QStringLiteral("relay.topic_template"), QStringLiteral("topic-template"),
                 QStringLiteral("OUTBOX_RELAY_TOPIC_TEMPLATE"), QStringLiteral("{aggregate_type}"),
                 QStringLiteral("template"), QStringLiteral("Topic when the row has none."));
    keys << typed(text(QStringLiteral("relay.retention"), QStringLiteral("retention"),
                       QStringLiteral("OUTBOX_RELAY_RETENTION"), QStringLiteral("7d"),
                       QStringLiteral("duration"),
                       QStringLiteral("Delete SENT rows older than this (0 keeps all).")),
                  ValueType::Duration);
    keys << typed(text(QStringLiteral("relay.dead_retention"), QStringLiteral("dead-retention"),
                       QStringLiteral("OUTBOX_RELAY_DEAD_RETENTION"), QStringLiteral("30d"),
                       QStringLiteral("duration"),
                       QStringLiteral("Delete DEAD rows created longer ago than this, each batch audited "
                                      "(events.retention_dead; 0 keeps all).")),
                  ValueType::Duration);
    keys << boolean(
        QStringLiteral("relay.notify"), QStringLiteral("no-notify"), QStringLiteral("false"),
        QStringLiteral("OUTBOX_RELAY_NOTIFY"), true,
        QStringLiteral("Wake-ups from PostgreSQL: the doorbell (a temporary logical replication slot) "
                       "while the trigger is off (the default), LISTEN while it is on; --no-notify "
                       "polls only."));
    keys << boolean(QStringLiteral("relay.pipeline"), QStringLiteral("no-pipeline"), QStringLiteral("false"),
                    QStringLiteral("OUTBOX_RELAY_PIPELINE"), true,
                    QStringLiteral("Claim the next batch while one is in flight; --no-pipeline does not."));
    // [consumer]
    keys << text(QStringLiteral("consumer.name"), QStringLiteral("consumer"),
                 QStringLiteral("OUTBOX_CONSUMER_NAME"), QString(), QStringLiteral("name"),
                 QStringLiteral("Consumer name: inbox consumer_name and Kafka group."));
    ConfigKey topics = typed(text(QStringLiteral("consumer.topics"), QStringLiteral("topic"),
                                  QStringLiteral("OUTBOX_CONSUMER_TOPICS"), QStringLiteral("order"),
                                  QStringLiteral("topic"), QStringLiteral("Topics to consume (repeatable).")),
                             ValueType::List);
    topics.repeatable = true;
    keys << topics;
    keys << text(QStringLiteral("consumer.queue"), QStringLiteral("queue"),
                 QStringLiteral("OUTBOX_CONSUMER_QUEUE"), QString(), QStringLiteral("name"),
                 QStringLiteral("RabbitMQ queue to consume (instead of topics)."));
    keys << typed(text(QStringLiteral("consumer.schema_versions"), QStringLiteral("schema-versions"),
                       QStringLiteral("OUTBOX_CONSUMER_SCHEMA_VERSIONS"), QStringLiteral("1"),
                       QStringLiteral("1,2"), QStringLiteral("Supported schema_version values.")),
                  ValueType::List);
    keys << integer(QStringLiteral("consumer.max_attempts"), QStringLiteral("max-attempts"),
                    QStringLiteral("OUTBOX_CONSUMER_MAX_ATTEMPTS"), 5, 1, 1000, QStringLiteral("n"),
                    QStringLiteral("Attempts on transient failures before a dead letter."));
    keys << integer(QStringLiteral("consumer.backoff_base_ms"), QStringLiteral("backoff-base-ms"),
                    QStringLiteral("OUTBOX_CONSUMER_BACKOFF_BASE_MS"), 200, 1, 3600000, QStringLiteral("ms"),
                    QStringLiteral("Retry backoff base."));
    keys << integer(QStringLiteral("consumer.backoff_cap_ms"), QStringLiteral("backoff-cap-ms"),
                    QStringLiteral("OUTBOX_CONSUMER_BACKOFF_CAP_MS"), 5000, 1, 86400000, QStringLiteral("ms"),
                    QStringLiteral("Retry backoff cap."));
    keys << integer(
        QStringLiteral("consumer.batch_size"), QStringLiteral("consumer-batch-size"),
        QStringLiteral("OUTBOX_CONSUMER_BATCH_SIZE"), 500, 1, 10000, QStringLiteral("n"),
        QStringLiteral(
            "Messages processed in one database transaction (savepoints only after a handler failed)."));
    keys << integer(QStringLiteral("consumer.batch_max_wait_ms"), QStringLiteral("consumer-batch-wait-ms"),
                    QStringLiteral("OUTBOX_CONSUMER_BATCH_MAX_WAIT_MS"), 5, 0, 10000, QStringLiteral("ms"),
                    QStringLiteral("How long a batch waits for more messages after its first one."));
    // [web]
    keys << text(QStringLiteral("web.listen"), QStringLiteral("listen"), QStringLiteral("OUTBOX_WEB_LISTEN"),
                 QStringLiteral("127.0.0.1:8080"), QStringLiteral("host:port"),
                 QStringLiteral("Address and port of outboxctl serve."));
    keys << boolean(QStringLiteral("web.public_dashboard"), QStringLiteral("public-dashboard"),
                    QStringLiteral("true"), QStringLiteral("OUTBOX_WEB_PUBLIC_DASHBOARD"), false,
                    QStringLiteral("Dashboard and /metrics readable without a token (read-only)."));
    keys << integer(QStringLiteral("web.sample_interval_ms"), QStringLiteral("sample-interval"),
                    QStringLiteral("OUTBOX_WEB_SAMPLE_INTERVAL_MS"), 2000, 100, 600000, QStringLiteral("ms"),
                    QStringLiteral("Milliseconds between samples."));
    keys << integer(
        QStringLiteral("web.findings_interval_ms"), QStringLiteral("findings-interval"),
        QStringLiteral("OUTBOX_WEB_FINDINGS_INTERVAL_MS"), 30000, 200, 3600000, QStringLiteral("ms"),
        QStringLiteral("Milliseconds between the doctor's runs (findings API, dashboard, /metrics)."));
    keys << typed(text(QStringLiteral("web.mask_fields"), QString(), QStringLiteral("OUTBOX_WEB_MASK_FIELDS"),
                       QString(), QString(),
                       QStringLiteral("Fields (dotted paths) shown as *** to viewers: payloads, headers, "
                                      "keys and name=value in texts.")),
                  ValueType::List);
    keys << typed(text(QStringLiteral("web.mask_patterns"), QString(),
                       QStringLiteral("OUTBOX_WEB_MASK_PATTERNS"), QStringLiteral("card-numbers"), QString(),
                       QStringLiteral("Regular expressions shown as *** to viewers in every text "
                                      "(card-numbers: Luhn-checked card numbers; write a comma as \\x2c).")),
                  ValueType::List);
    keys << typed(text(QStringLiteral("web.allowed_origins"), QString(),
                       QStringLiteral("OUTBOX_WEB_ALLOWED_ORIGINS"), QString(), QString(),
                       QStringLiteral("Origins (scheme://host[:port]) besides the server's own whose pages "
                                      "may open the dashboard's WebSocket.")),
                  ValueType::List);
    keys << text(QStringLiteral("web.tls_cert"), QStringLiteral("tls-cert"),
                 QStringLiteral("OUTBOX_WEB_TLS_CERT"), QString(), QStringLiteral("file"),
                 QStringLiteral("PEM certificate: serve HTTPS."));
    keys << text(QStringLiteral("web.tls_key"), QStringLiteral("tls-key"),
                 QStringLiteral("OUTBOX_WEB_TLS_KEY"), QString(), QStringLiteral("file"),
                 QStringLiteral("PEM private key of the certificate."));
    keys << text(QStringLiteral("web.chartjs"), QString(), QStringLiteral("OUTBOX_WEB_CHARTJS"), QString(),
                 QString(), QStringLiteral("Chart.js file (default: the one found at build time)."));
    keys << integer(QStringLiteral("web.max_connections_per_address"), QString(),
                    QStringLiteral("OUTBOX_WEB_MAX_CONNECTIONS_PER_ADDRESS"), 64, 1, 100000,
                    QStringLiteral("n"),
                    QStringLiteral("Idle or not yet authenticated connections from one address; a new one "
                                   "beyond it closes the oldest idle one (connections with a valid token are "
                                   "not counted)."));
    keys << integer(QStringLiteral("web.max_response_bytes"), QString(),
                    QStringLiteral("OUTBOX_WEB_MAX_RESPONSE_BYTES"), 32 * 1024 * 1024, 64 * 1024,
                    qint64(4) * 1024 * 1024 * 1024, QStringLiteral("bytes"),
                    QStringLiteral("Largest answer; a larger one is 503 with Retry-After (lists carry "
                                   "payload previews; the detail routes the whole payload)."));
    keys << integer(QStringLiteral("web.max_pending_response_bytes"), QString(),
                    QStringLiteral("OUTBOX_WEB_MAX_PENDING_RESPONSE_BYTES"), 128 * 1024 * 1024, 64 * 1024,
                    qint64(16) * 1024 * 1024 * 1024, QStringLiteral("bytes"),
                    QStringLiteral("Answers waiting to be sent, all clients together; beyond it 503 with "
                                   "Retry-After."));
    keys << typed(text(QStringLiteral("web.reconcile_consumers"), QString(),
                       QStringLiteral("OUTBOX_WEB_RECONCILE_CONSUMERS"), QString(), QString(),
                       QStringLiteral("Consumers whose unconsumed events /metrics reports.")),
                  ValueType::List);
    auto duration = [](QString key, QString env, QString defaultValue, QString help) {
        return typed(text(std::move(key), QString(), std::move(env), std::move(defaultValue),
                          QStringLiteral("duration"), std::move(help)),
                     ValueType::Duration);
    };
    // [oidc]: people sign in to serve's console and wall with the company's identity provider
    keys << text(
        QStringLiteral("oidc.issuer"), QString(), QStringLiteral("OUTBOX_OIDC_ISSUER"), QString(),
        QStringLiteral("url"),
        QStringLiteral("OpenID Connect issuer (https://…; http only on loopback): serve signs people "
                       "in there and takes its JWT access tokens; empty: static tokens only."));
    keys << text(QStringLiteral("oidc.client_id"), QString(), QStringLiteral("OUTBOX_OIDC_CLIENT_ID"),
                 QString(), QStringLiteral("id"),
                 QStringLiteral("Client id of the console and wall at the provider (authorization code "
                                "with PKCE; a public client unless a client secret is given)."));
    keys << secret(
        QStringLiteral("oidc.client_secret"), QStringLiteral("OUTBOX_OIDC_CLIENT_SECRET"),
        QStringLiteral("Client secret, when the provider has serve as a confidential client: serve "
                       "then exchanges codes and refresh tokens itself (never a flag)."));
    keys << text(QStringLiteral("oidc.client_secret_file"), QString(),
                 QStringLiteral("OUTBOX_OIDC_CLIENT_SECRET_FILE"), QString(), QStringLiteral("file"),
                 QStringLiteral("File holding the client secret (its first line; chmod 600), instead of "
                                "client_secret."));
    keys << text(QStringLiteral("oidc.audience"), QString(), QStringLiteral("OUTBOX_OIDC_AUDIENCE"),
                 QString(), QStringLiteral("aud"),
                 QStringLiteral("The aud an access token must name (default: the client id)."));
    keys << text(QStringLiteral("oidc.scopes"), QString(), QStringLiteral("OUTBOX_OIDC_SCOPES"),
                 QStringLiteral("openid profile"), QStringLiteral("scopes"),
                 QStringLiteral("Scopes the sign-in asks for, separated by spaces."));
    keys << text(QStringLiteral("oidc.name_claim"), QString(), QStringLiteral("OUTBOX_OIDC_NAME_CLAIM"),
                 QStringLiteral("preferred_username"), QStringLiteral("claim"),
                 QStringLiteral("Access-token claim naming the person (the actor in the audit log)."));
    keys << text(QStringLiteral("oidc.groups_claim"), QString(), QStringLiteral("OUTBOX_OIDC_GROUPS_CLAIM"),
                 QStringLiteral("groups"), QStringLiteral("claim"),
                 QStringLiteral("Access-token claim holding the person's groups (a dotted path such as "
                                "realm_access.roles reaches into objects); [oidc_groups] maps them."));
    keys << typed(
        text(QStringLiteral("oidc.algorithms"), QString(), QStringLiteral("OUTBOX_OIDC_ALGORITHMS"),
             QStringLiteral("RS256, PS256, ES256"), QString(),
             QStringLiteral("Signature algorithms accepted (RS/PS/ES 256-512; none and HS* are always "
                            "refused).")),
        ValueType::List);
    keys << duration(QStringLiteral("oidc.clock_skew"), QStringLiteral("OUTBOX_OIDC_CLOCK_SKEW"),
                     QStringLiteral("30s"), QStringLiteral("Tolerance on exp, nbf and iat."));
    // [doctor]: the thresholds of `outboxctl doctor` (and of the findings behind serve's /metrics)
    keys << duration(QStringLiteral("doctor.backlog_age"), QStringLiteral("OUTBOX_DOCTOR_BACKLOG_AGE"),
                     QStringLiteral("5m"),
                     QStringLiteral("backlog-age: the oldest PENDING event is older (warning)."));
    keys << duration(QStringLiteral("doctor.backlog_age_critical"),
                     QStringLiteral("OUTBOX_DOCTOR_BACKLOG_AGE_CRITICAL"), QStringLiteral("30m"),
                     QStringLiteral("backlog-age: … older than this is critical."));
    keys << integer(
        QStringLiteral("doctor.relay_stale_heartbeats"), QString(),
        QStringLiteral("OUTBOX_DOCTOR_RELAY_STALE_HEARTBEATS"), 3, 1, 1000, QString(),
        QStringLiteral("relay-stale / no-relay: heartbeat older than this many intervals (2 s)."));
    keys << duration(QStringLiteral("doctor.expired_lease_grace"),
                     QStringLiteral("OUTBOX_DOCTOR_EXPIRED_LEASE_GRACE"), QStringLiteral("1m"),
                     QStringLiteral("expired-leases: SENDING past lease_until for longer."));
    keys << duration(QStringLiteral("doctor.blocked_after"), QStringLiteral("OUTBOX_DOCTOR_BLOCKED_AFTER"),
                     QStringLiteral("1m"),
                     QStringLiteral("blocked-aggregates: due and waiting behind a FAILED event for longer."));
    keys << duration(QStringLiteral("doctor.dead_recent"), QStringLiteral("OUTBOX_DOCTOR_DEAD_RECENT"),
                     QStringLiteral("24h"),
                     QStringLiteral("dead-events: DEAD events newer than this warn, older ones are info."));
    keys << duration(QStringLiteral("doctor.replay_stuck"), QStringLiteral("OUTBOX_DOCTOR_REPLAY_STUCK"),
                     QStringLiteral("5m"), QStringLiteral("replay-stuck: REPLAYING for longer."));
    keys << typed(text(QStringLiteral("doctor.consumers"), QString(),
                       QStringLiteral("OUTBOX_DOCTOR_CONSUMERS"), QString(), QString(),
                       QStringLiteral("unconsumed: consumers whose unprocessed events are checked.")),
                  ValueType::List);
    keys << duration(QStringLiteral("doctor.unconsumed_older_than"),
                     QStringLiteral("OUTBOX_DOCTOR_UNCONSUMED_OLDER_THAN"), QStringLiteral("5m"),
                     QStringLiteral("unconsumed: SENT longer ago than this and not PROCESSED."));
    keys << duration(QStringLiteral("doctor.unconsumed_window"),
                     QStringLiteral("OUTBOX_DOCTOR_UNCONSUMED_WINDOW"), QStringLiteral("15m"),
                     QStringLiteral("unconsumed: how far back before that the check looks."));
    keys << integer(QStringLiteral("doctor.dead_tuple_percent"), QString(),
                    QStringLiteral("OUTBOX_DOCTOR_DEAD_TUPLE_PERCENT"), 20, 1, 99, QString(),
                    QStringLiteral("table-health: dead-tuple share of the outbox table (PostgreSQL)."));
    return keys;
}

// Sections whose entries are not in the key table: librdkafka properties and web tokens.
const QString KafkaSection = QStringLiteral("kafka");
const QString TokensSection = QStringLiteral("tokens");
const QString GroupsSection = QStringLiteral("oidc_groups");

bool isSecretName(const QString& key)
{
    if (const ConfigKey* k = Config::find(key))
        return k->secret;
    if (key.startsWith(TokensSection + QLatin1Char('.')))
        return true;
    const QString name = key.toLower();
    return name.contains(QLatin1String("password")) || name.contains(QLatin1String("secret")) ||
           name == QLatin1String("kafka.sasl.oauthbearer.config");
}

Result<bool> parseBoolean(const QString& text)
{
    const QString v = text.trimmed().toLower();
    if (v == QLatin1String("true") || v == QLatin1String("yes") || v == QLatin1String("on") ||
        v == QLatin1String("1"))
        return true;
    if (v == QLatin1String("false") || v == QLatin1String("no") || v == QLatin1String("off") ||
        v == QLatin1String("0"))
        return false;
    return Error::usage(QCoreApplication::translate("outbox::config::Config", "must be true or false"));
}

QStringList splitList(const QString& text)
{
    QStringList items;
    for (const QString& item : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!item.trimmed().isEmpty())
            items << item.trimmed();
    return items;
}

// Checks a value against its key's type; the message does not repeat the value of a secret.
Status check(const ConfigKey& k, const QString& value)
{
    switch (k.type) {
    case ValueType::Text:
        if (!k.pattern.isEmpty() && !value.isEmpty() &&
            !QRegularExpression(QRegularExpression::anchoredPattern(k.pattern)).match(value).hasMatch())
            return Error::usage(
                QCoreApplication::translate("outbox::config::Config", k.patternHelp.toUtf8().constData()));
        return {};
    case ValueType::List:
        return {};
    case ValueType::Integer: {
        bool ok = false;
        const qint64 v = value.trimmed().toLongLong(&ok);
        if (!ok || v < k.min || v > k.max)
            return Error::usage(
                QCoreApplication::translate("outbox::config::Config", "must be a number between %1 and %2")
                    .arg(k.min)
                    .arg(k.max));
        return {};
    }
    case ValueType::Boolean: {
        auto b = parseBoolean(value);
        if (!b)
            return b.error();
        return {};
    }
    case ValueType::Duration: {
        auto d = parseDuration(value);
        if (!d)
            return d.error();
        return {};
    }
    case ValueType::Choice:
        if (!k.choices.contains(value.trimmed()))
            return Error::usage(
                QCoreApplication::translate("outbox::config::Config", "must be %1")
                    .arg(k.choices.join(QCoreApplication::translate("outbox::config::Config", " or "))));
        return {};
    }
    return {};
}

QString whereOf(const QString& key, const Source& s)
{
    switch (s.kind) {
    case Source::Default:
        return {};
    case Source::Flag:
        return s.name;
    case Source::Environment:
        return s.name;
    case Source::File:
        return QStringLiteral("%1:%2: [%3] %4")
            .arg(s.file)
            .arg(s.line)
            .arg(key.section(QLatin1Char('.'), 0, 0), key.section(QLatin1Char('.'), 1));
    }
    return {};
}

} // namespace

QString Source::toString() const
{
    switch (kind) {
    case Default:
        return QStringLiteral("default");
    case File:
        return QStringLiteral("file:%1:%2").arg(file).arg(line);
    case Environment:
        return QStringLiteral("env:") + name;
    case Flag:
        return QStringLiteral("flag:") + name;
    }
    return {};
}

Result<qint64> parseDuration(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("^(\\d{1,12})\\s*(ms|s|m|h|d)?$"));
    const auto m = re.match(text.trimmed());
    if (!m.hasMatch())
        return Error::usage(QCoreApplication::translate("outbox::config::Config",
                                                        "must be a duration such as 30s, 15m, 2h, 7d or 0"));
    const qint64 n = m.captured(1).toLongLong();
    const QString unit = m.captured(2);
    const qint64 factor = unit == QLatin1String("ms")  ? 1
                          : unit == QLatin1String("m") ? 60000
                          : unit == QLatin1String("h") ? 3600000
                          : unit == QLatin1String("d") ? 86400000
                                                       : 1000;
    return n * factor;
}

const QVector<ConfigKey>& Config::keys()
{
    static const QVector<ConfigKey> table = buildKeys();
    return table;
}

const ConfigKey* Config::find(const QString& key)
{
    for (const ConfigKey& k : keys())
        if (k.key == key)
            return &k;
    return nullptr;
}

QStringList Config::sections()
{
    return {QStringLiteral("general"),  QStringLiteral("database"),
            QStringLiteral("broker"),   KafkaSection,
            QStringLiteral("amqp"),     QStringLiteral("relay"),
            QStringLiteral("consumer"), QStringLiteral("web"),
            QStringLiteral("doctor"),   TokensSection,
            QStringLiteral("oidc"),     GroupsSection};
}

QMap<QString, QString> Config::systemEnvironment()
{
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    QMap<QString, QString> values;
    for (const ConfigKey& k : keys())
        if (!k.env.isEmpty() && env.contains(k.env))
            values.insert(k.env, env.value(k.env));
    if (env.contains(QStringLiteral("USER")))
        values.insert(QStringLiteral("USER"), env.value(QStringLiteral("USER")));
    return values;
}

QString Config::environmentValue(const QString& key)
{
    const ConfigKey* k = find(key);
    return k && !k->env.isEmpty() ? systemEnvironment().value(k->env) : QString();
}

Status Config::set(const QString& key, const QString& value, const Source& source)
{
    if (const ConfigKey* k = find(key)) {
        if (Status s = check(*k, value); !s) {
            const QString where = whereOf(key, source);
            return Error::usage(
                where + QStringLiteral(": ") + s.message() +
                (k->secret
                     ? QString()
                     : QCoreApplication::translate("outbox::config::Config", " (got \"%1\")").arg(value)));
        }
    }
    m_set.insert(key, Setting{key, value, source, isSecretName(key)});
    return {};
}

Result<Config> Config::withValue(const QString& key, const QString& value, const Source& source) const
{
    Config copy = *this;
    if (Status s = copy.set(key, value, source); !s)
        return s.error();
    return copy;
}

Result<Config> Config::load(const ConfigInputs& inputs)
{
    Config config;
    // Lowest first: each layer overrides the one before.
    if (!inputs.file.isEmpty()) {
        config.m_file = inputs.file;
        auto document = IniFile::read(inputs.file);
        if (!document)
            return document.error();
        static const QRegularExpression kafkaName(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]*$"));
        const QStringList known = sections();
        for (const auto& [section, line] : std::as_const(document->sections))
            if (!known.contains(section))
                return Error::usage(QCoreApplication::translate("outbox::config::Config",
                                                                "%1:%2: unknown section [%3] (known: %4)")
                                        .arg(inputs.file)
                                        .arg(line)
                                        .arg(section, known.join(QStringLiteral(", "))));
        QSet<QString> seen;
        for (const IniEntry& e : std::as_const(document->entries)) {
            const QString at = QStringLiteral("%1:%2: ").arg(inputs.file).arg(e.line);
            QString name = e.key;
            if (e.section == KafkaSection) {
                if (!kafkaName.match(name).hasMatch())
                    return Error::usage(at + QCoreApplication::translate("outbox::config::Config",
                                                                         "invalid Kafka property name \"%1\"")
                                                 .arg(name));
            } else if (e.section == TokensSection) {
                if (name.contains(QLatin1Char('/')))
                    return Error::usage(at + QCoreApplication::translate("outbox::config::Config",
                                                                         "invalid token name \"%1\"")
                                                 .arg(name));
            } else if (e.section == GroupsSection) {
                // A group's name as the provider writes it (case kept).
            } else {
                name = name.toLower().replace(QLatin1Char('-'), QLatin1Char('_')); // batch-size = batch_size
            }
            const QString key = e.section + QLatin1Char('.') + name;
            if (e.section != KafkaSection && e.section != TokensSection && e.section != GroupsSection &&
                !find(key))
                return Error::usage(
                    at + QCoreApplication::translate("outbox::config::Config", "unknown key %1 in [%2]")
                             .arg(e.key, e.section));
            if (seen.contains(key))
                return Error::usage(
                    at + QCoreApplication::translate("outbox::config::Config", "[%1] %2 is set twice")
                             .arg(e.section, e.key));
            seen.insert(key);
            if (Status s = config.set(key, e.value, Source{Source::File, inputs.file, e.line, {}}); !s)
                return s.error();
        }
    }
    for (const ConfigKey& k : keys()) {
        if (k.env.isEmpty())
            continue;
        const QString v = inputs.environment.value(k.env);
        if (v.isEmpty())
            continue;
        if (Status s = config.set(k.key, v, Source{Source::Environment, {}, 0, k.env}); !s)
            return s.error();
    }
    for (const FlagValue& f : inputs.flags) {
        const ConfigKey* k = find(f.key);
        if (!k || k->flag.isEmpty() || k->secret)
            return Error::usage(QCoreApplication::translate("outbox::config::Config",
                                                            "%1 cannot be given on the command line")
                                    .arg(f.key));
        if (Status s =
                config.set(k->key, f.value, Source{Source::Flag, {}, 0, QStringLiteral("--") + k->flag});
            !s)
            return s.error();
    }
    for (const QString& argument : inputs.kafkaArguments) {
        const int eq = argument.indexOf(QLatin1Char('='));
        const QString name = argument.left(eq).trimmed();
        if (eq <= 0 || name.isEmpty())
            return Error::usage(
                QCoreApplication::translate("outbox::config::Config",
                                            "invalid Kafka property \"%1\" (expected name=value)")
                    .arg(argument));
        if (isSecretName(KafkaSection + QLatin1Char('.') + name))
            return Error::usage(
                QCoreApplication::translate("outbox::config::Config",
                                            "-X %1: secrets are not taken from the command line; "
                                            "use the environment or the [kafka] section of the "
                                            "configuration file")
                    .arg(name));
        if (Status s = config.set(KafkaSection + QLatin1Char('.') + name, argument.mid(eq + 1).trimmed(),
                                  Source{Source::Flag, {}, 0, QStringLiteral("-X ") + name});
            !s)
            return s.error();
    }
    // Who acts: the login name unless configured.
    config.m_defaultActor = inputs.environment.value(QStringLiteral("USER"), QStringLiteral("unknown"));
    return config;
}

QString Config::value(const QString& key) const
{
    auto it = m_set.constFind(key);
    if (it != m_set.cend())
        return it->value;
    if (key == QLatin1String("general.actor"))
        return m_defaultActor;
    const ConfigKey* k = find(key);
    return k ? k->defaultValue : QString();
}

Source Config::source(const QString& key) const
{
    auto it = m_set.constFind(key);
    return it != m_set.cend() ? it->source : Source{};
}

qint64 Config::integer(const QString& key) const
{
    return value(key).trimmed().toLongLong();
}

bool Config::boolean(const QString& key) const
{
    auto b = parseBoolean(value(key));
    return b ? *b : false;
}

qint64 Config::durationMs(const QString& key) const
{
    auto d = parseDuration(value(key));
    return d ? *d : 0;
}

QStringList Config::list(const QString& key) const
{
    return splitList(value(key));
}

QString Config::where(const QString& key) const
{
    return whereOf(key, source(key));
}

Error Config::located(const QString& key, const Error& error) const
{
    const QString at = where(key);
    if (at.isEmpty())
        return error;
    Error e = error;
    e.message = at + QStringLiteral(": ") + error.message;
    return e;
}

QVector<Setting> Config::kafkaProperties() const
{
    QVector<Setting> properties;
    for (const Setting& s : m_set) {
        if (!s.key.startsWith(KafkaSection + QLatin1Char('.')) || s.key == QLatin1String("kafka.bootstrap"))
            continue;
        Setting p = s;
        p.key = s.key.mid(KafkaSection.size() + 1);
        properties << p;
    }
    return properties;
}

QVector<Setting> Config::tokens() const
{
    QVector<Setting> tokens;
    for (const Setting& s : m_set) {
        if (!s.key.startsWith(TokensSection + QLatin1Char('.')))
            continue;
        Setting t = s;
        t.key = s.key.mid(TokensSection.size() + 1);
        tokens << t;
    }
    return tokens;
}

QVector<Setting> Config::groups() const
{
    QVector<Setting> groups;
    for (const Setting& s : m_set) {
        if (!s.key.startsWith(GroupsSection + QLatin1Char('.')))
            continue;
        Setting g = s;
        g.key = s.key.mid(GroupsSection.size() + 1);
        groups << g;
    }
    return groups;
}

QVector<Setting> Config::settings() const
{
    QVector<Setting> all;
    QSet<QString> listed;
    for (const ConfigKey& k : keys()) {
        all << Setting{k.key, value(k.key), source(k.key), k.secret};
        listed.insert(k.key);
    }
    for (const Setting& s : m_set) // QMap: sorted by key, so Kafka properties come before tokens
        if (!listed.contains(s.key))
            all << s;
    return all;
}

QString Config::redacted(const Setting& setting)
{
    if (setting.secret)
        return setting.value.isEmpty() ? QString() : QStringLiteral("***");
    // A password written into a database URL: scheme://user:PASSWORD@host…
    static const QRegularExpression inUrl(QStringLiteral("^([A-Za-z][A-Za-z0-9+.-]*://[^:/@?#]*):[^@/?#]*@"));
    QString shown = setting.value;
    shown.replace(inUrl, QStringLiteral("\\1:***@"));
    return shown;
}

QString Config::toText() const
{
    QString out = QStringLiteral("; effective configuration (%1)\n").arg(precedence());
    out += QStringLiteral("; file: %1\n").arg(m_file.isEmpty() ? QStringLiteral("(none)") : m_file);
    QString section;
    const QVector<Setting> all = settings();
    int width = 0;
    for (const Setting& s : all)
        width = std::max(width, int(s.key.section(QLatin1Char('.'), 1).size() + 3 + redacted(s).size()));
    for (const Setting& s : all) {
        const QString sec = s.key.section(QLatin1Char('.'), 0, 0);
        if (sec != section) {
            out += QStringLiteral("[%1]\n").arg(sec);
            section = sec;
        }
        const QString line = s.key.section(QLatin1Char('.'), 1) + QStringLiteral(" = ") + redacted(s);
        out += line.leftJustified(width + 2) + QStringLiteral("; ") + s.source.toString() + QLatin1Char('\n');
    }
    return out;
}

QJsonObject Config::toJson() const
{
    QJsonArray settingsArray;
    for (const Setting& s : settings())
        settingsArray.append(QJsonObject{{QStringLiteral("key"), s.key},
                                         {QStringLiteral("section"), s.key.section(QLatin1Char('.'), 0, 0)},
                                         {QStringLiteral("name"), s.key.section(QLatin1Char('.'), 1)},
                                         {QStringLiteral("value"), redacted(s)},
                                         {QStringLiteral("source"), s.source.toString()},
                                         {QStringLiteral("secret"), s.secret}});
    return QJsonObject{{QStringLiteral("file"), m_file.isEmpty() ? QJsonValue() : QJsonValue(m_file)},
                       {QStringLiteral("precedence"), precedence()},
                       {QStringLiteral("settings"), settingsArray}};
}

} // namespace outbox::config
