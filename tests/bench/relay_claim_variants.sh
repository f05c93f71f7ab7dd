#!/bin/bash
# Prices the relay's claim + mark SQL and storage designs with fewer writes per row, with pgbench
# (docs/benchmarks.md, "Relay", "Claim and mark variants"). Not run by ctest.
#
#   bash tests/bench/relay_claim_variants.sh PORT DB [ROUNDS] [VARIANT…]
#
# DB must hold a migrated outbox_events (any rows). Each variant gets a fresh copy of its columns
# and indexes (bench_variant, LIKE outbox_events INCLUDING ALL) filled with EVENTS (default 200,000) PENDING events
# shaped like outbox-relay-bench's, then 2 pgbench clients drain it in batches of 500 and the line
# gives events/s and the load average. Variants (alternated ROUNDS times, default 3):
#   minimal    the reference: its SQL on outbox-relay-bench's minimal table (four indexes)
#   ref        the reference's claim (status, worker, lease) + mark (id = ANY, worker fence)
#   project    the relay's own statements (EventStore::claim / markSent, PostgreSQL)
#   proj-ids   the same, the claim returning only id (what the 13 returned columns cost the server)
#   proj-tid   the same, the claim joining the locked rows by TID (ctid) instead of primary key
#   proj-lean  the claim writing only status/worker/lease_until, the mark only status/sent_at/
#              lease_until (what lease_token, attempts, partition, offset, topic cost)
#   hot        a claim that changes no indexed column: the lease is taken on the PENDING row (token,
#              until, attempts + 1; lease_holders_idx leaves the index set), fillfactor 45 (HOT_FILLFACTOR) so the
#              new version fits on its page (a HOT update); the mark to SENT as the project's
#   held       claim = SELECT … FOR UPDATE SKIP LOCKED in a transaction held until the mark, one
#              committed journal row per batch (the ids, so attempts are counted after a crash),
#              then one UPDATE to SENT and COMMIT: one new row version per event instead of two
#   ref-held   the same with the reference's four indexes only
#   ref4       the reference's SQL with the reference's four indexes only
set -euo pipefail
port=${1:?port}
db=${2:?database}
rounds=${3:-3}
events=${EVENTS:-200000}
shift $(($# < 3 ? $# : 3))
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(minimal ref project proj-lean hot held)
psql_() { psql -q -h 127.0.0.1 -p "$port" -U outbox -d "$db" -v ON_ERROR_STOP=1 "$@"; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

cols13="id, event_id, event_type, aggregate_type, aggregate_id, aggregate_version, topic, payload, headers, schema_version, attempts, lease_until, created_at"
cat >"$dir/ref.sql" <<'SQL'
WITH c AS (UPDATE bench_variant SET status = 'SENDING', worker_id = 'w' || :client_id, lease_until = now() + interval '60 s' WHERE id IN (SELECT id FROM bench_variant WHERE status = 'PENDING' ORDER BY id LIMIT 500 FOR UPDATE SKIP LOCKED) RETURNING id, event_id, payload) SELECT coalesce(array_agg(id), '{}') AS ids FROM c
\gset
UPDATE bench_variant SET status = 'SENT', sent_at = now(), lease_until = NULL WHERE id = ANY(':ids'::bigint[]) AND status = 'SENDING' AND worker_id = 'w' || :client_id;
SQL
cp "$dir/ref.sql" "$dir/ref4.sql"
cp "$dir/ref.sql" "$dir/minimal.sql"
# The relay's statements as EventStore sends them (one claim with the limit in its text, one mark
# joined to bound arrays); the token is a fresh uuid per batch as in the relay.
project_sql() { # $1: RETURNING list of the claim, $2: claim SET tail, $3: mark SET tail
    cat <<SQL
\\set tok random(1, 1000000000)
WITH c AS (UPDATE bench_variant SET status = 'SENDING', worker_id = 'w' || :client_id$2 WHERE id IN (SELECT e.id FROM bench_variant e WHERE e.status = 'PENDING' AND e.available_at <= now() ORDER BY e.id LIMIT 500 FOR UPDATE SKIP LOCKED) RETURNING $1) SELECT coalesce(array_agg(id), '{}') AS ids, coalesce(array_agg(0), '{}') AS parts, coalesce(array_agg(id), '{}') AS offs, coalesce(array_agg('orders'::text), '{}') AS topics FROM c
\\gset
UPDATE bench_variant e SET status = 'SENT', sent_at = now()$3 FROM unnest(':ids'::bigint[], ':parts'::bigint[], ':offs'::bigint[], ':topics'::text[]) AS m(id, p, o, t) WHERE e.id = m.id AND e.status = 'SENDING' AND $4;
SQL
}
full_claim=", lease_token = 'tok-' || :client_id || '-' || :tok, lease_until = now() + interval '60 s', attempts = attempts + 1"
full_mark=", lease_until = NULL, lease_token = NULL, broker_partition = m.p, broker_offset = m.o, sent_topic = m.t"
project_sql "$cols13" "$full_claim" "$full_mark" "e.lease_token = 'tok-' || :client_id || '-' || :tok" >"$dir/project.sql"
project_sql "$cols13" "$full_claim" "$full_mark" "e.lease_token = 'tok-' || :client_id || '-' || :tok" | sed 's/WHERE id IN (SELECT e.id FROM/WHERE ctid = ANY(ARRAY(SELECT e.ctid FROM/; s/SKIP LOCKED) RETURNING/SKIP LOCKED)) RETURNING/' >"$dir/proj-tid.sql"
project_sql "id" "$full_claim" "$full_mark" "e.lease_token = 'tok-' || :client_id || '-' || :tok" >"$dir/proj-ids.sql"
project_sql "$cols13" ", lease_until = now() + interval '60 s'" ", lease_until = NULL" "e.worker_id = 'w' || :client_id" >"$dir/proj-lean.sql"
# HOT claim: status stays PENDING, the lease columns are not indexed; a lease that expired is
# claimable again. The mark moves the row to SENT (not HOT: status is in partial predicates).
cat >"$dir/hot.sql" <<SQL
\\set tok random(1, 1000000000)
WITH c AS (UPDATE bench_variant SET worker_id = 'w' || :client_id, lease_token = 'tok-' || :client_id || '-' || :tok, lease_until = now() + interval '60 s', attempts = attempts + 1 WHERE id IN (SELECT e.id FROM bench_variant e WHERE e.status = 'PENDING' AND e.available_at <= now() AND (e.lease_until IS NULL OR e.lease_until < now()) ORDER BY e.id LIMIT 500 FOR UPDATE SKIP LOCKED) RETURNING $cols13) SELECT coalesce(array_agg(id), '{}') AS ids, coalesce(array_agg(0), '{}') AS parts, coalesce(array_agg(id), '{}') AS offs, coalesce(array_agg('orders'::text), '{}') AS topics FROM c
\\gset
UPDATE bench_variant e SET status = 'SENT', sent_at = now()$full_mark FROM unnest(':ids'::bigint[], ':parts'::bigint[], ':offs'::bigint[], ':topics'::text[]) AS m(id, p, o, t) WHERE e.id = m.id AND e.status = 'PENDING' AND e.lease_token = 'tok-' || :client_id || '-' || :tok;
SQL
# Held claim: row locks instead of a committed lease; the journal row is what a crash leaves behind
# (its ids get attempts + 1 when a relay finds it at start-up). pgbench has one connection per
# client, so the journal insert runs inside the claim's transaction here; in the product it would
# commit on a second connection first (one more small commit per batch).
cat >"$dir/held.sql" <<SQL
\\set tok random(1, 1000000000)
BEGIN;
WITH c AS (SELECT $cols13 FROM bench_variant e WHERE e.status = 'PENDING' AND e.available_at <= now() ORDER BY e.id LIMIT 500 FOR UPDATE SKIP LOCKED) SELECT coalesce(array_agg(id), '{}') AS ids, coalesce(array_agg(0), '{}') AS parts, coalesce(array_agg(id), '{}') AS offs, coalesce(array_agg('orders'::text), '{}') AS topics FROM c
\\gset
INSERT INTO bench_journal (worker_id, token, ids) VALUES ('w' || :client_id, 'tok-' || :client_id || '-' || :tok, ':ids'::bigint[]);
UPDATE bench_variant e SET status = 'SENT', sent_at = now(), attempts = attempts + 1, worker_id = 'w' || :client_id, broker_partition = m.p, broker_offset = m.o, sent_topic = m.t FROM unnest(':ids'::bigint[], ':parts'::bigint[], ':offs'::bigint[], ':topics'::text[]) AS m(id, p, o, t) WHERE e.id = m.id;
COMMIT;
SQL
cp "$dir/held.sql" "$dir/ref-held.sql"

variant() {
    local name=$1 extra="" fill=""
    case $name in
    hot)
        # HOT needs every index free of the changed columns: no lease_holders index, and attempts
        # no longer INCLUDEd in the PENDING and FAILED/DEAD indexes.
        extra="DO \$\$DECLARE i record; BEGIN FOR i IN SELECT indexname FROM pg_indexes WHERE tablename = 'bench_variant' AND (indexdef LIKE '%attempts%' OR indexdef LIKE '%worker_id%') LOOP EXECUTE 'DROP INDEX ' || quote_ident(i.indexname); END LOOP; END\$\$;
CREATE INDEX ON bench_variant (id) WHERE status = 'PENDING';
CREATE INDEX ON bench_variant (status, id) WHERE status IN ('FAILED', 'DEAD');"
        fill="ALTER TABLE bench_variant SET (fillfactor = ${HOT_FILLFACTOR:-45});"
        ;;
    ref4 | ref-held)
        extra="DO \$\$DECLARE i record; BEGIN FOR i IN SELECT indexname FROM pg_indexes WHERE tablename = 'bench_variant' AND indexname NOT IN ('bench_variant_pkey', 'bench_variant_event_id_key') LOOP EXECUTE 'DROP INDEX ' || quote_ident(i.indexname); END LOOP; END\$\$;
CREATE INDEX ON bench_variant (id) WHERE status = 'PENDING';
CREATE INDEX ON bench_variant (worker_id) WHERE status = 'SENDING';"
        ;;
    esac
    local headers=", jsonb_build_object('trace_id', lpad(to_hex(n), 16, '0'))" table="CREATE TABLE bench_variant (LIKE outbox_events INCLUDING ALL);" columns="event_type, aggregate_type, aggregate_id, aggregate_version, topic," values="CASE WHEN n % 2 = 1 THEN 'OrderPaid' ELSE 'OrderCreated' END, 'Order', 'O' || (n % 50000), n / 50000 + 1, 'orders',"
    if [ "$name" = minimal ]; then
        # outbox-relay-bench's reference table: the minimal outbox and its four indexes.
        table="CREATE TABLE bench_variant (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, event_id text NOT NULL UNIQUE, payload jsonb NOT NULL, status text NOT NULL DEFAULT 'PENDING', worker_id text, lease_until timestamptz, sent_at timestamptz);
CREATE INDEX ON bench_variant (id) WHERE status = 'PENDING';
CREATE INDEX ON bench_variant (worker_id) WHERE status = 'SENDING';"
        columns="" values="" headers=""
    fi
    psql_ -v events="$events" >/dev/null <<SQL
DROP TABLE IF EXISTS bench_variant;
DROP TABLE IF EXISTS bench_journal;
CREATE TABLE bench_journal (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, worker_id text NOT NULL, token text NOT NULL, ids bigint[] NOT NULL, at timestamptz NOT NULL DEFAULT now());
$table
ALTER TABLE bench_variant SET (autovacuum_enabled = false);
$fill
INSERT INTO bench_variant (event_id, $columns payload${headers:+, headers})
  SELECT gen_random_uuid()::text, $values
         jsonb_build_object('order_id', 'O' || (n % 50000), 'total_cents', 1999 + n % 1000, 'sku',
                            'SKU-' || (n % 97), 'note', 'benchmark event with a realistic payload size')
         $headers
  FROM generate_series(0, :events - 1) n;
$extra
VACUUM ANALYZE bench_variant;
CHECKPOINT;
SQL
    local start end n hot upd
    psql_ -Atc "SELECT pg_stat_reset_single_table_counters('bench_variant'::regclass)" >/dev/null
    start=$(date +%s.%N)
    pgbench -n -h 127.0.0.1 -p "$port" -U outbox -c 2 -j 2 -t $((events / 1000)) -f "$dir/$name.sql" "$db" >/dev/null
    end=$(date +%s.%N)
    n=$(psql_ -Atc "SELECT count(*) FROM bench_variant WHERE status = 'SENT'")
    sleep 1.2 # let the statistics collector see the counters
    read -r upd hot < <(psql_ -AtF' ' -c "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'bench_variant'")
    printf '%-10s %6d events  %7.0f events/s  updates %6d (HOT %6d)  load %s\n' "$name" "$n" \
        "$(echo "$n / ($end - $start)" | bc -l)" "$upd" "$hot" "$(cut -d' ' -f1-3 /proc/loadavg)"
}
for round in $(seq "$rounds"); do
    for v in "${variants[@]}"; do variant "$v"; done
done
psql_ -c "DROP TABLE IF EXISTS bench_variant; DROP TABLE IF EXISTS bench_journal" >/dev/null
