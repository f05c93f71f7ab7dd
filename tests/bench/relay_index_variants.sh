#!/bin/bash
# Prices one index of the outbox table on the relay's path with pgbench (docs/benchmarks.md, "Relay",
# attribution). Not run by ctest.
#
#   bash tests/bench/relay_index_variants.sh PORT DB   (a PostgreSQL with a migrated outbox_events)
#
# Copies outbox_events' columns and indexes into a scratch table, fills it with 100,000 events shaped
# like outbox-relay-bench's, takes out the aggregate index and puts back each candidate in turn, then
# drains the table with the reference's claim of 500 + one mark (2 pgbench clients) and prints
# events/s with the load average. Alternate the variants a few times: one run says little on a
# shared machine.
set -euo pipefail
port=${1:?port}
db=${2:?database}
psql_() { psql -q -h 127.0.0.1 -p "$port" -U outbox -d "$db" -v ON_ERROR_STOP=1 "$@"; }
script=$(mktemp)
trap 'rm -f "$script"' EXIT
cat >"$script" <<'SQL'
WITH c AS (UPDATE bench_variant SET status = 'SENDING', worker_id = 'w' || :client_id, lease_until = now() + interval '60 s' WHERE id IN (SELECT id FROM bench_variant WHERE status = 'PENDING' ORDER BY id LIMIT 500 FOR UPDATE SKIP LOCKED) RETURNING id, event_id, payload) SELECT coalesce(array_agg(id), '{}') AS ids FROM c
\gset
UPDATE bench_variant SET status = 'SENT', sent_at = now(), lease_until = NULL WHERE id = ANY(':ids'::bigint[]) AND status = 'SENDING' AND worker_id = 'w' || :client_id;
SQL
variant() {
    local name=$1 ddl=$2
    psql_ <<SQL
DROP TABLE IF EXISTS bench_variant;
CREATE TABLE bench_variant (LIKE outbox_events INCLUDING ALL);
INSERT INTO bench_variant (event_id, event_type, aggregate_type, aggregate_id, aggregate_version, payload, headers)
  SELECT gen_random_uuid()::text, CASE WHEN n % 2 = 1 THEN 'OrderPaid' ELSE 'OrderCreated' END, 'Order',
         'O' || (n % 50000), n / 50000 + 1,
         jsonb_build_object('order_id', 'O' || (n % 50000), 'total_cents', 1999 + n % 1000, 'sku',
                            'SKU-' || (n % 97), 'note', 'benchmark event with a realistic payload size'),
         jsonb_build_object('trace_id', lpad(to_hex(n), 16, '0'))
  FROM generate_series(0, 99999) n;
DROP INDEX bench_variant_aggregate_type_aggregate_id_id_idx;
$ddl
VACUUM ANALYZE bench_variant;
CHECKPOINT;
SQL
    local start end n
    start=$(date +%s.%N)
    pgbench -n -h 127.0.0.1 -p "$port" -U outbox -c 2 -j 2 -t 100 -f "$script" "$db" >/dev/null
    end=$(date +%s.%N)
    n=$(psql_ -Atc "SELECT count(*) FROM bench_variant WHERE status = 'SENT'")
    echo "$name: $n events, $(echo "$n / ($end - $start)" | bc) events/s (load $(cut -d' ' -f1-3 /proc/loadavg))"
}
for round in 1 2 3; do
    variant "aggregate btree (aggregate_type, aggregate_id, id), as migrated" \
        "CREATE INDEX ON bench_variant (aggregate_type, aggregate_id, id);"
    variant "aggregate btree, COLLATE \"C\"" \
        "CREATE INDEX ON bench_variant (aggregate_type COLLATE \"C\", aggregate_id COLLATE \"C\", id);"
    variant "hash (aggregate_id)" "CREATE INDEX ON bench_variant USING hash (aggregate_id);"
    variant "aggregate btree, partial on unsent rows" \
        "CREATE INDEX ON bench_variant (aggregate_type, aggregate_id, id) WHERE status IN ('PENDING','SENDING','FAILED');"
    variant "no aggregate index" ""
done
psql_ -c "DROP TABLE bench_variant"
