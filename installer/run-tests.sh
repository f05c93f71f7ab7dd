#!/usr/bin/env bash
# Installs the dependencies, builds Outbox Console warning-free and runs the whole test suite.
# CTest fixtures start private PostgreSQL and MariaDB servers for the tests and stop them after.
set -euo pipefail
cd "$(dirname "$0")/.."
bash installer/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOUTBOX_WERROR=ON
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure -j 2 --timeout 1200
