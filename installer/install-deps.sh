#!/usr/bin/env bash
# Installs every build, test and demo dependency of Outbox Console from Debian 12 packages.
# Idempotent: does nothing (no apt-get update, no install) when everything is present.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config ninja-build git ca-certificates clang-format ccache
  qt6-base-dev qt6-base-dev-tools libgl-dev
  libqt6sql6-psql libqt6sql6-mysql libqt6sql6-sqlite
  qt6-charts-dev qt6-websockets-dev libhttp-parser-dev
  qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  librdkafka-dev kcat
  librabbitmq-dev librabbitmq4 rabbitmq-server
  postgresql-15 postgresql-client-15
  mariadb-server mariadb-client
  libjs-chart.js
  chromium firefox-esr python3-prometheus-client prometheus
  libqt6opengl6-dev libxkbcommon-dev xvfb xauth
  libsystemd-dev systemd librsvg2-bin
  dpkg-dev file lintian appstream desktop-file-utils curl
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
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
echo "install-deps: done"
