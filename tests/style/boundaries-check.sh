#!/usr/bin/env bash
# Fails when code crosses a boundary that docs/architecture.md draws:
#  - core includes a front end or a main; one front end includes the other;
#  - outside core/db, code switches on the database kind (the differences live in core/db/Dialect);
#  - anything cites a design document that is not in the repository (its sections, "§N");
#  - a core error text names a command-line flag (each front end adds its own hint).
# Usage: boundaries-check.sh SOURCE_DIR
set -uo pipefail
cd "$1" || exit 2
failed=0

report() { # title, offending lines
  if [ -n "$2" ]; then
    echo "boundaries-check: $1"
    printf '%s\n' "$2" | sed 's/^/  /'
    failed=1
  fi
}

report "core includes a front end or a main (core is what they are built on):" \
  "$(grep -rnE '#include [<"](ui|app)/' core)"
report "one front end includes the other (ui/desktop and ui/web are siblings over core):" \
  "$(grep -rnE '#include [<"]ui/web/' ui/desktop; grep -rnE '#include [<"]ui/desktop/' ui/web)"

report "the database kind is switched on outside core/db (add a Dialect capability instead):" \
  "$(grep -rn 'DatabaseKind::' app core ui --include='*.cpp' | grep -v '^core/db/')"

# A broker is a Publisher and a MessageSource (docs/architecture.md, "How a second broker plugs in"):
# the relay, the replayer and the consumer never ask which one they talk to.
report "the broker kind is switched on in core outside its two factories and the options (add a Publisher/MessageSource instead):" \
  "$(grep -rn 'BrokerUrl::Kind::' core --include='*.cpp' --include='*.h' |
      grep -vE '^core/(broker|config)/|^core/relay/RelayOptions\.|^core/consumer/(ConsumerOptions|MessageSource)\.')"

report "a design document outside the repository is cited (say it here or in docs/architecture.md):" \
  "$(grep -rnI '[D]ESIGN §' --exclude-dir=.git --exclude-dir='build*' .)"

# String literals in core that name a flag: "(--consumer NAME)", "raise --lease-ms", "-X key=value".
# Comments may name flags; core/config may too, since the flags are its input, and core/diagnosis,
# since the doctor's runbooks and prepared actions are command lines for the operator by design.
report "a core error text names a command-line flag (the front end adds its own hint):" \
  "$(grep -rnE '"([^"]*[ (])?(--[a-z][a-z-]*|-X)([ )=]|")' core --include='*.cpp' --include='*.h' |
      grep -vE '^core/(config|diagnosis)/' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//')"

if [ "$failed" -ne 0 ]; then
  exit 1
fi
echo "boundaries-check: layers respected, no kind switches outside core/db, no broker switches in the relay or consumer, no outside design documents cited, no flags in core texts"
