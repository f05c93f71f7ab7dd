#!/usr/bin/env bash
# Installs every build, test and demo dependency of Outbox Console from Debian 12 packages.
# Idempotent: does nothing (no apt-get update, no install) when everything is present.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config ninja-build git ca-certificates clang-format ccache mold
  qt6-base-dev qt6-base-dev-tools libgl-dev
  libqt6sql6-psql libqt6sql6-mysql libqt6sql6-sqlite
  qt6-charts-dev qt6-websockets-dev libhttp-parser-dev
  qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  # Qt's own texts (dialog buttons, the file dialog) in the console's languages
  qt6-translations-l10n
  librdkafka-dev kcat
  # serve's sign-in with an identity provider: JWS/JWK by cjose (and the headers it includes)
  libcjose-dev libjansson-dev libssl-dev
  librabbitmq-dev librabbitmq4 rabbitmq-server libpq-dev
  postgresql-15 postgresql-client-15
  mariadb-server mariadb-client
  libjs-chart.js
  chromium firefox-esr python3-prometheus-client prometheus
  libqt6opengl6-dev libxkbcommon-dev xvfb xauth
  libsystemd-dev systemd librsvg2-bin
  # a relay with a skewed clock (tst_relaybrokerfaults: latencies from the database's clock)
  faketime
  dpkg-dev file lintian appstream desktop-file-utils curl
  # docs/examples (the writer and inbox contract from other languages, tests/examples)
  default-jdk-headless libpostgresql-jdbc-java libmariadb-java
  python3-psycopg python3-confluent-kafka
  golang-go golang-github-lib-pq-dev
  nodejs
  # their Python and Node inventory consumers on MariaDB (PyMySQL; mysqljs, in /usr/share/nodejs)
  python3-pymysql node-mysql
)
# npm comes with some nodejs builds and is a package of its own in Debian's: install it only when missing.
if ! command -v npm >/dev/null 2>&1; then PACKAGES+=(npm); fi

# The Node example's pg and kafkajs, exactly as docs/examples/node/package-lock.json pins them.
node_examples() {
  local dir
  dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/docs/examples/node"
  if [ ! -d "$dir/node_modules/kafkajs" ] || [ ! -d "$dir/node_modules/pg" ] \
     || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    echo "install-deps: npm ci in docs/examples/node"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
  # The OpenID provider of the sign-in tests (tests/oidc/provider: oidc-provider and jose).
  dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tests/oidc/provider"
  if [ ! -d "$dir/node_modules/oidc-provider" ] \
     || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    echo "install-deps: npm ci in tests/oidc/provider"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  node_examples
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Server packages must not start system-wide instances: tests start private ones.
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
  $SUDO chmod +x /usr/sbin/policy-rc.d
  trap '$SUDO rm -f /usr/sbin/policy-rc.d' EXIT
fi
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
node_examples
echo "install-deps: done"
