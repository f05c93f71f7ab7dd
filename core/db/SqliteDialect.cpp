#include "core/db/SqliteDialect.h"

#include <QDir>
#include <QFileInfo>
#include <QTimeZone>

namespace outbox {

Status SqliteDialect::checkBeforeOpen(const DatabaseUrl& url) const
{
    // SQLite creates a missing file but not its directory; say which one is missing.
    const QFileInfo file(url.database);
    if (!file.absoluteDir().exists())
        return Error::runtime(QStringLiteral("cannot open %1: the directory %2 does not exist")
                                  .arg(url.redacted(), file.absolutePath()));
    return {};
}

QStringList SqliteDialect::connectOptions(const DatabaseUrl& url, int) const
{
    // A writer waits up to 30 s for another's BEGIN IMMEDIATE instead of failing at once.
    QStringList options{QStringLiteral("QSQLITE_BUSY_TIMEOUT=30000")};
    // A reader that never writes (the fleet's sampler) sets QSQLITE_OPEN_READONLY in the URL's
    // options (parse() accepts none for SQLite): the file is opened read-only, so SQLite never
    // creates it, and closing the last connection neither checkpoints nor deletes the -wal file
    // that the next reader would create again (file-system work, partly under SQLite's
    // process-wide lock). Database::open() then skips the writer's session settings.
    const QString readOnly = QStringLiteral("QSQLITE_OPEN_READONLY");
    if (url.connectOptions.split(QLatin1Char(';'), Qt::SkipEmptyParts).contains(readOnly))
        options << readOnly;
    return options;
}

QStringList SqliteDialect::sessionSetup() const
{
    return {QStringLiteral("PRAGMA journal_mode = WAL"), QStringLiteral("PRAGMA synchronous = NORMAL"),
            QStringLiteral("PRAGMA foreign_keys = ON")};
}

QString SqliteDialect::now() const
{
    return QStringLiteral("strftime('%Y-%m-%d %H:%M:%f', 'now')");
}

QString SqliteDialect::nowPlusMillis(const QString& placeholder) const
{
    return QStringLiteral("strftime('%Y-%m-%d %H:%M:%f', 'now', printf('%+.3f seconds', %1 / 1000.0))")
        .arg(placeholder);
}

QDateTime SqliteDialect::toDateTime(const QVariant& value) const
{
    if (value.isNull())
        return {};
    QString text = value.toString();
    if (text.isEmpty())
        return {};
    text.replace(QLatin1Char(' '), QLatin1Char('T'));
    QDateTime dt = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!dt.isValid())
        return {};
    return QDateTime(dt.date(), dt.time(), QTimeZone::utc());
}

QVariant SqliteDialect::fromDateTime(const QDateTime& value) const
{
    return value.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

QVector<Migration> SqliteDialect::migrations() const
{
    const QString now = QStringLiteral("(strftime('%Y-%m-%d %H:%M:%f', 'now'))");
    Migration tables{1, QStringLiteral("outbox, inbox, dead letter, audit and relay tables"), {}};
    tables.statements = QStringList{
        QStringLiteral(R"(CREATE TABLE IF NOT EXISTS {events} (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id TEXT NOT NULL UNIQUE,
  event_type TEXT NOT NULL,
  aggregate_type TEXT NOT NULL,
  aggregate_id TEXT NOT NULL,
  aggregate_version INTEGER,
  topic TEXT,
  payload TEXT NOT NULL CHECK (json_valid(payload)),
  headers TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(headers)),
  schema_version INTEGER NOT NULL DEFAULT 1,
  status TEXT NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING','SENDING','SENT','FAILED','DEAD')),
  attempts INTEGER NOT NULL DEFAULT 0,
  available_at TEXT NOT NULL DEFAULT %1,
  worker_id TEXT,
  lease_until TEXT,
  lease_token TEXT,
  last_error TEXT,
  last_error_class TEXT,
  created_at TEXT NOT NULL DEFAULT %1,
  sent_at TEXT,
  broker_partition INTEGER,
  broker_offset INTEGER))")
            .arg(now),
        QStringLiteral(
            "CREATE INDEX IF NOT EXISTS {events}_pending_idx ON {events} (id) WHERE status = 'PENDING'"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_sending_idx ON {events} (lease_until) WHERE "
                       "status = 'SENDING'"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_problem_idx ON {events} (status, id) WHERE "
                       "status IN ('FAILED','DEAD')"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_status_id_idx ON {events} (status, id)"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_aggregate_idx ON {events} (aggregate_type, "
                       "aggregate_id, id)"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_created_idx ON {events} (created_at)"),
        QStringLiteral(R"(CREATE TABLE IF NOT EXISTS {inbox} (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id TEXT NOT NULL,
  consumer_name TEXT NOT NULL,
  aggregate_id TEXT,
  status TEXT NOT NULL CHECK (status IN ('PROCESSED','FAILED')),
  attempts INTEGER NOT NULL DEFAULT 0,
  processed_at TEXT,
  last_error TEXT,
  created_at TEXT NOT NULL DEFAULT %1,
  UNIQUE (event_id, consumer_name)))")
            .arg(now),
        QStringLiteral(
            "CREATE INDEX IF NOT EXISTS {inbox}_consumer_idx ON {inbox} (consumer_name, processed_at)"),
        QStringLiteral(R"(CREATE TABLE IF NOT EXISTS {dead_letters} (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  consumer_name TEXT NOT NULL,
  event_id TEXT,
  topic TEXT NOT NULL,
  source_partition INTEGER,
  source_offset INTEGER,
  message_key TEXT,
  headers TEXT NOT NULL DEFAULT '{}',
  payload TEXT,
  error TEXT NOT NULL,
  stacktrace TEXT,
  attempts INTEGER NOT NULL DEFAULT 1,
  first_failed_at TEXT NOT NULL DEFAULT %1,
  last_failed_at TEXT NOT NULL DEFAULT %1,
  status TEXT NOT NULL DEFAULT 'NEW' CHECK (status IN ('NEW','REPLAYING','REPLAYED','DISCARDED')),
  replay_token TEXT,
  replay_topic TEXT,
  replay_count INTEGER NOT NULL DEFAULT 0,
  replayed_at TEXT,
  replayed_by TEXT))")
            .arg(now),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {dead_letters}_status_idx ON {dead_letters} (status, id)"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {dead_letters}_event_idx ON {dead_letters} (event_id)"),
        QStringLiteral(R"(CREATE TABLE IF NOT EXISTS {audit} (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL DEFAULT %1,
  actor TEXT NOT NULL,
  host TEXT,
  action TEXT NOT NULL,
  target_kind TEXT NOT NULL,
  target_ids TEXT NOT NULL DEFAULT '[]',
  filter TEXT,
  reason TEXT NOT NULL,
  affected_count INTEGER NOT NULL DEFAULT 0,
  before_state TEXT,
  after_state TEXT,
  outcome TEXT NOT NULL))")
            .arg(now),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {audit}_at_idx ON {audit} (at)"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {audit}_action_idx ON {audit} (action, id)"),
        QStringLiteral(R"(CREATE TABLE IF NOT EXISTS {relays} (
  worker_id TEXT PRIMARY KEY,
  host TEXT NOT NULL,
  pid INTEGER,
  version TEXT,
  started_at TEXT NOT NULL DEFAULT %1,
  heartbeat_at TEXT NOT NULL DEFAULT %1,
  desired_state TEXT NOT NULL DEFAULT 'RUN' CHECK (desired_state IN ('RUN','PAUSE','DRAIN','STOP')),
  state TEXT NOT NULL DEFAULT 'STARTING',
  claimed_total INTEGER NOT NULL DEFAULT 0,
  sent_total INTEGER NOT NULL DEFAULT 0,
  failed_total INTEGER NOT NULL DEFAULT 0,
  fenced_total INTEGER NOT NULL DEFAULT 0,
  leases_held INTEGER NOT NULL DEFAULT 0,
  last_error TEXT))")
            .arg(now),
    };

    Migration triggers{2, QStringLiteral("append-only audit log"), {}};
    triggers.statements = QStringList{
        QStringLiteral("CREATE TRIGGER IF NOT EXISTS {audit}_no_update BEFORE UPDATE ON {audit} "
                       "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: UPDATE refused'); END"),
        QStringLiteral("CREATE TRIGGER IF NOT EXISTS {audit}_no_delete BEFORE DELETE ON {audit} "
                       "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only: DELETE refused'); END"),
    };
    Migration relayCounters{
        3, QStringLiteral("relay counters for /metrics: expired leases and commit-to-ack latency"), {}};
    relayCounters.statements = QStringList{
        QStringLiteral("ALTER TABLE {relays} ADD COLUMN lease_expired_total INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE {relays} ADD COLUMN latency_sum_ms INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE {relays} ADD COLUMN latency_count INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE {relays} ADD COLUMN latency_buckets TEXT NOT NULL DEFAULT '[]'"),
    };
    // Covering partial indexes for the sampler's attempts histogram and lease holders (SQLite only
    // uses a partial index whose WHERE the query repeats exactly, hence one per state).
    Migration covering{4, QStringLiteral("covering partial indexes for the sampler"), {}};
    covering.statements = QStringList{
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_pending_attempts_idx ON {events} (attempts) "
                       "WHERE status = 'PENDING'"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_failed_attempts_idx ON {events} (attempts) WHERE "
                       "status = 'FAILED'"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_lease_holders_idx ON {events} (worker_id, "
                       "lease_until) WHERE status = 'SENDING'"),
    };
    Migration deadLetterReplay{
        5, QStringLiteral("dead-letter replay leases, backoff and errors; exact message bytes"), {}};
    deadLetterReplay.statements = QStringList{
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN replay_attempts INTEGER NOT NULL DEFAULT 0"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN replay_error TEXT"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN replay_available_at TEXT"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN replay_worker TEXT"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN replay_lease_until TEXT"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN replay_lease_token TEXT"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN payload_bytes BLOB"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN message_key_bytes BLOB"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN raw_headers TEXT"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN storage_note TEXT"),
    };
    // Write amplification (docs/benchmarks.md, "Relay"): sending_idx (lease_until) WHERE SENDING
    // duplicated lease_holders_idx (worker_id, lease_until) WHERE SENDING, which serves the reaper.
    Migration relayPath{6, QStringLiteral("fewer indexes on the relay's path"), {}};
    relayPath.statements = QStringList{
        QStringLiteral("DROP INDEX IF EXISTS {events}_sending_idx"),
    };
    Migration consumerCounters{
        7, QStringLiteral("per-consumer counters the inbox cannot hold (duplicates skipped)"), {}};
    consumerCounters.statements = QStringList{
        QStringLiteral(R"(CREATE TABLE IF NOT EXISTS {consumer_counters} (
  consumer_name TEXT NOT NULL PRIMARY KEY,
  duplicates_total INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT))"),
    };
    // An operator's edit of a dead letter before its replay: the message as it came is kept here
    // (the first edit copies it), the edited one takes its place in payload, headers and friends.
    Migration deadLetterEdits{
        8, QStringLiteral("dead-letter edits: the original message kept beside the edited one"), {}};
    deadLetterEdits.statements = QStringList{
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN original_payload TEXT"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN original_payload_bytes BLOB"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN original_headers TEXT"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN original_raw_headers TEXT"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN edited_at TEXT"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN edited_by TEXT"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN edit_count INTEGER NOT NULL DEFAULT 0"),
    };
    // The topic the relay sent to (the event's topic, or the routed one when it named none), so that
    // an operator finds events by the topic a consumer saw. No index: searches are time-bounded.
    Migration sentTopic{9, QStringLiteral("topic an event was sent to"), {}};
    sentTopic.statements = QStringList{QStringLiteral("ALTER TABLE {events} ADD COLUMN sent_topic TEXT")};
    // PostgreSQL moves its aggregate index to a hash index here; SQLite keeps its B-tree (the version
    // is kept in step so that every database reports the same schema version).
    Migration aggregateHash{10, QStringLiteral("hash index for the aggregate lookups (PostgreSQL only)"), {}};
    // Held claims keep row locks across a publish: a relay on this database keeps leases.
    Migration heldClaims{11, QStringLiteral("journal of held claims (PostgreSQL only)"), {}};
    // The W3C traceparent a consumer received with the event (docs/contract.md, "Trace context").
    Migration inboxTrace{12, QStringLiteral("traceparent in the inbox row"), {}};
    inboxTrace.statements = QStringList{QStringLiteral("ALTER TABLE {inbox} ADD COLUMN traceparent TEXT")};
    // Search by trace id (docs/contract.md, "Trace context"): an index on the expression the
    // search uses (headers are checked JSON here). SQLite updates it only when headers change.
    Migration traceIndex{13, QStringLiteral("index of the events' trace ids (traceparent header)"), {}};
    traceIndex.statements =
        QStringList{QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_trace_idx ON {events} (%1)")
                        .arg(traceIdExpression())};
    // The broker each relay publishes to, for the relay pages (kind and address, no credentials).
    Migration relayBroker{14, QStringLiteral("the broker each relay publishes to"), {}};
    relayBroker.statements =
        QStringList{QStringLiteral("ALTER TABLE {relays} ADD COLUMN broker_kind TEXT"),
                    QStringLiteral("ALTER TABLE {relays} ADD COLUMN broker_address TEXT")};
    // The topics a consumer subscribes to, written by the consumer when it starts (a JSON array;
    // NULL: not known, e.g. a consumer of another make or a RabbitMQ queue without [consumer]
    // topics): the unconsumed check counts only the events of these topics (issue 25).
    Migration consumerTopics{15, QStringLiteral("the topics each consumer subscribes to"), {}};
    consumerTopics.statements =
        QStringList{QStringLiteral("ALTER TABLE {consumer_counters} ADD COLUMN topics TEXT")};
    Migration heldSince{16, QStringLiteral("when each held claim began (PostgreSQL only)"), {}};
    // MariaDB folds its two sampler indexes into one; the version is kept in step here.
    Migration samplerIndex{17, QStringLiteral("one sampler index instead of two (MariaDB only)"), {}};
    // PostgreSQL refuses other JSON shapes from here on; text columns cannot, doctor reports them
    // (contract-violations/not-json). The version is kept in step.
    Migration jsonShapes{
        18, QStringLiteral("payload a JSON object or array, headers a JSON object (PostgreSQL only)"), {}};
    // Which wake-up each relay uses (issue 42), recorded for the relay pages.
    Migration wakeup{19, QStringLiteral("each relay's wake-up"), {}};
    wakeup.statements = QStringList{QStringLiteral("ALTER TABLE {relays} ADD COLUMN wakeup TEXT")};
    return {tables,     triggers,         relayCounters,   covering,    deadLetterReplay,
            relayPath,  consumerCounters, deadLetterEdits, sentTopic,   aggregateHash,
            heldClaims, inboxTrace,       traceIndex,      relayBroker, consumerTopics,
            heldSince,  samplerIndex,     jsonShapes,      wakeup};
}

} // namespace outbox
