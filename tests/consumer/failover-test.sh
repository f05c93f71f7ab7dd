#!/usr/bin/env bash
# The product consumer resumes a crashed member's partitions within 15 s (issue 37 item 6): a relay
# sends a steady stream of orders to the embedded broker, `outboxctl consume --demo-inventory` handles
# them, is killed with SIGKILL (no goodbye to the group) and started again at once; the new member
# must process an event within 15 s of the kill, twice. Prints each measured time.
#   failover-test.sh OUTBOXCTL WORK_DIR PG_PORT
set -euo pipefail
ctl=$1 work=$2 pgport=$3
limit=15

rm -rf "$work"; mkdir -p "$work"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT
fail() {
  echo "failover: FAIL: $*" >&2
  for f in "$work"/*.log; do [ -s "$f" ] && { echo "--- $f" >&2; tail -n 10 "$f" >&2; }; done
  exit 1
}

db=failover_$$
psql -q "postgresql://outbox@127.0.0.1:$pgport/postgres" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
PG="postgresql://outbox@127.0.0.1:$pgport/$db"
"$ctl" migrate --db "$PG" >/dev/null
"$ctl" kafka --topic order:6 >"$work/kafka.out" 2>"$work/kafka.log" &
pids+=($!)
for _ in $(seq 100); do grep -q '^bootstrap ' "$work/kafka.out" && break; sleep 0.1; done
bootstrap=$(sed -n 's/^bootstrap //p' "$work/kafka.out")
[ -n "$bootstrap" ] || fail "the embedded broker printed no bootstrap address"
"$ctl" relay --db "$PG" --kafka-bootstrap "$bootstrap" --quiet >"$work/relay.log" 2>&1 &
pids+=($!)
# Ten orders a second, each of its own aggregate (so every partition gets some).
psql -q "$PG" -v ON_ERROR_STOP=1 -c "CREATE OR REPLACE PROCEDURE write_orders(n int) LANGUAGE plpgsql AS \$\$
BEGIN FOR i IN 1..n LOOP
  INSERT INTO outbox_events (event_id, event_type, aggregate_type, aggregate_id, payload)
  VALUES ('fo-' || gen_random_uuid(), 'OrderCreated', 'Order', 'o-' || i,
          jsonb_build_object('order_id', 'o-' || i, 'sku', 'SKU-1', 'quantity', 1));
  COMMIT; PERFORM pg_sleep(0.1);
END LOOP; END \$\$"
psql -q "$PG" -c "CALL write_orders(100000)" >"$work/writer.log" 2>&1 &
pids+=($!)

inbox() { psql -qAt "$PG" -c "SELECT COUNT(*) FROM inbox_events"; }
start_consumer() {
  "$ctl" consume --demo-inventory --db "$PG" --kafka-bootstrap "$bootstrap" --consumer inventory \
    >>"$work/consumer.log" 2>&1 &
  consumer=$!
  pids+=($consumer)
}
start_consumer
for _ in $(seq 300); do [ "$(inbox)" -gt 20 ] && break; sleep 0.1; done
[ "$(inbox)" -gt 20 ] || fail "the consumer processed nothing"
for round in 1 2; do
  sleep 2
  kill -9 "$consumer"
  killed=$(date +%s%N)
  wait "$consumer" 2>/dev/null || true
  before=$(inbox)
  start_consumer
  while [ "$(inbox)" -le "$before" ]; do
    elapsed=$((($(date +%s%N) - killed) / 1000000))
    [ "$elapsed" -lt $((limit * 1000 + 30000)) ] || fail "round $round: nothing processed ${elapsed} ms after the kill"
    sleep 0.1
  done
  elapsed=$((($(date +%s%N) - killed) / 1000000))
  echo "failover: round $round: the restarted member processed again ${elapsed} ms after the kill (load $(cut -d' ' -f1 /proc/loadavg))"
  [ "$elapsed" -le $((limit * 1000)) ] || fail "round $round: ${elapsed} ms, more than ${limit} s"
done
echo "failover: passed"
