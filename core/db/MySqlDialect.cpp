#include "core/db/MySqlDialect.h"

#include <algorithm>

namespace outbox {

QStringList MySqlDialect::urlOptions() const
{
    // CLIENT_FOUND_ROWS=1: found rows instead of changed rows as the affected-row count, the flag
    // many drivers send by default; the consumer decides from the inbox statuses it reads, not from
    // that count (tst_inboxconsumer runs it with the flag).
    return {QStringLiteral("MYSQL_OPT_CONNECT_TIMEOUT"),
            QStringLiteral("SSL_CA"),
            QStringLiteral("SSL_CAPATH"),
            QStringLiteral("SSL_CERT"),
            QStringLiteral("SSL_KEY"),
            QStringLiteral("SSL_CIPHER"),
            QStringLiteral("CLIENT_FOUND_ROWS")};
}

QStringList MySqlDialect::connectOptions(const DatabaseUrl& url, int connectTimeoutSeconds) const
{
    QStringList options;
    const QStringList own = url.connectOptions.split(QLatin1Char(';'), Qt::SkipEmptyParts);
    const bool ownTimeout = std::any_of(own.begin(), own.end(), [](const QString& option) {
        return option.startsWith(QLatin1String("MYSQL_OPT_CONNECT_TIMEOUT="));
    });
    if (!ownTimeout)
        options << QStringLiteral("MYSQL_OPT_CONNECT_TIMEOUT=%1").arg(connectTimeoutSeconds);
    if (!url.connectOptions.isEmpty())
        options << url.connectOptions;
    return options;
}

QString MySqlDialect::estimatedRowCount() const
{
    return QStringLiteral(
        "SELECT TABLE_ROWS, DATA_LENGTH FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() "
        "AND TABLE_NAME = :table");
}

QStringList MySqlDialect::sessionSetup() const
{
    return {QStringLiteral("SET NAMES utf8mb4"), QStringLiteral("SET time_zone = '+00:00'"),
            QStringLiteral("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED"),
            QStringLiteral("SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ZERO_DATE,NO_ENGINE_SUBSTITUTION'")};
}

QStringList MySqlDialect::statementTimeout(int ms) const
{
    const int seconds = std::max(1, (ms + 999) / 1000);
    // MariaDB's statement limit (seconds, fractions allowed), MySQL's (SELECTs, milliseconds), and the
    // waits for table and row locks, which the first two do not end everywhere.
    return {QStringLiteral("SET SESSION max_statement_time = %1").arg(ms / 1000.0),
            QStringLiteral("SET SESSION max_execution_time = %1").arg(ms),
            QStringLiteral("SET SESSION lock_wait_timeout = %1").arg(seconds),
            QStringLiteral("SET SESSION innodb_lock_wait_timeout = %1").arg(seconds)};
}

QString MySqlDialect::nowPlusMillis(const QString& placeholder) const
{
    return QStringLiteral("(UTC_TIMESTAMP(6) + INTERVAL (%1 * 1000) MICROSECOND)").arg(placeholder);
}

QString MySqlDialect::containsIgnoringCase(const QString& column, const QString& placeholder) const
{
    // utf8mb4_general_ci / unicode_ci collations already compare case-insensitively.
    return QStringLiteral("%1 LIKE %2 ESCAPE '!'").arg(column, placeholder);
}

QStringList MySqlDialect::migrationLock() const
{
    return {QStringLiteral("SELECT GET_LOCK('%1', 60)").arg(sql(QStringLiteral("{migrations}")))};
}

QStringList MySqlDialect::migrationUnlock() const
{
    return {QStringLiteral("SELECT RELEASE_LOCK('%1')").arg(sql(QStringLiteral("{migrations}")))};
}

QVector<Migration> MySqlDialect::migrations() const
{
    const QString table = QStringLiteral(" ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci");
    Migration tables{1, QStringLiteral("outbox, inbox, dead letter, audit and relay tables"), {}};
    tables.statements = QStringList{
        QStringLiteral(R"(CREATE TABLE IF NOT EXISTS {events} (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  event_id VARCHAR(191) NOT NULL,
  event_type VARCHAR(191) NOT NULL,
  aggregate_type VARCHAR(191) NOT NULL,
  aggregate_id VARCHAR(191) NOT NULL,
  aggregate_version BIGINT NULL,
  topic VARCHAR(249) NULL,
  payload LONGTEXT NOT NULL,
  headers LONGTEXT NOT NULL DEFAULT '{}',
  schema_version INT NOT NULL DEFAULT 1,
  status VARCHAR(16) NOT NULL DEFAULT 'PENDING',
  attempts INT NOT NULL DEFAULT 0,
  available_at DATETIME(6) NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
  worker_id VARCHAR(191) NULL,
  lease_until DATETIME(6) NULL,
  lease_token VARCHAR(64) NULL,
  last_error TEXT NULL,
  last_error_class VARCHAR(32) NULL,
  created_at DATETIME(6) NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
  sent_at DATETIME(6) NULL,
  broker_partition INT NULL,
  broker_offset BIGINT NULL,
  CONSTRAINT {events}_status_check CHECK (status IN ('PENDING','SENDING','SENT','FAILED','DEAD')),
  UNIQUE KEY {events}_event_id_key (event_id),
  KEY {events}_claim_idx (status, available_at, id),
  KEY {events}_status_id_idx (status, id),
  KEY {events}_lease_idx (status, lease_until),
  KEY {events}_aggregate_idx (aggregate_type, aggregate_id, id),
  KEY {events}_created_idx (created_at)))") +
            table,
        QStringLiteral(R"(CREATE TABLE IF NOT EXISTS {inbox} (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  event_id VARCHAR(191) NOT NULL,
  consumer_name VARCHAR(191) NOT NULL,
  aggregate_id VARCHAR(191) NULL,
  status VARCHAR(16) NOT NULL,
  attempts INT NOT NULL DEFAULT 0,
  processed_at DATETIME(6) NULL,
  last_error TEXT NULL,
  created_at DATETIME(6) NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
  CONSTRAINT {inbox}_status_check CHECK (status IN ('PROCESSED','FAILED')),
  UNIQUE KEY {inbox}_event_consumer_key (event_id, consumer_name),
  KEY {inbox}_consumer_idx (consumer_name, processed_at)))") +
            table,
        QStringLiteral(R"(CREATE TABLE IF NOT EXISTS {dead_letters} (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  consumer_name VARCHAR(191) NOT NULL,
  event_id VARCHAR(191) NULL,
  topic VARCHAR(249) NOT NULL,
  source_partition INT NULL,
  source_offset BIGINT NULL,
  message_key TEXT NULL,
  headers LONGTEXT NOT NULL DEFAULT '{}',
  payload LONGTEXT NULL,
  error TEXT NOT NULL,
  stacktrace LONGTEXT NULL,
  attempts INT NOT NULL DEFAULT 1,
  first_failed_at DATETIME(6) NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
  last_failed_at DATETIME(6) NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
  status VARCHAR(16) NOT NULL DEFAULT 'NEW',
  replay_token VARCHAR(64) NULL,
  replay_topic VARCHAR(249) NULL,
  replay_count INT NOT NULL DEFAULT 0,
  replayed_at DATETIME(6) NULL,
  replayed_by VARCHAR(191) NULL,
  CONSTRAINT {dead_letters}_status_check CHECK (status IN ('NEW','REPLAYING','REPLAYED','DISCARDED')),
  KEY {dead_letters}_status_idx (status, id),
  KEY {dead_letters}_event_idx (event_id)))") +
            table,
        QStringLiteral(R"(CREATE TABLE IF NOT EXISTS {audit} (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  at DATETIME(6) NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
  actor VARCHAR(191) NOT NULL,
  host VARCHAR(255) NULL,
  action VARCHAR(64) NOT NULL,
  target_kind VARCHAR(32) NOT NULL,
  target_ids LONGTEXT NOT NULL,
  filter LONGTEXT NULL,
  reason TEXT NOT NULL,
  affected_count BIGINT NOT NULL DEFAULT 0,
  before_state LONGTEXT NULL,
  after_state LONGTEXT NULL,
  outcome VARCHAR(32) NOT NULL,
  KEY {audit}_at_idx (at),
  KEY {audit}_action_idx (action, id)))") +
            table,
        QStringLiteral(R"(CREATE TABLE IF NOT EXISTS {relays} (
  worker_id VARCHAR(191) NOT NULL PRIMARY KEY,
  host VARCHAR(255) NOT NULL,
  pid BIGINT NULL,
  version VARCHAR(64) NULL,
  started_at DATETIME(6) NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
  heartbeat_at DATETIME(6) NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
  desired_state VARCHAR(16) NOT NULL DEFAULT 'RUN',
  state VARCHAR(32) NOT NULL DEFAULT 'STARTING',
  claimed_total BIGINT NOT NULL DEFAULT 0,
  sent_total BIGINT NOT NULL DEFAULT 0,
  failed_total BIGINT NOT NULL DEFAULT 0,
  fenced_total BIGINT NOT NULL DEFAULT 0,
  leases_held INT NOT NULL DEFAULT 0,
  last_error TEXT NULL,
  CONSTRAINT {relays}_desired_check CHECK (desired_state IN ('RUN','PAUSE','DRAIN','STOP'))))") +
            table,
    };

    Migration triggers{2, QStringLiteral("append-only audit log"), {}};
    triggers.statements = QStringList{
        QStringLiteral(
            "CREATE TRIGGER IF NOT EXISTS {audit}_no_update BEFORE UPDATE ON {audit} FOR EACH ROW "
            "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'the audit log is append-only: UPDATE refused'"),
        QStringLiteral(
            "CREATE TRIGGER IF NOT EXISTS {audit}_no_delete BEFORE DELETE ON {audit} FOR EACH ROW "
            "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'the audit log is append-only: DELETE refused'"),
    };
    Migration relayCounters{
        3, QStringLiteral("relay counters for /metrics: expired leases and commit-to-ack latency"), {}};
    relayCounters.statements = QStringList{
        QStringLiteral(
            "ALTER TABLE {relays} ADD COLUMN IF NOT EXISTS lease_expired_total BIGINT NOT NULL DEFAULT 0"),
        QStringLiteral(
            "ALTER TABLE {relays} ADD COLUMN IF NOT EXISTS latency_sum_ms BIGINT NOT NULL DEFAULT 0"),
        QStringLiteral(
            "ALTER TABLE {relays} ADD COLUMN IF NOT EXISTS latency_count BIGINT NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE {relays} ADD COLUMN IF NOT EXISTS latency_buckets TEXT NULL"),
    };
    // MariaDB has no partial indexes: composite indexes led by status keep the sampler's attempts
    // histogram and lease holders inside the index.
    Migration covering{4, QStringLiteral("covering indexes for the sampler"), {}};
    covering.statements = QStringList{
        QStringLiteral(
            "CREATE INDEX IF NOT EXISTS {events}_status_attempts_idx ON {events} (status, attempts)"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_status_worker_idx ON {events} (status, "
                       "worker_id, lease_until)"),
    };
    Migration deadLetterReplay{
        5, QStringLiteral("dead-letter replay leases, backoff and errors; exact message bytes"), {}};
    deadLetterReplay.statements = QStringList{
        QStringLiteral(
            "ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS replay_attempts INT NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS replay_error TEXT NULL"),
        QStringLiteral(
            "ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS replay_available_at DATETIME(6) NULL"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS replay_worker VARCHAR(191) NULL"),
        QStringLiteral(
            "ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS replay_lease_until DATETIME(6) NULL"),
        QStringLiteral(
            "ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS replay_lease_token VARCHAR(64) NULL"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS payload_bytes LONGBLOB NULL"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS message_key_bytes LONGBLOB NULL"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS raw_headers LONGTEXT NULL"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS storage_note TEXT NULL"),
    };
    // Write amplification (docs/benchmarks.md, "Relay"): InnoDB rewrites every secondary index
    // holding a changed column, and status leads five of them. claim_idx (status, available_at, id)
    // cannot give the claim its id order (status_id_idx does), and lease_idx (status, lease_until)
    // is covered by status_worker_idx (status, worker_id, lease_until) for the few SENDING rows
    // (migration 17 folds that one into sampler_idx).
    Migration relayPath{6, QStringLiteral("fewer indexes on the relay's path"), {}};
    relayPath.statements = QStringList{
        QStringLiteral("DROP INDEX IF EXISTS {events}_claim_idx ON {events}"),
        QStringLiteral("DROP INDEX IF EXISTS {events}_lease_idx ON {events}"),
    };
    Migration consumerCounters{
        7, QStringLiteral("per-consumer counters the inbox cannot hold (duplicates skipped)"), {}};
    consumerCounters.statements = QStringList{
        QStringLiteral(R"(CREATE TABLE IF NOT EXISTS {consumer_counters} (
  consumer_name VARCHAR(191) NOT NULL PRIMARY KEY,
  duplicates_total BIGINT NOT NULL DEFAULT 0,
  updated_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)))") +
            table,
    };
    // An operator's edit of a dead letter before its replay: the message as it came is kept here
    // (the first edit copies it), the edited one takes its place in payload, headers and friends.
    Migration deadLetterEdits{
        8, QStringLiteral("dead-letter edits: the original message kept beside the edited one"), {}};
    deadLetterEdits.statements = QStringList{
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS original_payload LONGTEXT NULL"),
        QStringLiteral(
            "ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS original_payload_bytes LONGBLOB NULL"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS original_headers LONGTEXT NULL"),
        QStringLiteral(
            "ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS original_raw_headers LONGTEXT NULL"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS edited_at DATETIME(6) NULL"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS edited_by VARCHAR(191) NULL"),
        QStringLiteral(
            "ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS edit_count INT NOT NULL DEFAULT 0"),
    };
    // The topic the relay sent to (the event's topic, or the routed one when it named none), so that
    // an operator finds events by the topic a consumer saw. No index: searches are time-bounded.
    Migration sentTopic{9, QStringLiteral("topic an event was sent to"), {}};
    sentTopic.statements = QStringList{
        QStringLiteral("ALTER TABLE {events} ADD COLUMN IF NOT EXISTS sent_topic VARCHAR(249) NULL")};
    // PostgreSQL moves its aggregate index to a hash index here; MariaDB keeps its B-tree (the version
    // is kept in step so that every database reports the same schema version).
    Migration aggregateHash{10, QStringLiteral("hash index for the aggregate lookups (PostgreSQL only)"), {}};
    // Held claims keep row locks across a publish: a relay on this database keeps leases.
    Migration heldClaims{11, QStringLiteral("journal of held claims (PostgreSQL only)"), {}};
    // The W3C traceparent a consumer received with the event (docs/contract.md, "Trace context").
    Migration inboxTrace{12, QStringLiteral("traceparent in the inbox row"), {}};
    inboxTrace.statements = QStringList{
        QStringLiteral("ALTER TABLE {inbox} ADD COLUMN IF NOT EXISTS traceparent VARCHAR(255) NULL")};
    // Search by trace id (docs/contract.md, "Trace context"): MariaDB indexes no expression, so
    // the trace id part of the traceparent header is a virtual column (computed, never stored in
    // the row; writers never name it) with an index. Headers that are no JSON give NULL, not an
    // error. InnoDB updates the index only when headers change: the relay's claim and mark never do.
    Migration traceIndex{13, QStringLiteral("index of the events' trace ids (traceparent header)"), {}};
    traceIndex.statements = QStringList{
        QStringLiteral("ALTER TABLE {events} ADD COLUMN IF NOT EXISTS trace_id VARCHAR(32) AS "
                       "(SUBSTRING(JSON_UNQUOTE(JSON_EXTRACT(IF(JSON_VALID(headers), headers, '{}'), "
                       "'$.traceparent')), 4, 32)) VIRTUAL"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_trace_idx ON {events} (trace_id)")};
    // The broker each relay publishes to, for the relay pages (kind and address, no credentials).
    Migration relayBroker{14, QStringLiteral("the broker each relay publishes to"), {}};
    relayBroker.statements = QStringList{
        QStringLiteral("ALTER TABLE {relays} ADD COLUMN IF NOT EXISTS broker_kind VARCHAR(16) NULL"),
        QStringLiteral("ALTER TABLE {relays} ADD COLUMN IF NOT EXISTS broker_address VARCHAR(512) NULL")};
    // The topics a consumer subscribes to, written by the consumer when it starts (a JSON array;
    // NULL: not known, e.g. a consumer of another make or a RabbitMQ queue without [consumer]
    // topics): the unconsumed check counts only the events of these topics (issue 25).
    Migration consumerTopics{15, QStringLiteral("the topics each consumer subscribes to"), {}};
    consumerTopics.statements = QStringList{
        QStringLiteral("ALTER TABLE {consumer_counters} ADD COLUMN IF NOT EXISTS topics TEXT NULL")};
    Migration heldSince{16, QStringLiteral("when each held claim began (PostgreSQL only)"), {}};
    // Write amplification again (docs/benchmarks.md, "MariaDB: one sampler index"): every claim and
    // mark changes status, and InnoDB rewrites each secondary index led by it. Migration 4's two
    // sampler indexes become one that still answers both of the sampler's questions from the index
    // alone: the attempts histogram by its (status, attempts) prefix, the lease holders (the few
    // SENDING rows) by status with worker and lease in it. Measured: the relay drains 1.4–1.7x faster
    // than with the two, as fast as with none. The new index is built before the old ones go, so
    // the sampler never reads the table.
    Migration samplerIndex{17, QStringLiteral("one sampler index instead of two (MariaDB)"), {}};
    samplerIndex.statements = QStringList{
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_sampler_idx ON {events} "
                       "(status, attempts, worker_id, lease_until)"),
        QStringLiteral("DROP INDEX IF EXISTS {events}_status_attempts_idx ON {events}"),
        QStringLiteral("DROP INDEX IF EXISTS {events}_status_worker_idx ON {events}"),
    };
    // PostgreSQL refuses other JSON shapes from here on; text columns cannot, doctor reports them
    // (contract-violations/not-json). The version is kept in step.
    Migration jsonShapes{
        18, QStringLiteral("payload a JSON object or array, headers a JSON object (PostgreSQL only)"), {}};
    // Which wake-up each relay uses (issue 42): here always polling, recorded for the relay pages.
    Migration wakeup{19, QStringLiteral("each relay's wake-up"), {}};
    wakeup.statements =
        QStringList{QStringLiteral("ALTER TABLE {relays} ADD COLUMN IF NOT EXISTS wakeup VARCHAR(16) NULL")};
    return {tables,     triggers,         relayCounters,   covering,    deadLetterReplay,
            relayPath,  consumerCounters, deadLetterEdits, sentTopic,   aggregateHash,
            heldClaims, inboxTrace,       traceIndex,      relayBroker, consumerTopics,
            heldSince,  samplerIndex,     jsonShapes,      wakeup};
}

QStringList MySqlDialect::runtimeGrants(const QString& role, const QString& databaseName) const
{
    const auto quoted = [](QString name) -> QString {
        return QLatin1Char('`') + name.replace(QLatin1Char('`'), QLatin1String("``")) + QLatin1Char('`');
    };
    // name@host is a user account ('name'@'host'); a bare name a role (or the user 'name'@'%').
    const int at = role.indexOf(QLatin1Char('@'));
    const QString grantee = at < 0 ? role : QStringLiteral("'%1'@'%2'").arg(role.left(at), role.mid(at + 1));
    const QString database = quoted(databaseName);
    const auto grant = [&](const QString& privileges, const QString& table) {
        return QStringLiteral("GRANT %1 ON %2.%3 TO %4")
            .arg(privileges, database, quoted(sql(table)), grantee);
    };
    // No DROP (which TRUNCATE needs), no TRIGGER, no ALTER: the runtime cannot get past the audit
    // log's append-only triggers the way the owning account can.
    return {
        grant(QStringLiteral("SELECT, INSERT, UPDATE, DELETE"), QStringLiteral("{events}")),
        grant(QStringLiteral("SELECT, INSERT, UPDATE"), QStringLiteral("{inbox}")),
        grant(QStringLiteral("SELECT, INSERT, UPDATE"), QStringLiteral("{dead_letters}")),
        grant(QStringLiteral("SELECT, INSERT"), QStringLiteral("{audit}")),
        grant(QStringLiteral("SELECT, INSERT, UPDATE, DELETE"), QStringLiteral("{relays}")),
        grant(QStringLiteral("SELECT, INSERT, UPDATE"), QStringLiteral("{consumer_counters}")),
        grant(QStringLiteral("SELECT"), QStringLiteral("{migrations}")),
    };
}

QString MySqlDialect::jsonTextEquals(const QString& column, const QString& pathPlaceholder,
                                     const QString& valuePlaceholder) const
{
    // The table's collation ignores case and trailing spaces (so does utf8mb4_bin, PAD SPACE):
    // compare the bytes, so that a search matches the value exactly.
    return QStringLiteral("CAST(JSON_UNQUOTE(JSON_EXTRACT(%1, %2)) AS BINARY) = CAST(%3 AS BINARY)")
        .arg(column, pathPlaceholder, valuePlaceholder);
}

QString MySqlDialect::jsonArrayContainsInteger(const QString& column, const QString& placeholder) const
{
    return QStringLiteral("JSON_CONTAINS(%1, CAST(CAST(%2 AS SIGNED) AS CHAR))").arg(column, placeholder);
}

} // namespace outbox
