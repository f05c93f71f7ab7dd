#!/usr/bin/env bash
# Builds the Debian packages outboxctl and outbox-console into build/packages/ (Debian 12):
# installs the dependencies, builds only what the packages hold, then runs CPack (which strips
# the binaries, computes the library dependencies and adds the maintainer scripts).
# Check them with: lintian build/packages/*.deb
set -euo pipefail
cd "$(dirname "$0")/.."
bash installer/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
if ! grep -q '^SYSTEMD_FOUND:INTERNAL=1' build/CMakeCache.txt; then
  echo "build-packages: libsystemd-dev is missing (the units are Type=notify)" >&2
  exit 1
fi
cmake --build build -j "$(nproc)" --target outboxctl outboxctl_manpage outbox-console outbox-console_manpage
rm -f build/packages/*.deb
cpack --config build/CPackConfig.cmake -B build/packages
ls -l build/packages/*.deb
