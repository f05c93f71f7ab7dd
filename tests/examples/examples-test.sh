#!/usr/bin/env bash
# The writer and inbox contract (docs/contract.md) from the languages people use: runs the examples of
# docs/examples against the CTest PostgreSQL (and MariaDB) servers, one embedded broker and one relay.
# Java, Python, Go and Node each write 1,000 orders while the relay runs; the Python and Node inventory
# consumers each process all of them; then `trace`, `events list --header traceparent=…`,
# `consumers` and `reconcile` must show each one end to end, and writers that break the contract
# must get a clear error or a doctor finding.
#   examples-test.sh OUTBOXCTL SOURCE_DIR WORK_DIR PG_PORT MYSQL_PORT
set -euo pipefail
ctl=$1 src=$2 work=$3 pgport=$4 myport=$5
examples=$src/docs/examples
py=/usr/bin/python3 # Debian's, with python3-psycopg and python3-confluent-kafka
orders=1000
languages=(java python go node)
consumers=(inventory-python inventory-node)
total=$((orders * ${#languages[@]}))

rm -rf "$work"; mkdir -p "$work"
export PATH="$(cd "$(dirname "$ctl")" && pwd):$PATH" # doctor's prepared commands run as printed
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT
fail() {
  echo "examples: FAIL: $*" >&2
  for f in "$work"/*.log; do [ -s "$f" ] && { echo "--- $f" >&2; tail -n 20 "$f" >&2; }; done
  exit 1
}
step() { echo "examples: $*"; }
json() { "$py" -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

for tool in java go node psql mariadb curl; do
  command -v "$tool" >/dev/null || fail "$tool is missing (run installer/install-deps.sh)"
done
[ -d "$examples/node/node_modules/kafkajs" ] && [ -d "$examples/node/node_modules/pg" ] \
  || fail "docs/examples/node/node_modules is missing (run installer/install-deps.sh, which runs npm ci there)"
"$py" -c 'import psycopg, confluent_kafka' || fail "python3-psycopg or python3-confluent-kafka is missing"

db=examples_$$
psql -q "postgresql://outbox@127.0.0.1:$pgport/postgres" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
PG="postgresql://outbox@127.0.0.1:$pgport/$db"
"$ctl" migrate --db "$PG" >/dev/null

step "migrate --check: the schema a writer expects"
"$ctl" migrate --check --db "$PG" >"$work/check.out" || fail "migrate --check failed on a migrated database"
grep -q ': ok' "$work/check.out" || fail "migrate --check said: $(cat "$work/check.out")"
set +e
"$ctl" migrate --check --expect 9999 --db "$PG" >"$work/check-new.out" 2>&1; rc=$?
set -e
[ "$rc" -eq 3 ] || fail "migrate --check --expect 9999 exited $rc, expected 3"
grep -q 'version 9999 expected: run outboxctl migrate' "$work/check-new.out" || fail "$(cat "$work/check-new.out")"
psql -q "postgresql://outbox@127.0.0.1:$pgport/postgres" -c "DROP DATABASE IF EXISTS ${db}_empty" -c "CREATE DATABASE ${db}_empty"
set +e
"$ctl" migrate --check --db "postgresql://outbox@127.0.0.1:$pgport/${db}_empty" >"$work/check-empty.out" 2>&1; rc=$?
set -e
[ "$rc" -eq 3 ] && grep -q 'has no outbox schema' "$work/check-empty.out" \
  || fail "migrate --check on an empty database: exit $rc, $(cat "$work/check-empty.out")"

step "embedded broker and relay"
"$ctl" kafka --topic orders:3 --topic orders-mariadb:1 >"$work/kafka.out" 2>"$work/kafka.log" &
pids+=($!)
for _ in $(seq 100); do grep -q '^bootstrap ' "$work/kafka.out" && break; sleep 0.1; done
bootstrap=$(sed -n 's/^bootstrap //p' "$work/kafka.out")
[ -n "$bootstrap" ] || fail "the embedded broker printed no bootstrap address"
"$ctl" relay --db "$PG" --kafka-bootstrap "$bootstrap" --quiet >"$work/relay.log" 2>&1 &
pids+=($!)

step "consumers (Python, Node) and $orders orders from each of ${languages[*]}"
"$py" "$examples/python/inventory_consumer.py" --db "$PG" --bootstrap "$bootstrap" --count "$total" \
  --timeout 240 >"$work/consumer-python.log" 2>&1 &
consumer_py=$!
pids+=($consumer_py)
node "$examples/node/inventory-consumer.js" --db "$PG" --bootstrap "$bootstrap" --count "$total" \
  --timeout 240 >"$work/consumer-node.log" 2>&1 &
consumer_node=$!
pids+=($consumer_node)

export GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE="$work/../examples-go-cache" GOFLAGS=
go build -o "$work/order_service_go" "$examples/go/order_service.go" || fail "the Go example does not build"
writers=()
java -cp /usr/share/java/postgresql.jar:/usr/share/java/mariadb-java-client.jar "$examples/java/OrderService.java" \
  --db "jdbc:postgresql://127.0.0.1:$pgport/$db?user=outbox" --orders "$orders" --trace-file "$work/java.trace" \
  >"$work/writer-java.log" 2>&1 &
writers+=($!)
"$py" "$examples/python/order_service.py" --db "$PG" --orders "$orders" --trace-file "$work/python.trace" \
  >"$work/writer-python.log" 2>&1 &
writers+=($!)
"$work/order_service_go" -db "postgres://outbox@127.0.0.1:$pgport/$db?sslmode=disable" -orders "$orders" \
  -trace-file "$work/go.trace" >"$work/writer-go.log" 2>&1 &
writers+=($!)
node "$examples/node/order-service.js" --db "$PG" --orders "$orders" --trace-file "$work/node.trace" \
  >"$work/writer-node.log" 2>&1 &
writers+=($!)
for i in "${!writers[@]}"; do
  wait "${writers[$i]}" || fail "the ${languages[$i]} writer failed"
  grep -q "$orders order(s) created, 0 already there" "$work/writer-${languages[$i]}.log" \
    || fail "${languages[$i]} writer: $(cat "$work/writer-${languages[$i]}.log")"
done

step "a retried request (same idempotency key) writes no second order or event"
"$py" "$examples/python/order_service.py" --db "$PG" --orders 10 >"$work/writer-python-again.log" 2>&1
grep -q '0 order(s) created, 10 already there' "$work/writer-python-again.log" \
  || fail "retry: $(cat "$work/writer-python-again.log")"

wait "$consumer_py" || fail "the Python consumer failed"
wait "$consumer_node" || fail "the Node consumer failed"
grep -q "^inventory_consumer: $total processed" "$work/consumer-python.log" || fail "$(cat "$work/consumer-python.log")"
grep -q "^inventory-consumer: $total processed" "$work/consumer-node.log" || fail "$(cat "$work/consumer-node.log")"

step "reconcile: 0 unprocessed for each consumer, which counts only the topic it recorded"
# An event of a topic the inventory consumers do not read: they record their topic (orders), so it is
# not theirs to process (before issue 37 every such event was counted as unprocessed by them).
psql -q "$PG" -v ON_ERROR_STOP=1 -c "INSERT INTO outbox_events (event_id, event_type, aggregate_type, aggregate_id, topic, payload) VALUES ('other-topic-1', 'PaymentTaken', 'Payment', 'p-1', 'orders-mariadb', '{\"amount\":1}')"
for _ in $(seq 100); do
  [ "$(psql -qAt "$PG" -c "SELECT status FROM outbox_events WHERE event_id = 'other-topic-1'")" = SENT ] && break
  sleep 0.1
done
for c in "${consumers[@]}"; do
  "$ctl" reconcile --db "$PG" --consumer "$c" --older-than 0s --json >"$work/reconcile-$c.json"
  unconsumed=$(json 'd["unconsumed"]' <"$work/reconcile-$c.json")
  scanned=$(json 'd["scanned"]' <"$work/reconcile-$c.json")
  [ "$unconsumed" = 0 ] && [ "$scanned" = "$total" ] \
    || fail "reconcile $c: $unconsumed unprocessed of $scanned scanned (expected 0 of $total)"
done
"$ctl" consumers --db "$PG" --json >"$work/consumers.json"
for c in "${consumers[@]}"; do
  grep -q "\"$c\"" "$work/consumers.json" || fail "outboxctl consumers does not list $c"
done

step "a forced redelivery: a new consumer group reads the messages again, no effect is applied twice"
"$py" "$examples/python/inventory_consumer.py" --db "$PG" --bootstrap "$bootstrap" --group inventory-python-again \
  --until-trace "$work/node.trace" --timeout 120 >"$work/consumer-python-again.log" 2>&1 &
again_py=$!
node "$examples/node/inventory-consumer.js" --db "$PG" --bootstrap "$bootstrap" --group inventory-node-again \
  --until-trace "$work/python.trace" --timeout 120 >"$work/consumer-node-again.log" 2>&1 \
  || fail "the Node consumer, redelivery"
wait "$again_py" || fail "the Python consumer, redelivery"
grep -Eq "^inventory_consumer: 0 processed, [1-9][0-9]* duplicate\(s\)" "$work/consumer-python-again.log" \
  || fail "Python redelivery: $(cat "$work/consumer-python-again.log")"
grep -Eq "^inventory-consumer: 0 processed, [1-9][0-9]* duplicate\(s\)" "$work/consumer-node-again.log" \
  || fail "Node redelivery: $(cat "$work/consumer-node-again.log")"
for c in "${consumers[@]}"; do
  n=$(psql -qAt "$PG" -c "SELECT COUNT(*) FROM example_reservations WHERE consumer_name = '$c'")
  [ "$n" = "$total" ] || fail "$c: $n reservations for $total orders after the redelivery"
done

step "trace: created → sent → processed by each consumer, with the writer's traceparent"
for lang in "${languages[@]}"; do
  trace=$(tr -d '\n' <"$work/$lang.trace")
  [[ $trace =~ ^00-[0-9a-f]{32}-[0-9a-f]{16}-01$ ]] || fail "$lang wrote no traceparent: $trace"
  "$ctl" events list --db "$PG" --header "traceparent=$trace" --json >"$work/found-$lang.json"
  n=$(json 'len(d["events"])' <"$work/found-$lang.json")
  [ "$n" = 1 ] || fail "events list --header traceparent=$trace found $n event(s), expected 1"
  trace_id=${trace:3:32}
  "$ctl" events list --db "$PG" --trace-id "$trace_id" --json >"$work/found-id-$lang.json"
  cmp -s <(json '[e["event_id"] for e in d["events"]]' <"$work/found-$lang.json") \
    <(json '[e["event_id"] for e in d["events"]]' <"$work/found-id-$lang.json") \
    || fail "events list --trace-id $trace_id: $(cat "$work/found-id-$lang.json")"
  event_id=$(json 'd["events"][0]["event_id"]' <"$work/found-$lang.json")
  "$ctl" trace --db "$PG" "$event_id" --json >"$work/trace-$lang.json"
  "$py" - "$work/trace-$lang.json" "$trace" "${consumers[@]}" <<'PY' || fail "trace of the $lang example's event"
import json, sys
path, trace, consumers = sys.argv[1], sys.argv[2], sys.argv[3:]
steps = json.load(open(path))["steps"]
kinds = [s["kind"] for s in steps]
assert "created" in kinds and "sent" in kinds, kinds
assert kinds.index("created") < kinds.index("sent"), kinds
created = steps[kinds.index("created")]
assert created["details"]["traceparent"] == trace, created
for c in consumers:
    inbox = [s for s in steps if s["kind"] == "inbox" and s["details"]["consumer"] == c]
    assert inbox, f"no inbox step of {c}: {kinds}"
    d = inbox[0]["details"]
    assert d["status"] == "PROCESSED" and d["traceparent"] == trace, d
    assert steps.index(inbox[0]) > kinds.index("sent"), kinds
PY
done
"$ctl" trace --db "$PG" "$event_id" >"$work/trace.txt"
grep -q "consumer inventory-node: PROCESSED (1 attempt(s)), traceparent $trace" "$work/trace.txt" \
  || fail "the trace table does not show the inbox traceparent: $(cat "$work/trace.txt")"

step "a dead letter: an order for a SKU the inventory does not know"
"$py" "$examples/python/order_service.py" --db "$PG" --orders 1 --key-prefix unknown-sku --sku SKU-404 \
  --trace-file "$work/dead.trace" >"$work/writer-dead.log" 2>&1 || fail "$(cat "$work/writer-dead.log")"
"$py" "$examples/python/inventory_consumer.py" --db "$PG" --bootstrap "$bootstrap" --count 1 --timeout 120 \
  >"$work/consumer-python-dead.log" 2>&1 &
dead_py=$!
node "$examples/node/inventory-consumer.js" --db "$PG" --bootstrap "$bootstrap" --count 1 --timeout 120 \
  >"$work/consumer-node-dead.log" 2>&1 || fail "the Node consumer on the unknown SKU"
wait "$dead_py" || fail "the Python consumer on the unknown SKU"
dead_trace=$(tr -d '\n' <"$work/dead.trace")
"$ctl" events list --db "$PG" --header "traceparent=$dead_trace" --json >"$work/found-dead.json"
dead_event=$(json 'd["events"][0]["event_id"]' <"$work/found-dead.json")
for c in "${consumers[@]}"; do
  "$ctl" dlq list --db "$PG" --consumer "$c" --json >"$work/dlq-$c.json"
  [ "$(json '[l["event_id"] for l in d["dead_letters"]]' <"$work/dlq-$c.json")" = "['$dead_event']" ] \
    || fail "dlq list --consumer $c: $(cat "$work/dlq-$c.json")"
  "$ctl" reconcile --db "$PG" --consumer "$c" --older-than 0s --json >"$work/reconcile-dead-$c.json"
  [ "$(json 'd["unconsumed"]' <"$work/reconcile-dead-$c.json")" = 1 ] \
    || fail "reconcile $c does not count the dead-lettered event: $(cat "$work/reconcile-dead-$c.json")"
done
"$ctl" trace --db "$PG" "$dead_event" >"$work/trace-dead.txt"
grep -q "consumer inventory-python: FAILED (1 attempt(s)), traceparent $dead_trace: no stock for SKU-404" \
  "$work/trace-dead.txt" || fail "trace of the dead-lettered event: $(cat "$work/trace-dead.txt")"

step "the web console's event search finds the Java example's trace id"
# An operator token: header filters search text that is masked for viewers (issue 26).
"$ctl" serve --new-token examples --role operator >"$work/token.out"
secret=$(sed -n '2p' "$work/token.out" | tr -d ' ')
token_line=$(sed -n '4p' "$work/token.out" | sed 's/^ *//')
port=$("$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$work/serve.ini" <<INI
[database]
url = $PG
[web]
listen = 127.0.0.1:$port
[tokens]
$token_line
INI
"$ctl" serve --config "$work/serve.ini" >"$work/serve.log" 2>&1 &
pids+=($!)
java_trace=$(tr -d '\n' <"$work/java.trace")
java_event=$(json 'd["events"][0]["event_id"]' <"$work/found-java.json")
for _ in $(seq 100); do
  curl -sf -o "$work/web-search.json" -H "Authorization: Bearer $secret" --get \
    --data-urlencode "header=traceparent=$java_trace" "http://127.0.0.1:$port/api/v1/events" && break
  sleep 0.2
done
[ "$(json 'len(d["events"])' <"$work/web-search.json" 2>/dev/null)" = 1 ] \
  && [ "$(json 'd["events"][0]["event_id"]' <"$work/web-search.json")" = "$java_event" ] \
  || fail "the console's search by traceparent=$java_trace: $(cat "$work/web-search.json" 2>/dev/null)"
curl -sf -o "$work/web-trace-id.json" -H "Authorization: Bearer $secret" --get \
  --data-urlencode "trace_id=${java_trace:3:32}" "http://127.0.0.1:$port/api/v1/events"
[ "$(json 'd["events"][0]["event_id"]' <"$work/web-trace-id.json")" = "$java_event" ] \
  || fail "the console's search by trace_id=${java_trace:3:32}: $(cat "$work/web-trace-id.json")"

step "writers that break the contract"
set +e
"$py" "$examples/python/order_service.py" --db "$PG" --outside-transaction 2>"$work/outside-python.log"; rc_py=$?
node "$examples/node/order-service.js" --db "$PG" --outside-transaction 2>"$work/outside-node.log"; rc_node=$?
set -e
[ "$rc_py" -eq 3 ] && grep -q 'refused: no transaction is open' "$work/outside-python.log" \
  || fail "python outside a transaction: exit $rc_py $(cat "$work/outside-python.log")"
[ "$rc_node" -eq 3 ] && grep -q 'refused: no transaction is open' "$work/outside-node.log" \
  || fail "node outside a transaction: exit $rc_node $(cat "$work/outside-node.log")"
taken=$(json 'd["events"][0]["event_id"]' <"$work/found-java.json")
set +e
psql -q "$PG" -v ON_ERROR_STOP=1 -c "INSERT INTO outbox_events (event_id, event_type, aggregate_type, aggregate_id, payload) VALUES ('$taken', 'OrderCreated', 'Order', 'o-dup', '{}')" 2>"$work/duplicate.log"; rc=$?
set -e
[ "$rc" -ne 0 ] && grep -q 'outbox_events_event_id_key' "$work/duplicate.log" \
  || fail "a duplicate event_id was not refused: $(cat "$work/duplicate.log")"
# An event inserted as SENT would never be published: doctor finds it and prepares the resend.
psql -q "$PG" -v ON_ERROR_STOP=1 -c "INSERT INTO outbox_events (event_id, event_type, aggregate_type, aggregate_id, topic, payload, status) VALUES ('sent-by-writer', 'OrderCreated', 'Order', 'o-sent', 'orders', '{\"order_id\":\"o-sent\",\"sku\":\"SKU-1\",\"quantity\":1}', 'SENT')"
set +e
"$ctl" doctor --db "$PG" --check contract-violations --json >"$work/doctor.json"; rc=$?
set -e
[ "$rc" -eq 3 ] || fail "doctor exited $rc on a contract violation, expected 3"
command=$("$py" - "$work/doctor.json" <<'PY'
import json, sys
findings = json.load(open(sys.argv[1]))["findings"]
f = [f for f in findings if f["key"] == "contract-violations/created-sent"]
assert len(f) == 1 and f[0]["evidence"]["count"] == 1, findings
print(f[0]["actions"][0]["command"])
PY
) || fail "doctor shows no created-sent finding: $(cat "$work/doctor.json")"
step "running the prepared action as printed: $command"
# The operator's reason and confirmation are options: they go before the '--' that ends them.
[[ "$command" == *" -- "* ]] || fail "the prepared command has no '--' before its ids: $command"
confirm="--reason 'examples test: written as SENT' --yes"
eval "${command/ -- / $confirm -- }" >"$work/resend.log" 2>&1 || fail "$(cat "$work/resend.log")"
for _ in $(seq 100); do
  sent_at=$(psql -qAt "$PG" -c "SELECT sent_at IS NOT NULL FROM outbox_events WHERE event_id = 'sent-by-writer' AND status = 'SENT'")
  [ "$sent_at" = t ] && break; sleep 0.1
done
[ "$sent_at" = t ] || fail "the resent event was not sent by the relay"
"$ctl" doctor --db "$PG" --check contract-violations >"$work/doctor-after.log" || fail "$(cat "$work/doctor-after.log")"

step "the SQL of docs/contract.md against the migrated schema"
psql -q "postgresql://outbox@127.0.0.1:$pgport/postgres" -c "DROP DATABASE IF EXISTS ${db}_doc" -c "CREATE DATABASE ${db}_doc"
DOC="postgresql://outbox@127.0.0.1:$pgport/${db}_doc"
"$ctl" migrate --db "$DOC" >/dev/null
"$py" "$src/tests/examples/contract-sql.py" "$src/docs/contract.md" postgresql >"$work/contract-pg.sql"
psql -q "$DOC" -v ON_ERROR_STOP=1 -f "$work/contract-pg.sql" >"$work/contract-pg.log" 2>&1 \
  || fail "docs/contract.md's PostgreSQL statements: $(cat "$work/contract-pg.log")"
"$ctl" consumers --db "$DOC" --json >"$work/consumers-doc.json"
grep -q '"inventory"' "$work/consumers-doc.json" || fail "the documented inbox rows are not a consumer: $(cat "$work/consumers-doc.json")"
"$ctl" events list --db "$DOC" --header "traceparent=00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" --json >"$work/doc-events.json"
[ "$(json 'len(d["events"])' <"$work/doc-events.json")" = 1 ] || fail "the documented event is not found by its traceparent"

step "MariaDB: the Java example through a relay on MariaDB"
MY="mysql://outbox:outbox@127.0.0.1:$myport/$db"
mariadb -h 127.0.0.1 -P "$myport" -u outbox -poutbox -e "DROP DATABASE IF EXISTS $db; CREATE DATABASE $db"
"$ctl" migrate --db "$MY" >/dev/null
"$ctl" relay --db "$MY" --kafka-bootstrap "$bootstrap" --quiet >"$work/relay-mariadb.log" 2>&1 &
pids+=($!)
java -cp /usr/share/java/postgresql.jar:/usr/share/java/mariadb-java-client.jar "$examples/java/OrderService.java" \
  --db "jdbc:mariadb://127.0.0.1:$myport/$db?user=outbox&password=outbox" --orders "$orders" --topic orders-mariadb \
  --trace-file "$work/java-mariadb.trace" >"$work/writer-java-mariadb.log" 2>&1 || fail "the Java writer on MariaDB"
for _ in $(seq 300); do
  sent=$(mariadb -h 127.0.0.1 -P "$myport" -u outbox -poutbox -N -e "SELECT COUNT(*) FROM $db.outbox_events WHERE status = 'SENT'")
  [ "$sent" = "$orders" ] && break; sleep 0.1
done
[ "$sent" = "$orders" ] || fail "the relay on MariaDB sent $sent of $orders"
trace=$(tr -d '\n' <"$work/java-mariadb.trace")
"$ctl" events list --db "$MY" --header "traceparent=$trace" --json >"$work/found-mariadb.json"
[ "$(json 'len(d["events"])' <"$work/found-mariadb.json")" = 1 ] || fail "MariaDB: no event with traceparent $trace"
"$py" "$src/tests/examples/contract-sql.py" "$src/docs/contract.md" mariadb >"$work/contract-mariadb.sql"
mariadb -h 127.0.0.1 -P "$myport" -u outbox -poutbox "$db" <"$work/contract-mariadb.sql" >"$work/contract-mariadb.log" 2>&1 \
  || fail "docs/contract.md's MariaDB statements: $(cat "$work/contract-mariadb.log")"
# LONGTEXT takes any text: a payload that is no JSON is a doctor finding (held back, so the relay leaves it).
mariadb -h 127.0.0.1 -P "$myport" -u outbox -poutbox "$db" -e "INSERT INTO outbox_events (event_id, event_type, aggregate_type, aggregate_id, payload, available_at) VALUES ('not-json', 'OrderCreated', 'Order', 'o-bad', 'order 7: 2 x SKU-1', UTC_TIMESTAMP(6) + INTERVAL 1 DAY)"
set +e
"$ctl" doctor --db "$MY" --check contract-violations --fail-on warning --json >"$work/doctor-mariadb.json"; rc=$?
set -e
[ "$rc" -eq 3 ] && grep -q '"contract-violations/not-json"' "$work/doctor-mariadb.json" \
  || fail "MariaDB: doctor exit $rc without the not-json finding: $(cat "$work/doctor-mariadb.json")"

echo "examples: all passed"
