#!/usr/bin/env bash
# How long `outboxctl consumers` takes to count a consumer's unconsumed events on a big inbox (issue 40
# item 9: the console's Consumers page counted 1.1M inbox rows in 107 s). Not run by ctest.
#   tests/bench/consumers_unconsumed.sh OUTBOXCTL HOST PORT USER DATABASE [ROWS] [RUNS]
# Creates DATABASE afresh (it must not hold anything you need), migrates it, fills ROWS (default
# 1,100,000) SENT events with one PROCESSED inbox row each for the consumer "inventory", except every
# 1,000th (ROWS/1000 unconsumed), all sent an hour ago, then times RUNS (default 3) runs of
# `outboxctl consumers --consumer inventory` and prints the count. REUSE=1 keeps a database filled
# before (to time another binary on the same rows).
set -euo pipefail
outboxctl=$1 host=$2 port=$3 user=$4 database=$5 rows=${6:-1100000} runs=${7:-3}
psql_base=(psql -X -q -v ON_ERROR_STOP=1 -h "$host" -p "$port" -U "$user")
url="postgresql://$user@$host:$port/$database"
if [ "${REUSE:-0}" != 1 ]; then
"${psql_base[@]}" -d postgres -c "DROP DATABASE IF EXISTS $database" -c "CREATE DATABASE $database"
"$outboxctl" migrate --db "$url" >/dev/null
"${psql_base[@]}" -d "$database" <<SQL
INSERT INTO outbox_events (event_id, event_type, aggregate_type, aggregate_id, topic, payload, status,
                           created_at, sent_at, available_at)
SELECT 'ev-' || g, 'OrderPlaced', 'Order', 'o-' || (g % 50000), 'orders', '{}', 'SENT',
       now() - interval '1 hour', now() - interval '1 hour', now() - interval '1 hour'
FROM generate_series(1, $rows) g;
INSERT INTO inbox_events (event_id, consumer_name, status, processed_at)
SELECT 'ev-' || g, 'inventory', 'PROCESSED', now() - interval '50 minutes'
FROM generate_series(1, $rows) g WHERE g % 1000 <> 0;
VACUUM ANALYZE outbox_events;
VACUUM ANALYZE inbox_events;
SQL
fi
expected=$((rows / 1000))
echo "rows=$rows expected_unconsumed=$expected load: $(cut -d' ' -f1-3 /proc/loadavg)"
for run in $(seq 1 "$runs"); do
    start=$(date +%s.%N)
    out=$("$outboxctl" consumers --db "$url" --consumer inventory)
    end=$(date +%s.%N)
    unconsumed=$(printf '%s\n' "$out" | awk '$1 == "inventory" {print $0}')
    printf 'run %d: %.2f s  load %s  %s\n' "$run" "$(echo "$end - $start" | bc)" \
        "$(cut -d' ' -f1-3 /proc/loadavg)" "$unconsumed"
done
