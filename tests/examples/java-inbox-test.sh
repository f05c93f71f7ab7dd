#!/usr/bin/env bash
# The inbox claim of docs/contract.md from Java with the drivers at their DEFAULTS (issue 37 item 1):
# MariaDB Connector/J without useAffectedRows reports found rows (CLIENT_FOUND_ROWS), so a claim that
# decides "processed before" from an affected-row count applies every redelivery twice. On PostgreSQL
# and on MariaDB: the Java writer writes orders, a relay sends them to the embedded broker, the Java
# inventory consumer processes every message once, then a forced redelivery (every message read
# again from the beginning) must apply no effect a second time; reconcile then counts 0 unprocessed
# of exactly the consumer's topic (the consumer recorded it).
#   java-inbox-test.sh OUTBOXCTL SOURCE_DIR WORK_DIR PG_PORT MYSQL_PORT
set -euo pipefail
ctl=$1 src=$2 work=$3 pgport=$4 myport=$5
java=$src/docs/examples/java
cp=/usr/share/java/postgresql.jar:/usr/share/java/mariadb-java-client.jar
orders=150
topic=orders-java

rm -rf "$work"; mkdir -p "$work"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT
fail() {
  echo "java-inbox: FAIL: $*" >&2
  for f in "$work"/*.log; do [ -s "$f" ] && { echo "--- $f" >&2; tail -n 20 "$f" >&2; }; done
  exit 1
}
for tool in java kcat psql mariadb; do
  command -v "$tool" >/dev/null || fail "$tool is missing (run installer/install-deps.sh)"
done
for jar in ${cp//:/ }; do [ -f "$jar" ] || fail "$jar is missing (libpostgresql-jdbc-java, libmariadb-java)"; done

"$ctl" kafka --topic "$topic:2" >"$work/kafka.out" 2>"$work/kafka.log" &
pids+=($!)
for _ in $(seq 100); do grep -q '^bootstrap ' "$work/kafka.out" && break; sleep 0.1; done
bootstrap=$(sed -n 's/^bootstrap //p' "$work/kafka.out")
[ -n "$bootstrap" ] || fail "the embedded broker printed no bootstrap address"

db=java_inbox_$$
psql -q "postgresql://outbox@127.0.0.1:$pgport/postgres" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
mariadb -h 127.0.0.1 -P "$myport" -u outbox -poutbox -e "DROP DATABASE IF EXISTS $db; CREATE DATABASE $db"

# kind  outboxctl URL  JDBC URL (no driver option: the defaults are the point)  SQL client
run() {
  local kind=$1 url=$2 jdbc=$3 sql=$4
  echo "java-inbox: $kind"
  "$ctl" migrate --db "$url" >/dev/null
  "$ctl" relay --db "$url" --kafka-bootstrap "$bootstrap" --quiet >"$work/relay-$kind.log" 2>&1 &
  local relay=$!
  pids+=($relay)
  java -cp "$cp" "$java/OrderService.java" --db "$jdbc" --orders "$orders" --topic "$topic" --key-prefix "$kind" \
    >"$work/writer-$kind.log" 2>&1 || fail "the Java writer on $kind"
  local sent=0
  for _ in $(seq 300); do
    sent=$($sql "SELECT COUNT(*) FROM outbox_events WHERE status = 'SENT' AND topic = '$topic'")
    [ "$sent" = "$orders" ] && break; sleep 0.1
  done
  [ "$sent" = "$orders" ] || fail "$kind: the relay sent $sent of $orders"
  kill "$relay"
  # The topic holds both databases' events: each run hands its consumer its own database's events
  # (by event_id). The whole topic is read into a file, so both deliveries are the same messages.
  kcat -C -b "$bootstrap" -t "$topic" -o beginning -e -q -f '%t\t%p\t%o\t%k\t%h\t%s\n' >"$work/all-$kind.txt" \
    2>"$work/kcat-$kind.log" || fail "kcat could not read $topic"
  $sql "SELECT event_id FROM outbox_events WHERE topic = '$topic'" | sort >"$work/ids-$kind.txt"
  awk -F'\t' 'NR == FNR { want[$1] = 1; next }
              { split($5, h, ","); for (i in h) if (h[i] ~ /^event_id=/ && want[substr(h[i], 10)]) { print; next } }' \
    "$work/ids-$kind.txt" "$work/all-$kind.txt" >"$work/messages-$kind.txt"
  [ "$(wc -l <"$work/messages-$kind.txt")" = "$orders" ] \
    || fail "$kind: $(wc -l <"$work/messages-$kind.txt") of $orders messages on $topic"
  java -cp "$cp" "$java/InventoryConsumer.java" --db "$jdbc" --topic "$topic" <"$work/messages-$kind.txt" \
    >"$work/consumer-$kind.log" 2>&1 || fail "the Java consumer on $kind"
  grep -q "^InventoryConsumer: $orders processed, 0 duplicate(s), 0 dead-lettered" "$work/consumer-$kind.log" \
    || fail "$kind, first delivery: $(cat "$work/consumer-$kind.log")"
  # The forced redelivery: every message again, as after a crash between the database commit and
  # the offset commit. No effect may be applied twice.
  java -cp "$cp" "$java/InventoryConsumer.java" --db "$jdbc" --topic "$topic" <"$work/messages-$kind.txt" \
    >"$work/consumer-again-$kind.log" 2>&1 || fail "the Java consumer on $kind, redelivery"
  grep -q "^InventoryConsumer: 0 processed, $orders duplicate(s), 0 dead-lettered" "$work/consumer-again-$kind.log" \
    || fail "$kind, redelivery: $(cat "$work/consumer-again-$kind.log")"
  local reservations reserved taken
  reservations=$($sql "SELECT COUNT(*) FROM example_reservations WHERE consumer_name = 'inventory-java'")
  reserved=$($sql "SELECT SUM(quantity) FROM example_reservations WHERE consumer_name = 'inventory-java'")
  taken=$($sql "SELECT 5000000000 - SUM(available) FROM example_stock")
  [ "$reservations" = "$orders" ] && [ "$reserved" = "$taken" ] \
    || fail "$kind: $reservations reservations for $orders orders, $reserved reserved but $taken taken from stock"
  "$ctl" reconcile --db "$url" --consumer inventory-java --older-than 0s --json >"$work/reconcile-$kind.json"
  python3 - "$work/reconcile-$kind.json" "$orders" <<'PY' || fail "$kind: reconcile $(cat "$work/reconcile-$kind.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["unconsumed"] == 0 and d["scanned"] == int(sys.argv[2]), d
PY
}

run postgresql "postgresql://outbox@127.0.0.1:$pgport/$db" "jdbc:postgresql://127.0.0.1:$pgport/$db?user=outbox" \
  "psql -qAt postgresql://outbox@127.0.0.1:$pgport/$db -c"
run mariadb "mysql://outbox:outbox@127.0.0.1:$myport/$db" "jdbc:mariadb://127.0.0.1:$myport/$db?user=outbox&password=outbox" \
  "mariadb -h 127.0.0.1 -P $myport -u outbox -poutbox -N $db -e"

echo "java-inbox: all passed"
