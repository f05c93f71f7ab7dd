#!/usr/bin/env bash
# Runs the end-to-end demo on the embedded default: a SQLite file, the embedded Kafka broker, a
# simulated order service and the relay. Runs until Ctrl-C; extra arguments go to `outboxctl demo`
# (e.g. --duration 60 --rate 200).
#
# Which outboxctl: $OUTBOXCTL when set (e.g. the installed /usr/bin/outboxctl: nothing is built);
# else build/app/outboxctl/outboxctl of an existing build, as it is when it is up to date (the
# build is never reconfigured by hand; when its sources changed, outboxctl alone is rebuilt);
# else, on a fresh checkout, the dependencies are installed and the project is built first.
set -euo pipefail
cd "$(dirname "$0")/.."
ctl=${OUTBOXCTL:-build/app/outboxctl/outboxctl}
if [ -n "${OUTBOXCTL:-}" ]; then
  command -v "$ctl" >/dev/null || { echo "run-demo: OUTBOXCTL=$ctl is not an executable" >&2; exit 2; }
elif [ -f build/CMakeCache.txt ] && [ -x "$ctl" ]; then
  # Up to date: "ninja: no work to do." in a second or two; else outboxctl alone is built.
  cmake --build build --target outboxctl
else
  bash installer/install-deps.sh
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build build -j "$(nproc)"
fi
db="${OUTBOX_DEMO_DB:-$PWD/build/demo/outbox-demo.db}"
mkdir -p "$(dirname "$db")"
exec "$ctl" demo --db "sqlite://$db" "$@"
