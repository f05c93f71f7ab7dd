#include "core/db/PostgresDialect.h"

namespace outbox {

QStringList PostgresDialect::urlOptions() const
{
    return {QStringLiteral("sslmode"),         QStringLiteral("sslrootcert"),
            QStringLiteral("sslcert"),         QStringLiteral("sslkey"),
            QStringLiteral("sslcrl"),          QStringLiteral("connect_timeout"),
            QStringLiteral("application_name")};
}

QStringList PostgresDialect::connectOptions(const DatabaseUrl& url, int connectTimeoutSeconds) const
{
    // Qt's driver turns ';' into spaces and hands the rest to libpq as a connection string: each
    // value is quoted there, so a space in it (a path, an application name) stays in the value.
    // (DatabaseUrl::parse() keeps the options as "key=value;key=value" and refuses a value with
    // ';', '=', a quote or a backslash.)
    QStringList quoted;
    bool ownTimeout = false;
    for (const QString& option : url.connectOptions.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        const int eq = option.indexOf(QLatin1Char('='));
        const QString key = option.left(eq);
        QString value = eq < 0 ? QString() : option.mid(eq + 1);
        value.replace(QLatin1Char('\\'), QLatin1String("\\\\"))
            .replace(QLatin1Char('\''), QLatin1String("\\'"));
        quoted << key + QStringLiteral("='") + value + QLatin1Char('\'');
        ownTimeout = ownTimeout || key == QLatin1String("connect_timeout");
    }
    QStringList options;
    if (!ownTimeout)
        options << QStringLiteral("connect_timeout=%1").arg(connectTimeoutSeconds);
    return options + quoted;
}

QString PostgresDialect::estimatedRowCount() const
{
    return QStringLiteral(
        "SELECT CAST(reltuples AS bigint), CAST(relpages AS bigint) * current_setting('block_size')::bigint "
        "FROM pg_class WHERE oid = CAST(:table AS regclass)");
}

QDateTime PostgresDialect::toDateTime(const QVariant& value) const
{
    if (value.isNull())
        return {};
    const QDateTime dt = value.toDateTime();
    return dt.isValid() ? dt.toUTC() : QDateTime();
}

QStringList PostgresDialect::sessionSetup() const
{
    return {QStringLiteral("SET TIME ZONE 'UTC'"), QStringLiteral("SET client_min_messages = warning")};
}

QStringList PostgresDialect::statementTimeout(int ms) const
{
    // statement_timeout counts lock waits too.
    return {QStringLiteral("SET statement_timeout = %1").arg(ms)};
}

QString PostgresDialect::nowPlusMillis(const QString& placeholder) const
{
    return QStringLiteral("(now() + make_interval(secs => CAST(%1 AS double precision) / 1000.0))")
        .arg(placeholder);
}

QString PostgresDialect::jsonValue(const QString& placeholder) const
{
    return QStringLiteral("CAST(%1 AS jsonb)").arg(placeholder);
}

QString PostgresDialect::containsIgnoringCase(const QString& column, const QString& placeholder) const
{
    return QStringLiteral("%1 ILIKE %2 ESCAPE '!'").arg(column, placeholder);
}

namespace {

// An identifier of ours (prefix + base name, letters, digits and _) as the migrations created it:
// unquoted there, so folded to lower case by the server; quoted here, so nothing in it is read as SQL.
QString quotedIdentifier(const QString& name)
{
    QString folded = name.toLower();
    folded.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + folded + QLatin1Char('"');
}

} // namespace

QString PostgresDialect::newEventsTriggerState() const
{
    // tgenabled: O (origin, the default), A (always), R (replica) fire; D is disabled. pg_has_role
    // on the owner is what ALTER TABLE asks (superusers have every role's privileges).
    return QStringLiteral("SELECT t.tgenabled <> 'D', pg_has_role(c.relowner, 'USAGE') FROM pg_trigger t "
                          "JOIN pg_class c ON c.oid = t.tgrelid WHERE t.tgrelid = to_regclass(:table) "
                          "AND t.tgname = lower(:trigger)");
}

QString PostgresDialect::switchNewEventsTrigger(bool enabled) const
{
    return QStringLiteral("ALTER TABLE %1 %2 TRIGGER %3")
        .arg(quotedIdentifier(table(QStringLiteral("outbox_events"))),
             enabled ? QStringLiteral("ENABLE") : QStringLiteral("DISABLE"),
             quotedIdentifier(newEventsTrigger()));
}

QStringList PostgresDialect::lockTimeout(int ms) const
{
    return {QStringLiteral("SET LOCAL lock_timeout = %1").arg(ms)};
}

QString PostgresDialect::tableStatistics() const
{
    return QStringLiteral(
        "SELECT s.n_live_tup, s.n_dead_tup, pg_total_relation_size(c.oid), "
        "GREATEST(s.last_autovacuum, s.last_vacuum), array_to_string(c.reloptions, ', '), "
        "current_setting('autovacuum') FROM pg_class c JOIN pg_stat_all_tables s ON s.relid = c.oid "
        "WHERE c.oid = CAST(:table AS regclass)");
}

QStringList PostgresDialect::migrationLock() const
{
    return {
        QStringLiteral("SELECT pg_advisory_lock(hashtext('%1'))").arg(sql(QStringLiteral("{migrations}")))};
}

QStringList PostgresDialect::migrationUnlock() const
{
    return {
        QStringLiteral("SELECT pg_advisory_unlock(hashtext('%1'))").arg(sql(QStringLiteral("{migrations}")))};
}

QVector<Migration> PostgresDialect::migrations() const
{
    Migration tables{1, QStringLiteral("outbox, inbox, dead letter, audit and relay tables"), {}};
    tables.statements = QStringList{
        QStringLiteral(R"(CREATE TABLE IF NOT EXISTS {events} (
  id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  event_id text NOT NULL,
  event_type text NOT NULL,
  aggregate_type text NOT NULL,
  aggregate_id text NOT NULL,
  aggregate_version bigint,
  topic text,
  payload jsonb NOT NULL,
  headers jsonb NOT NULL DEFAULT '{}',
  schema_version integer NOT NULL DEFAULT 1,
  status text NOT NULL DEFAULT 'PENDING'
    CONSTRAINT {events}_status_check CHECK (status IN ('PENDING','SENDING','SENT','FAILED','DEAD')),
  attempts integer NOT NULL DEFAULT 0,
  available_at timestamptz NOT NULL DEFAULT now(),
  worker_id text,
  lease_until timestamptz,
  lease_token text,
  last_error text,
  last_error_class text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  broker_partition integer,
  broker_offset bigint,
  CONSTRAINT {events}_event_id_key UNIQUE (event_id)))"),
        QStringLiteral(
            "CREATE INDEX IF NOT EXISTS {events}_pending_idx ON {events} (id) WHERE status = 'PENDING'"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_sending_idx ON {events} (lease_until) WHERE "
                       "status = 'SENDING'"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_problem_idx ON {events} (status, id) WHERE "
                       "status IN ('FAILED','DEAD')"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_aggregate_idx ON {events} (aggregate_type, "
                       "aggregate_id, id)"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_created_idx ON {events} (created_at)"),
        QStringLiteral(R"(CREATE TABLE IF NOT EXISTS {inbox} (
  id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  event_id text NOT NULL,
  consumer_name text NOT NULL,
  aggregate_id text,
  status text NOT NULL CONSTRAINT {inbox}_status_check CHECK (status IN ('PROCESSED','FAILED')),
  attempts integer NOT NULL DEFAULT 0,
  processed_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT {inbox}_event_consumer_key UNIQUE (event_id, consumer_name)))"),
        QStringLiteral(
            "CREATE INDEX IF NOT EXISTS {inbox}_consumer_idx ON {inbox} (consumer_name, processed_at)"),
        QStringLiteral(R"(CREATE TABLE IF NOT EXISTS {dead_letters} (
  id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  consumer_name text NOT NULL,
  event_id text,
  topic text NOT NULL,
  source_partition integer,
  source_offset bigint,
  message_key text,
  headers jsonb NOT NULL DEFAULT '{}',
  payload text,
  error text NOT NULL,
  stacktrace text,
  attempts integer NOT NULL DEFAULT 1,
  first_failed_at timestamptz NOT NULL DEFAULT now(),
  last_failed_at timestamptz NOT NULL DEFAULT now(),
  status text NOT NULL DEFAULT 'NEW'
    CONSTRAINT {dead_letters}_status_check CHECK (status IN ('NEW','REPLAYING','REPLAYED','DISCARDED')),
  replay_token text,
  replay_topic text,
  replay_count integer NOT NULL DEFAULT 0,
  replayed_at timestamptz,
  replayed_by text))"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {dead_letters}_status_idx ON {dead_letters} (status, id)"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {dead_letters}_event_idx ON {dead_letters} (event_id)"),
        QStringLiteral(R"(CREATE TABLE IF NOT EXISTS {audit} (
  id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor text NOT NULL,
  host text,
  action text NOT NULL,
  target_kind text NOT NULL,
  target_ids jsonb NOT NULL DEFAULT '[]',
  filter jsonb,
  reason text NOT NULL,
  affected_count bigint NOT NULL DEFAULT 0,
  before_state jsonb,
  after_state jsonb,
  outcome text NOT NULL))"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {audit}_at_idx ON {audit} (at)"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {audit}_action_idx ON {audit} (action, id)"),
        QStringLiteral(R"(CREATE TABLE IF NOT EXISTS {relays} (
  worker_id text PRIMARY KEY,
  host text NOT NULL,
  pid bigint,
  version text,
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  desired_state text NOT NULL DEFAULT 'RUN'
    CONSTRAINT {relays}_desired_check CHECK (desired_state IN ('RUN','PAUSE','DRAIN','STOP')),
  state text NOT NULL DEFAULT 'STARTING',
  claimed_total bigint NOT NULL DEFAULT 0,
  sent_total bigint NOT NULL DEFAULT 0,
  failed_total bigint NOT NULL DEFAULT 0,
  fenced_total bigint NOT NULL DEFAULT 0,
  leases_held integer NOT NULL DEFAULT 0,
  last_error text))"),
    };

    Migration triggers{2, QStringLiteral("append-only audit log and NOTIFY on new events"), {}};
    triggers.statements = QStringList{
        QStringLiteral(
            R"(CREATE OR REPLACE FUNCTION {audit}_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  RAISE EXCEPTION 'the audit log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$fn$)"),
        QStringLiteral("DROP TRIGGER IF EXISTS {audit}_append_only ON {audit}"),
        QStringLiteral("CREATE TRIGGER {audit}_append_only BEFORE UPDATE OR DELETE ON {audit} FOR EACH ROW "
                       "EXECUTE FUNCTION {audit}_refuse_change()"),
        QStringLiteral("DROP TRIGGER IF EXISTS {audit}_no_truncate ON {audit}"),
        QStringLiteral("CREATE TRIGGER {audit}_no_truncate BEFORE TRUNCATE ON {audit} FOR EACH STATEMENT "
                       "EXECUTE FUNCTION {audit}_refuse_change()"),
        QStringLiteral(
            R"(CREATE OR REPLACE FUNCTION {events}_notify() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_notify('{events}', '');
  RETURN NULL;
END
$fn$)"),
        QStringLiteral("DROP TRIGGER IF EXISTS {events}_notify ON {events}"),
        QStringLiteral("CREATE TRIGGER {events}_notify AFTER INSERT ON {events} FOR EACH STATEMENT EXECUTE "
                       "FUNCTION {events}_notify()"),
        // Off from the start on a new database (issue 42, see migration 19, which switches it off,
        // audited, on a database migrated before): `outboxctl notify on` is the opt-in.
        QStringLiteral("ALTER TABLE {events} DISABLE TRIGGER {events}_notify"),
    };
    Migration relayCounters{
        3, QStringLiteral("relay counters for /metrics: expired leases and commit-to-ack latency"), {}};
    relayCounters.statements = QStringList{
        QStringLiteral(
            "ALTER TABLE {relays} ADD COLUMN IF NOT EXISTS lease_expired_total bigint NOT NULL DEFAULT 0"),
        QStringLiteral(
            "ALTER TABLE {relays} ADD COLUMN IF NOT EXISTS latency_sum_ms bigint NOT NULL DEFAULT 0"),
        QStringLiteral(
            "ALTER TABLE {relays} ADD COLUMN IF NOT EXISTS latency_count bigint NOT NULL DEFAULT 0"),
        QStringLiteral(
            "ALTER TABLE {relays} ADD COLUMN IF NOT EXISTS latency_buckets text NOT NULL DEFAULT '[]'"),
    };
    // Partial indexes for the console on 10M rows (docs/benchmarks.md): the sampler's attempts
    // histogram and lease holders become index-only scans over the unsent rows, and the browser's
    // "unsent" filter walks ids without skipping over millions of SENT rows.
    Migration covering{
        4, QStringLiteral("covering partial indexes for the sampler and the unsent browser"), {}};
    covering.statements = QStringList{
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_unsent_idx ON {events} (id) WHERE status IN "
                       "('PENDING','SENDING','FAILED')"),
        QStringLiteral(
            "CREATE INDEX IF NOT EXISTS {events}_unsent_attempts_idx ON {events} (status, attempts) "
            "WHERE status IN ('PENDING','SENDING','FAILED')"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_lease_holders_idx ON {events} (worker_id, "
                       "lease_until) WHERE status = 'SENDING'"),
    };
    Migration deadLetterReplay{
        5, QStringLiteral("dead-letter replay leases, backoff and errors; exact message bytes"), {}};
    deadLetterReplay.statements = QStringList{
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS replay_attempts integer NOT NULL "
                       "DEFAULT 0"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS replay_error text"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS replay_available_at timestamptz"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS replay_worker text"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS replay_lease_until timestamptz"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS replay_lease_token text"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS payload_bytes bytea"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS message_key_bytes bytea"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS raw_headers text"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS storage_note text"),
    };
    // Write amplification (docs/benchmarks.md, "Relay"): no status change is HOT (status is in the
    // partial indexes' predicates), so every claim and mark inserts into every full index and into
    // each partial index the new row version matches. Fewer, merged indexes on the relay's path:
    // - sending_idx (lease_until) WHERE SENDING duplicated lease_holders_idx (worker_id,
    //   lease_until) WHERE SENDING, which serves the reaper as well (SENDING rows are few);
    // - unsent_attempts_idx (status, attempts) over PENDING/SENDING/FAILED was a third index a
    //   claim wrote: the attempts histogram now reads attempts from the PENDING (claim) index, the
    //   FAILED/DEAD index and the SENDING index (each INCLUDE attempts), all index-only scans;
    // - created_idx (a B-tree over every row, written by every status change) becomes a BRIN
    //   index: created_at follows id, so block ranges answer the time filters;
    // - the console's failure groups (GROUP BY error over unsent rows with an error) read every
    //   row of the table for want of an index with their predicate; errors_idx holds only the
    //   rows with an error, which the relay's common path (claim and mark of events that never
    //   failed) never writes;
    // - autovacuum of a queue table: vacuum at 1 % dead rows, not the default 20 %.
    Migration relayPath{6, QStringLiteral("fewer indexes on the relay's path; queue autovacuum"), {}};
    relayPath.statements = QStringList{
        QStringLiteral("DROP INDEX IF EXISTS {events}_sending_idx"),
        QStringLiteral("DROP INDEX IF EXISTS {events}_unsent_attempts_idx"),
        QStringLiteral("DROP INDEX IF EXISTS {events}_pending_idx"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_pending_idx ON {events} (id) INCLUDE (attempts) "
                       "WHERE status = 'PENDING'"),
        QStringLiteral("DROP INDEX IF EXISTS {events}_lease_holders_idx"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_lease_holders_idx ON {events} (worker_id, "
                       "lease_until) INCLUDE (attempts) WHERE status = 'SENDING'"),
        QStringLiteral("DROP INDEX IF EXISTS {events}_problem_idx"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_problem_idx ON {events} (status, id) INCLUDE "
                       "(attempts) WHERE status IN ('FAILED','DEAD')"),
        QStringLiteral("DROP INDEX IF EXISTS {events}_created_idx"),
        QStringLiteral(
            "CREATE INDEX IF NOT EXISTS {events}_created_brin ON {events} USING brin (created_at)"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_errors_idx ON {events} (id) WHERE status IN "
                       "('PENDING','SENDING','FAILED','DEAD') AND last_error IS NOT NULL"),
        QStringLiteral("ALTER TABLE {events} SET (autovacuum_vacuum_scale_factor = 0.01, "
                       "autovacuum_vacuum_threshold = 10000, autovacuum_vacuum_insert_scale_factor = 0.01, "
                       "autovacuum_analyze_scale_factor = 0.02, autovacuum_vacuum_cost_delay = 1)"),
    };
    Migration consumerCounters{
        7, QStringLiteral("per-consumer counters the inbox cannot hold (duplicates skipped)"), {}};
    consumerCounters.statements = QStringList{
        QStringLiteral(R"(CREATE TABLE IF NOT EXISTS {consumer_counters} (
  consumer_name text PRIMARY KEY,
  duplicates_total bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()))"),
    };
    // An operator's edit of a dead letter before its replay: the message as it came is kept here
    // (the first edit copies it), the edited one takes its place in payload, headers and friends.
    Migration deadLetterEdits{
        8, QStringLiteral("dead-letter edits: the original message kept beside the edited one"), {}};
    deadLetterEdits.statements = QStringList{
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS original_payload text"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS original_payload_bytes bytea"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS original_headers text"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS original_raw_headers text"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS edited_at timestamptz"),
        QStringLiteral("ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS edited_by text"),
        QStringLiteral(
            "ALTER TABLE {dead_letters} ADD COLUMN IF NOT EXISTS edit_count integer NOT NULL DEFAULT 0"),
    };
    // The topic the relay sent to (the event's topic, or the routed one when it named none), so that
    // an operator finds events by the topic a consumer saw. No index: searches are time-bounded.
    Migration sentTopic{9, QStringLiteral("topic an event was sent to"), {}};
    sentTopic.statements =
        QStringList{QStringLiteral("ALTER TABLE {events} ADD COLUMN IF NOT EXISTS sent_topic text")};
    // The aggregate lookups (the ordering gate, the console's aggregate filter, blocked aggregates)
    // are all equality on aggregate_id. A B-tree over (aggregate_type, aggregate_id, id), filled in
    // event order, takes every new row version of the relay's claim and mark at a random leaf: with
    // it the claim took 9.3-10.1 ms and the mark 12.2-14.1 ms per batch of 500, with a hash index
    // on aggregate_id 6.9-7.2 and 5.1-5.4 ms, without any 6.1-7.2 and 4.3-4.9 ms
    // (docs/benchmarks.md, "Relay"). The price: an aggregate's events come back unordered, so a
    // page of one aggregate's events sorts them (all of them, for an aggregate with very many).
    Migration aggregateHash{10, QStringLiteral("hash index for the aggregate lookups"), {}};
    aggregateHash.statements = QStringList{
        QStringLiteral("DROP INDEX IF EXISTS {events}_aggregate_idx"),
        QStringLiteral(
            "CREATE INDEX IF NOT EXISTS {events}_aggregate_idx ON {events} USING hash (aggregate_id)"),
    };
    // Held claims (relay.claim_mode = held): a relay keeps the rows it claimed locked in an open
    // transaction until their marks commit, so a claim writes no row version at all. What such a
    // claim cannot record on the rows themselves (that an attempt began) goes here first, one small
    // row per batch, committed on the relay's other connection and deleted in the batch's own
    // transaction: a row still here after its hold time is an attempt whose relay died, counted by
    // the reaper (docs/architecture.md, "Held claims").
    Migration heldClaims{11, QStringLiteral("journal of held claims"), {}};
    heldClaims.statements = QStringList{
        QStringLiteral(R"(CREATE TABLE IF NOT EXISTS {held_claims} (
  id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  worker_id text NOT NULL,
  event_ids bigint[] NOT NULL,
  held_until timestamptz NOT NULL
))"),
    };
    // The W3C traceparent a consumer received with the event (docs/contract.md, "Trace context"):
    // the inbox row ties the consumer's work to the trace the writer started. Nullable, so that
    // consumers written before it keep inserting their rows unchanged.
    Migration inboxTrace{12, QStringLiteral("traceparent in the inbox row"), {}};
    inboxTrace.statements =
        QStringList{QStringLiteral("ALTER TABLE {inbox} ADD COLUMN IF NOT EXISTS traceparent text")};
    // Search by trace id (docs/contract.md, "Trace context"): an equality lookup on the trace id
    // part of the traceparent header. A hash index, as for the aggregate lookups: small, and rows
    // without a traceparent (NULL) are not in it, so a writer that sends none pays nothing; rows
    // with one pay an index entry per row version (the relay's claim and mark). The build reads the
    // table once, holding off writes meanwhile: run `outboxctl migrate` in a quiet moment on a
    // large table.
    Migration traceIndex{13, QStringLiteral("index of the events' trace ids (traceparent header)"), {}};
    traceIndex.statements = QStringList{
        QStringLiteral("CREATE INDEX IF NOT EXISTS {events}_trace_idx ON {events} USING hash ((%1))")
            .arg(traceIdExpression())};
    // The broker each relay publishes to, for the relay pages (kind and address, no credentials).
    Migration relayBroker{14, QStringLiteral("the broker each relay publishes to"), {}};
    relayBroker.statements =
        QStringList{QStringLiteral("ALTER TABLE {relays} ADD COLUMN IF NOT EXISTS broker_kind text"),
                    QStringLiteral("ALTER TABLE {relays} ADD COLUMN IF NOT EXISTS broker_address text")};
    // The topics a consumer subscribes to, written by the consumer when it starts (a JSON array;
    // NULL: not known, e.g. a consumer of another make or a RabbitMQ queue without [consumer]
    // topics): the unconsumed check counts only the events of these topics (issue 25).
    Migration consumerTopics{15, QStringLiteral("the topics each consumer subscribes to"), {}};
    consumerTopics.statements =
        QStringList{QStringLiteral("ALTER TABLE {consumer_counters} ADD COLUMN IF NOT EXISTS topics text")};
    // When a held batch was claimed, for `trace` and the console (issue 30): the journal row is
    // inserted at the claim, so its default is the claim's time.
    Migration heldSince{16, QStringLiteral("when each held claim began"), {}};
    heldSince.statements = QStringList{QStringLiteral(
        "ALTER TABLE {held_claims} ADD COLUMN IF NOT EXISTS held_since timestamptz NOT NULL DEFAULT now()")};
    // MariaDB folds its two sampler indexes into one; the version is kept in step here.
    Migration samplerIndex{17, QStringLiteral("one sampler index instead of two (MariaDB only)"), {}};
    // jsonb takes any JSON value; the relay sends a scalar payload consumers refuse, and drops headers
    // that are no object (traceparent with them) without a word (issue 37). Refused at INSERT from
    // now on; NOT VALID: rows already there are not scanned (doctor reports them, not-json), and
    // the lock is held for an instant only.
    Migration jsonShapes{18, QStringLiteral("payload a JSON object or array, headers a JSON object"), {}};
    jsonShapes.statements = QStringList{
        QStringLiteral("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = "
                       "'{events}_payload_document') THEN ALTER TABLE {events} ADD CONSTRAINT "
                       "{events}_payload_document CHECK (jsonb_typeof(payload) IN ('object', 'array')) NOT "
                       "VALID; END IF; END $$"),
        QStringLiteral("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = "
                       "'{events}_headers_object') THEN ALTER TABLE {events} ADD CONSTRAINT "
                       "{events}_headers_object CHECK (jsonb_typeof(headers) = 'object') NOT VALID; END IF; "
                       "END $$")};
    // Nothing in a writer's transaction takes a database-wide lock (issue 42): a NOTIFY serialises
    // the commits of every transaction that notified on one lock held across the WAL flush (writers
    // at 8-64 durable connections lost 25-84 % of their commits, docs/benchmarks.md). The trigger
    // stays, disabled: `outboxctl notify on` is the explicit opt-in. Switching it off here is
    // recorded in the audit log like the command's switch, by the account that ran the migration.
    // The publication on the events table alone is the relays' doorbell (a temporary logical slot
    // that wakes them without the writers paying anything); an account that may not create it
    // leaves relays polling. Each relay records which wake-up it uses.
    Migration wakeupDefault{
        19, QStringLiteral("wake-up trigger off by default; doorbell publication; each relay's wake-up"), {}};
    wakeupDefault.statements = QStringList{
        QStringLiteral(R"(DO $mig$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = to_regclass('{events}')
             AND t.tgname = lower('{events}_notify') AND t.tgenabled <> 'D') THEN
    ALTER TABLE {events} DISABLE TRIGGER {events}_notify;
    INSERT INTO {audit} (actor, host, action, target_kind, target_ids, reason, affected_count,
                         before_state, after_state, outcome)
    VALUES (session_user, NULL, 'notify.off', 'table', jsonb_build_array('{events}'),
            'migration 19: the wake-up trigger is off by default (a NOTIFY serialises the writers'' '
            || 'commits); outboxctl notify on switches it back', 1,
            jsonb_build_object('{events}_notify', 'on'), jsonb_build_object('{events}_notify', 'off'), 'ok');
  END IF;
END
$mig$)"),
        QStringLiteral(R"(DO $mig$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_publication WHERE pubname = lower('{events}_doorbell')) THEN
    CREATE PUBLICATION {events}_doorbell FOR TABLE {events} WITH (publish = 'insert');
  END IF;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'no doorbell publication (this account may not create one): relays poll';
END
$mig$)"),
        QStringLiteral("ALTER TABLE {relays} ADD COLUMN IF NOT EXISTS wakeup text"),
    };
    return {tables,     triggers,         relayCounters,   covering,     deadLetterReplay,
            relayPath,  consumerCounters, deadLetterEdits, sentTopic,    aggregateHash,
            heldClaims, inboxTrace,       traceIndex,      relayBroker,  consumerTopics,
            heldSince,  samplerIndex,     jsonShapes,      wakeupDefault};
}

QStringList PostgresDialect::runtimeGrants(const QString& role, const QString& databaseName) const
{
    QString database = databaseName;
    database.replace(QLatin1Char('"'), QLatin1String("\"\""));
    const auto grant = [&](const QString& privileges, const QString& table) {
        return QStringLiteral("GRANT %1 ON TABLE %2 TO %3").arg(privileges, sql(table), role);
    };
    return {
        QStringLiteral("GRANT CONNECT ON DATABASE \"%1\" TO %2").arg(database, role),
        QStringLiteral("GRANT USAGE ON SCHEMA public TO %1").arg(role),
        grant(QStringLiteral("SELECT, INSERT, UPDATE, DELETE"), QStringLiteral("{events}")),
        grant(QStringLiteral("SELECT, INSERT, UPDATE"), QStringLiteral("{inbox}")),
        grant(QStringLiteral("SELECT, INSERT, UPDATE"), QStringLiteral("{dead_letters}")),
        grant(QStringLiteral("SELECT, INSERT"), QStringLiteral("{audit}")),
        grant(QStringLiteral("SELECT, INSERT, UPDATE, DELETE"), QStringLiteral("{relays}")),
        grant(QStringLiteral("SELECT, INSERT, UPDATE"), QStringLiteral("{consumer_counters}")),
        grant(QStringLiteral("SELECT, INSERT, DELETE"), QStringLiteral("{held_claims}")),
        grant(QStringLiteral("SELECT"), QStringLiteral("{migrations}")),
    };
}

QString PostgresDialect::jsonArrayContainsInteger(const QString& column, const QString& placeholder) const
{
    return QStringLiteral("%1 @> jsonb_build_array(CAST(%2 AS bigint))").arg(column, placeholder);
}

QString PostgresDialect::jsonTextEquals(const QString& column, const QString& pathPlaceholder,
                                        const QString& valuePlaceholder) const
{
    return QStringLiteral("(%1 #>> CAST(%2 AS text[])) = %3").arg(column, pathPlaceholder, valuePlaceholder);
}

QString PostgresDialect::traceIdExpression() const
{
    return QStringLiteral("substr(headers ->> 'traceparent', 4, 32)");
}

QVariant PostgresDialect::jsonPath(const QStringList& segments, bool arrayIndexes) const
{
    // A text[] literal with every element quoted ("null" unquoted would be NULL); #>> takes an
    // all-digit element as an array index by itself.
    Q_UNUSED(arrayIndexes);
    QStringList quoted;
    for (const QString& s : segments)
        quoted << QLatin1Char('"') + s + QLatin1Char('"');
    return QString(QLatin1Char('{') + quoted.join(QLatin1Char(',')) + QLatin1Char('}'));
}

} // namespace outbox
