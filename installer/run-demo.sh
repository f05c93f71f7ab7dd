#!/usr/bin/env bash
# Installs the dependencies, builds Outbox Console and runs the end-to-end demo on the embedded
# default: a SQLite file, the embedded Kafka broker, a simulated order service and the relay.
# Runs until Ctrl-C; extra arguments go to `outboxctl demo` (e.g. --duration 60 --rate 200).
set -euo pipefail
cd "$(dirname "$0")/.."
bash installer/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)"
db="${OUTBOX_DEMO_DB:-$PWD/build/demo/outbox-demo.db}"
mkdir -p "$(dirname "$db")"
exec ./build/app/outboxctl/outboxctl demo --db "sqlite://$db" "$@"
