#!/usr/bin/env bash
# Proves that broker-rooms-check.sh catches what it is meant to: on a copy of the tree it must pass,
# and each injected drift (a stray include of a room's header, a room without its Source, the list
# forgetting a file or a room part) must make it fail and be named in its output.
# Usage: broker-rooms-selftest.sh SOURCE_DIR
set -uo pipefail
source_dir=$(cd "$1" && pwd) || exit 2
check="$source_dir/tests/style/broker-rooms-check.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tests"
cp -r "$source_dir/core" "$source_dir/ui" "$source_dir/app" "$source_dir/docs" "$source_dir/installer" \
  "$source_dir/CMakeLists.txt" "$work/"
cp -r "$source_dir/tests/fixtures" "$source_dir/tests/style" "$source_dir/tests/CMakeLists.txt" "$work/tests/"

if ! out=$(bash "$check" "$work" 2>&1); then
  echo "broker-rooms-selftest: the check fails on the untouched copy:"
  printf '%s\n' "$out"
  exit 1
fi

failed=0
# expect_failure NAME EXPECTED COMMAND...: runs COMMAND in the copy, then the check; wants exit 1 and
# EXPECTED (a fixed string) in its output; the copy is restored from the source afterwards.
expect_failure() {
  local name=$1 expected=$2
  shift 2
  (cd "$work" && "$@")
  local out rc
  out=$(bash "$check" "$work" 2>&1)
  rc=$?
  rm -rf "$work/core" "$work/docs"
  cp -r "$source_dir/core" "$source_dir/docs" "$work/"
  if [ "$rc" -ne 1 ] || ! grep -qF -- "$expected" <<<"$out"; then
    echo "broker-rooms-selftest: not caught: $name (exit $rc)"
    printf '%s\n' "$out" | sed 's/^/  /'
    failed=1
  else
    echo "broker-rooms-selftest: caught: $name"
  fi
}

expect_failure "the relay includes a room's header" "core/relay/Relay.cpp" \
  sh -c 'echo "#include \"core/broker/amqp/AmqpUrl.h\"" >>core/relay/Relay.cpp'
expect_failure "a room without its Source" "lacks KafkaSource.cpp" rm core/broker/kafka/KafkaSource.cpp
expect_failure "a room without its registry entry" "does not include core/broker/amqp/AmqpBroker.h" \
  sed -i '/core\/broker\/amqp\/AmqpBroker.h/d' core/broker/BrokerRegistry.cpp
expect_failure "the list forgets the fixture" "does not name tests/fixtures/" \
  sed -i 's/`tests\/fixtures\/`/the fixtures/' docs/architecture.md
expect_failure "the list forgets a room part" "does not name NatsSource.h" \
  sed -i 's/`NatsSource.h`, //' docs/architecture.md
expect_failure "the list names a file that is gone" "names core/config/Gone.cpp" \
  sed -i 's/`core\/config\/Config.cpp`/`core\/config\/Gone.cpp`/' docs/architecture.md

exit "$failed"
