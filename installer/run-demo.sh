#!/usr/bin/env bash
# Installs the dependencies, builds Outbox Console and runs the demo on the embedded default
# (a SQLite file). Pass extra arguments through to `outboxctl demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash installer/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)"
db="${OUTBOX_DEMO_DB:-$PWD/build/demo/outbox-demo.db}"
mkdir -p "$(dirname "$db")"
./build/app/outboxctl/outboxctl migrate --db "sqlite://$db"
./build/app/outboxctl/outboxctl status --db "sqlite://$db"
