#!/bin/bash
# The soak outside CI (docs/benchmarks.md, "Soak"): a private PostgreSQL of its own, then
# outbox-soak-bench for DURATION at RATE events/s with the relay, the demo inventory consumer,
# `outboxctl serve` with 20 dashboard WebSockets and the console's sampler, each process's RSS and
# the commit -> delivered percentiles every minute, and the verdict. CI runs bench.soak.smoke.
#
#   bash tests/bench/soak.sh BUILD_DIR PORT [DURATION=30m] [RATE=2000] [more outbox-soak-bench options]
#
# PORT is a free TCP port for the private server (its data lives in a temporary directory that
# is removed afterwards). The report goes to stdout; exit status 0 when the verdict is PASS.
set -euo pipefail
build=${1:?build directory}
port=${2:?port for a private PostgreSQL}
duration=${3:-30m}
rate=${4:-2000}
shift $(( $# < 4 ? $# : 4 ))
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d /tmp/outbox-soak-pg.XXXXXX)
chmod 755 "$dir" # the server may run as the postgres user (postgres.sh under root)
trap 'bash "$here/../fixtures/postgres.sh" stop "$dir/pg" >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
bash "$here/../fixtures/postgres.sh" start "$dir/pg" "$port"
echo "soak: $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
OUTBOXCTL="$build/app/outboxctl/outboxctl" "$build/tests/outbox-soak-bench" \
  --db "postgresql://outbox@127.0.0.1:$port/postgres" --duration "$duration" --rate "$rate" "$@" \
  && status=0 || status=$?
echo "soak: ended $(date -u '+%H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
