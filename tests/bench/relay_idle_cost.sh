#!/bin/bash
# What an idle relay costs its PostgreSQL server, by wake-up (issue 42; docs/benchmarks.md, "What
# an idle relay costs the server"). Not run by ctest.
#
#   bash tests/bench/relay_idle_cost.sh OUTBOXCTL PGPORT KAFKA_BOOTSTRAP [SECONDS=60] [ARMS="poll10 poll25 poll50 poll250 doorbell notify"]
#   RELAYS=200 bash tests/bench/relay_idle_cost.sh OUTBOXCTL PGPORT KAFKA_BOOTSTRAP 60 doorbell   (many relays, one server)
#
# Each arm is one `outboxctl relay` process (one worker) on a database of its own, all idle at the
# same time (nothing writes): pollN polls with a ceiling of N ms (--no-notify --poll-ms N), doorbell
# is the default (trigger off; a temporary logical replication slot, polling every 250 ms as a
# safety net), notify the opt-in (trigger on, LISTEN). After 10 s of settling, the CPU time
# (utime + stime from /proc/PID/stat) of every server process of the arm's database (its backends
# and, for the doorbell, its WAL sender) is read twice SECONDS apart; the figure is that CPU as a
# share of one core. The server must run on this machine (its processes' /proc is read) and allow
# replication connections for the doorbell (wal_level = logical). Prints the load average.
set -euo pipefail
ctl=${1:?path to outboxctl}
port=${2:?PostgreSQL port}
bootstrap=${3:?Kafka bootstrap}
seconds=${4:-60}
arms=${5:-poll10 poll25 poll50 poll250 doorbell notify}
relays=${RELAYS:-1} # relay processes per arm, all on the arm's database (each needs 2-3 connections)
user=${PGUSER:-outbox}
psql=(psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U "$user")
tick=$(getconf CLK_TCK)
pids=()
trap 'for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done; wait 2>/dev/null || true' EXIT

cpu_of_db() { # database -> "pid:ticks" per server process of it
  local pid
  for pid in $("${psql[@]}" -d postgres -tAc "SELECT pid FROM pg_stat_activity WHERE datname = '$1'"); do
    [ -r "/proc/$pid/stat" ] || continue
    awk -v p="$pid" '{ sub(/^.*\) /, ""); print p ":" $12 + $13 }' "/proc/$pid/stat"
  done
}

echo "relay_idle_cost: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, ${seconds} s, load $(cut -d' ' -f1-3 /proc/loadavg)"
for arm in $arms; do
  db=idle_$arm
  "${psql[@]}" -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null
  "${psql[@]}" -d postgres -c "CREATE DATABASE $db" >/dev/null
  url="postgresql://$user@127.0.0.1:$port/$db"
  "$ctl" migrate --db "$url" >/dev/null
  extra=()
  case $arm in
    poll*) extra=(--no-notify --poll-ms "${arm#poll}") ;;
    notify) "$ctl" notify on --db "$url" --reason "idle cost bench" --yes >/dev/null ;;
  esac
  for r in $(seq "$relays"); do
    "$ctl" relay --db "$url" --kafka-bootstrap "$bootstrap" --worker-id "idle-$arm-$r" --quiet "${extra[@]}" \
      >"/tmp/relay_idle_cost.$arm.$r.log" 2>&1 &
    pids+=($!)
    # Many relays: started a few a second, as a fleet's hosts would, not all in one instant (200 at
    # once on 2 cores drove the load to 350 and the script past its limit).
    if [ "$relays" -gt 1 ]; then sleep 0.25; fi
  done
done
# Until every relay of every arm has registered and says RUNNING or IDLE (at most 10 minutes), then 10 s
# of settling.
for arm in $arms; do
  for _ in $(seq 600); do
    up=$("${psql[@]}" -d "idle_$arm" -tAc "SELECT count(*) FROM outbox_relays WHERE state IN ('RUNNING', 'IDLE')")
    [ "$up" -ge "$relays" ] && break
    sleep 1
  done
  echo "$arm: $up of $relays relays up"
done
sleep 10
declare -A before
for arm in $arms; do
  while IFS=: read -r pid ticks; do before[$arm:$pid]=$ticks; done < <(cpu_of_db "idle_$arm")
done
relays_cpu() { # CPU ticks of the relay processes themselves
  local p t=0
  for p in "${pids[@]}"; do
    [ -r "/proc/$p/stat" ] && t=$(( t + $(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$p/stat") ))
  done
  echo "$t"
}
relays_before=$(relays_cpu)
start=$(date +%s.%N)
sleep "$seconds"
end=$(date +%s.%N)
relays_after=$(relays_cpu)
for arm in $arms; do
  used=0
  procs=0
  while IFS=: read -r pid ticks; do
    used=$(( used + ticks - ${before[$arm:$pid]:-0} ))
    procs=$(( procs + 1 ))
  done < <(cpu_of_db "idle_$arm")
  wakeup=$("${psql[@]}" -d "idle_$arm" -tAc "SELECT string_agg(n || ' ' || wakeup, ',') FROM (SELECT wakeup, count(*) AS n FROM outbox_relays WHERE state <> 'STOPPED' GROUP BY wakeup) w")
  awk -v a="$arm" -v w="$wakeup" -v u="$used" -v t="$tick" -v s="$start" -v e="$end" -v n="$procs" \
    'BEGIN { printf "%-9s wake-up %-9s %3d server processes  %6.2f %% of one core\n", a, w, n, 100 * u / t / (e - s) }'
done
awk -v u=$(( relays_after - relays_before )) -v t="$tick" -v s="$start" -v e="$end" -v n="${#pids[@]}" \
  'BEGIN { printf "the %d relay processes themselves: %6.2f %% of one core\n", n, 100 * u / t / (e - s) }'
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
