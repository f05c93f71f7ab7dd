#!/usr/bin/env bash
# Holds docs/architecture.md's "Adding a broker" list to the tree (docs that cannot drift):
#  - every room core/broker/<name>/ has its <Name>Broker, <Name>Publisher and <Name>Source (.h and
#    .cpp) and its entry in core/broker/BrokerRegistry.cpp, and the registry has no entry without a room;
#  - every existing file the list names is there;
#  - outside the rooms, no file but the registry includes a room's header, apart from what only Kafka
#    offers (its embedded broker for `outboxctl kafka`, consumer-group lag) — so adding a broker
#    touches the room and the files the list names, and nothing else.
# Usage: broker-rooms-check.sh SOURCE_DIR
set -uo pipefail
cd "$1" || exit 2
failed=0
fail() {
  echo "broker-rooms-check: $1"
  failed=1
}

doc=docs/architecture.md
list=$(awk '/^\*\*Adding a broker\*\*/ {on = 1} on && /^## / {exit} on' "$doc")
[ -n "$list" ] || fail "$doc has no \"Adding a broker\" paragraph"

rooms=()
for dir in core/broker/*/; do
  rooms+=("$(basename "$dir")")
done
[ "${#rooms[@]}" -ge 2 ] || fail "fewer than two rooms under core/broker/ (${rooms[*]})"

for room in "${rooms[@]}"; do
  # The class prefix is the one of the room's Broker: kafka/KafkaBroker.h, amqp/AmqpBroker.h.
  broker=$(cd "core/broker/$room" && ls ./*Broker.h 2>/dev/null | grep -v 'EmbeddedBroker' | head -1)
  broker=${broker#./}
  if [ -z "$broker" ]; then
    fail "core/broker/$room/ has no <Name>Broker.h"
    continue
  fi
  name=${broker%Broker.h}
  for part in Broker Publisher Source; do
    for ext in h cpp; do
      [ -f "core/broker/$room/$name$part.$ext" ] || fail "core/broker/$room/ lacks $name$part.$ext (the list says every broker has one)"
    done
  done
  grep -qF "#include \"core/broker/$room/${name}Broker.h\"" core/broker/BrokerRegistry.cpp ||
    fail "core/broker/BrokerRegistry.cpp does not include core/broker/$room/${name}Broker.h (its entry)"
  grep -qE "&make$name\b|${name}Broker::" core/broker/BrokerRegistry.cpp ||
    fail "core/broker/BrokerRegistry.cpp has no entry making a ${name}Broker"
done
for made in $(grep -oE '#include "core/broker/[a-z]+/' core/broker/BrokerRegistry.cpp | cut -d/ -f3); do
  [ -d "core/broker/$made" ] || fail "the registry includes core/broker/$made/, which is no room"
done

# The list's own words: each room part it names, and each existing file it names.
for part in NatsBroker.h NatsBroker.cpp NatsPublisher.h NatsPublisher.cpp NatsSource.h NatsSource.cpp; do
  grep -qF "\`$part\`" <<<"$list" || fail "the list does not name $part (every room has one)"
done
named=$(grep -oE '`(core|tests|installer|docs)/[^`*<> ]+`|`CMakeLists\.txt`' <<<"$list" | tr -d '`' | sort -u)
for path in $named; do
  case "$path" in core/broker/nats/*) continue ;; esac
  [ -e "$path" ] || fail "the list names $path, which does not exist"
done
for needed in core/broker/BrokerRegistry.cpp core/config/Config.cpp CMakeLists.txt core/CMakeLists.txt \
  installer/install-deps.sh tests/CMakeLists.txt tests/fixtures/; do
  grep -qxF "$needed" <<<"$named" || grep -qF "\`${needed%/}" <<<"$list" ||
    fail "the list does not name $needed (adding a broker touches it)"
done

# Outside the rooms, a room's headers are included by the registry only (and Kafka's own extras).
stray=$(grep -rnE '#include [<"]core/broker/[a-z]+/' app core ui --include='*.cpp' --include='*.h' |
  grep -vE '^core/broker/[a-z]+/|^core/broker/BrokerRegistry\.cpp:' |
  grep -vE '#include [<"]core/broker/kafka/(EmbeddedBroker|ConsumerLag)\.h')
[ -z "$stray" ] || fail "a file outside the rooms includes a room's header (adding a broker would touch it too; add it to the list or ask the Broker):"$'\n'"$(sed 's/^/  /' <<<"$stray")"

if [ "$failed" -ne 0 ]; then
  exit 1
fi
echo "broker-rooms-check: ${#rooms[@]} rooms (${rooms[*]}), each with its Broker, Publisher, Source and registry entry; the list in $doc names what adding one touches"
