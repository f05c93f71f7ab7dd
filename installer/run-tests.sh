#!/usr/bin/env bash
# Installs the dependencies, builds Outbox Console warning-free and runs the whole test suite.
# CTest fixtures start private PostgreSQL and MariaDB servers for the tests and stop them after.
set -euo pipefail
cd "$(dirname "$0")/.."
bash installer/install-deps.sh
# ccache (installed by install-deps) makes a rebuild of an unchanged file a cache hit, also from
# another checkout of the same tree: paths below the checkout are hashed relative to it.
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOUTBOX_WERROR=ON "${launcher[@]}"
cmake --build build -j "$(nproc)"
# Three tests at a time: most tests wait on servers, brokers and timeouts, not on the CPU (their own
# processes used ~400 CPU-seconds in a 1,490 s run), so two left a 2-core machine idle. Never more:
# every test shares the fixtures' servers, and stop 46's CI machine (more cores) ran more tests at
# once than any run here had tried, and tst_consumercrash aborted. Every rehearsal runs 3.
ctest --test-dir build --output-on-failure -j 3 --timeout 1200
