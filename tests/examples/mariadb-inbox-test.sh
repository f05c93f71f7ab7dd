#!/usr/bin/env bash
# The inbox claim of docs/contract.md from Python and Node on MariaDB with the drivers at their
# DEFAULTS (issue 37 item 1): mysqljs (Debian's node-mysql) sends CLIENT_FOUND_ROWS by default, so a
# claim that decides "processed before" from an affected-row count applies every redelivery twice;
# PyMySQL (python3-pymysql) does not. The Java writer writes orders into MariaDB, a relay sends them
# to the embedded broker, each inventory consumer processes every message once, then a forced
# redelivery (another consumer group: every message again) must process 0 and count each one as a
# duplicate: one reservation per order, the stock taken once; reconcile then counts 0 unprocessed.
#   mariadb-inbox-test.sh OUTBOXCTL SOURCE_DIR WORK_DIR MYSQL_PORT
set -euo pipefail
ctl=$1 src=$2 work=$3 myport=$4
examples=$src/docs/examples
py=/usr/bin/python3 # Debian's, with python3-pymysql and python3-confluent-kafka
orders=120
topic=orders-mariadb-inbox
# Debian's node-* packages live in /usr/share/nodejs, which Debian's own node searches; another node
# (e.g. a newer one installed beside it) is told here.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

rm -rf "$work"; mkdir -p "$work"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT
fail() {
  echo "mariadb-inbox: FAIL: $*" >&2
  for f in "$work"/*.log; do [ -s "$f" ] && { echo "--- $f" >&2; tail -n 20 "$f" >&2; }; done
  exit 1
}
for tool in java node mariadb; do
  command -v "$tool" >/dev/null || fail "$tool is missing (run installer/install-deps.sh)"
done
"$py" -c 'import pymysql, confluent_kafka' || fail "python3-pymysql or python3-confluent-kafka is missing"
(cd "$examples/node" && node -e "require('mysql'); require('kafkajs')") \
  || fail "node-mysql or docs/examples/node/node_modules is missing (run installer/install-deps.sh)"

"$ctl" kafka --topic "$topic:2" >"$work/kafka.out" 2>"$work/kafka.log" &
pids+=($!)
for _ in $(seq 100); do grep -q '^bootstrap ' "$work/kafka.out" && break; sleep 0.1; done
bootstrap=$(sed -n 's/^bootstrap //p' "$work/kafka.out")
[ -n "$bootstrap" ] || fail "the embedded broker printed no bootstrap address"

db=mariadb_inbox_$$
sql() { mariadb -h 127.0.0.1 -P "$myport" -u outbox -poutbox -N "$db" -e "$1"; }
mariadb -h 127.0.0.1 -P "$myport" -u outbox -poutbox -e "DROP DATABASE IF EXISTS $db; CREATE DATABASE $db"
MY="mysql://outbox:outbox@127.0.0.1:$myport/$db"
"$ctl" migrate --db "$MY" >/dev/null
"$ctl" relay --db "$MY" --kafka-bootstrap "$bootstrap" --quiet >"$work/relay.log" 2>&1 &
relay=$!
pids+=($relay)
java -cp /usr/share/java/postgresql.jar:/usr/share/java/mariadb-java-client.jar "$examples/java/OrderService.java" \
  --db "jdbc:mariadb://127.0.0.1:$myport/$db?user=outbox&password=outbox" --orders "$orders" --topic "$topic" \
  >"$work/writer.log" 2>&1 || fail "the Java writer on MariaDB"
sent=0
for _ in $(seq 300); do
  sent=$(sql "SELECT COUNT(*) FROM outbox_events WHERE status = 'SENT'")
  [ "$sent" = "$orders" ] && break; sleep 0.1
done
[ "$sent" = "$orders" ] || fail "the relay sent $sent of $orders"
kill "$relay"

# The consumer's name, its summary line's start, its command.
check() {
  local name=$1 prefix=$2
  shift 2
  local -a cmd=("$@")
  echo "mariadb-inbox: $name"
  "${cmd[@]}" --db "$MY" --bootstrap "$bootstrap" --topic "$topic" --consumer "$name" --count "$orders" --timeout 180 \
    >"$work/$name.log" 2>&1 || fail "$name, first delivery"
  grep -q "^$prefix: $orders processed, 0 duplicate(s), 0 dead-lettered" "$work/$name.log" \
    || fail "$name, first delivery: $(cat "$work/$name.log")"
  # The forced redelivery: every message again, as after a crash between the database commit and the
  # offset commit (a new consumer group starts at the beginning). No effect may be applied twice.
  "${cmd[@]}" --db "$MY" --bootstrap "$bootstrap" --topic "$topic" --consumer "$name" --group "$name-again" \
    --messages "$orders" --timeout 180 >"$work/$name-again.log" 2>&1 || fail "$name, redelivery"
  grep -q "^$prefix: 0 processed, $orders duplicate(s), 0 dead-lettered" "$work/$name-again.log" \
    || fail "$name, redelivery: $(cat "$work/$name-again.log")"
  local reservations inbox
  reservations=$(sql "SELECT COUNT(*) FROM example_reservations WHERE consumer_name = '$name'")
  inbox=$(sql "SELECT COUNT(*) FROM inbox_events WHERE consumer_name = '$name' AND status = 'PROCESSED' AND attempts = 1")
  [ "$reservations" = "$orders" ] && [ "$inbox" = "$orders" ] \
    || fail "$name: $reservations reservations and $inbox inbox rows for $orders orders"
  "$ctl" reconcile --db "$MY" --consumer "$name" --older-than 0s --json >"$work/reconcile-$name.json"
  "$py" - "$work/reconcile-$name.json" "$orders" <<'PY' || fail "$name: reconcile $(cat "$work/reconcile-$name.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["unconsumed"] == 0 and d["scanned"] == int(sys.argv[2]), d
PY
}
check inventory-python inventory_consumer "$py" "$examples/python/inventory_consumer.py"
check inventory-node inventory-consumer node "$examples/node/inventory-consumer.js"

# Both consumers together took each order's quantity twice from the stock, and no more.
reserved=$(sql "SELECT SUM(quantity) FROM example_reservations")
taken=$(sql "SELECT 5000000000 - SUM(available) FROM example_stock")
[ "$reserved" = "$taken" ] || fail "$reserved reserved, but $taken taken from the stock"
echo "mariadb-inbox: all passed"
