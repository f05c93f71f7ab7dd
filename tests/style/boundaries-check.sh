#!/usr/bin/env bash
# Fails when code crosses a boundary that docs/architecture.md draws (headers and sources alike):
#  - core includes a front end or a main; one front end includes the other;
#  - a core folder includes a higher floor or a sibling (support < config < db, broker < ops <
#    relay, consumer, diagnosis < metrics, demo);
#  - a desktop feature folder includes another one (shared: widgets, connection, actions);
#  - outside core/db, code switches on the database kind (the differences live in core/db/Dialect);
#  - outside core/db, code builds Database::Options or calls Database::open (a connection is opened
#    from a DatabaseTarget: its URL, table prefix and password travel as one value);
#  - outside core/broker/<name>/, code switches on the broker kind or uses a broker's client library,
#    and a room's Broker is made anywhere but BrokerRegistry;
#  - anything cites a design document that is not in the repository (its sections, "§N");
#  - a core error text names a command-line flag (each front end adds its own hint);
#  - outside core/ops, a confirmation phrase is put together from a verb (C++ or the web console's JS).
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

# The floors inside core, lowest first. A folder includes its own files and those of lower floors
# only: never a higher floor, never a sibling on its own floor. config sits at the bottom (it reads
# and checks keys; the options built from them live with their owners). ops (the operator's
# actions) sits under relay, consumer and diagnosis: the doctor prepares and dispatches actions.
declare -A core_floor=([support]=0 [config]=1 [db]=2 [broker]=2 [ops]=3 [relay]=4 [consumer]=4 [diagnosis]=4
  [metrics]=5 [demo]=5 [fleet]=6)
core_layers=""
for dir in core/*/; do
  from=$(basename "$dir")
  [ -n "${core_floor[$from]:-}" ] || core_layers+="core/$from: a folder without a floor (add it to core_floor in $0)"$'\n'
done
while IFS= read -r hit; do
  [[ $hit =~ ^core/([a-z]+)/[^:]*:[0-9]+:#include\ [\<\"]core/([a-z]+)/ ]] || continue
  from=${BASH_REMATCH[1]}
  to=${BASH_REMATCH[2]}
  [ "$to" = "$from" ] && continue
  from_level=${core_floor[$from]:--1}
  to_level=${core_floor[$to]:--1}
  if [ "$from_level" -ge 0 ] && { [ "$to_level" -lt 0 ] || [ "$to_level" -ge "$from_level" ]; }; then
    core_layers+="$hit   ($from is on floor $from_level, $to on floor $to_level)"$'\n'
  fi
done < <(grep -rnE '^#include [<"]core/[a-z]+/' core --include='*.h' --include='*.cpp')
report "a core layer includes a higher one or a sibling (support < config < db, broker < ops < relay, consumer, diagnosis < metrics, demo < fleet):" \
  "${core_layers%$'\n'}"

# Desktop features (one folder per page) stand side by side over the shared folders; MainWindow
# composes them. A feature includes its own files, the shared folders and ConsoleContext.h; a shared
# folder includes shared folders only.
desktop_shared="widgets connection actions"
desktop_features=""
while IFS= read -r hit; do
  [[ $hit =~ ^ui/desktop/([A-Za-z]+)/[^:]*:[0-9]+:#include\ [\<\"]ui/desktop/([A-Za-z]+)[/.] ]] || continue
  from=${BASH_REMATCH[1]}
  to=${BASH_REMATCH[2]}
  [ "$to" = "$from" ] && continue
  [ "$to" = "ConsoleContext" ] && continue
  case " $desktop_shared " in *" $to "*) continue ;; esac
  desktop_features+="$hit"$'\n'
done < <(grep -rnE '^#include [<"]ui/desktop/' ui/desktop --include='*.h' --include='*.cpp')
report "a desktop feature folder includes another feature (or a shared folder includes a feature or MainWindow):" \
  "${desktop_features%$'\n'}"

report "the database kind is switched on outside core/db (add a Dialect capability instead):" \
  "$(grep -rn 'DatabaseKind::' app core ui --include='*.cpp' --include='*.h' | grep -v '^core/db/')"

# A room per broker (docs/architecture.md, "How a broker plugs in"): what is particular to one
# broker lives in core/broker/<name>/ and answers through Broker; BrokerRegistry has one line per
# broker. Outside the rooms nothing asks which broker it is: no comparison of a broker kind (the
# relay registry's broker_kind, Broker::scheme()/kindName()), no cast to a room's class, no client
# library of a broker, and no room's Broker made anywhere but the registry. Tests may do all of it.
broker_rooms='^core/broker/[a-z]+/'
report "the broker kind is switched on outside its room core/broker/<name>/ (answer it in the room, through Broker):" \
  "$(grep -rnE '(brokerKind|broker_kind|broker->(scheme|kindName)\(\))[[:space:]]*(!|=)=|(!|=)==?[[:space:]]*(QLatin1String|QStringLiteral)?\(?"(kafka|amqps?|Kafka|RabbitMQ)"|BrokerUrl::Kind|as<(Kafka|Amqp)[A-Za-z]*>|dynamic_cast<[^>]*(Kafka|Amqp)' \
      app core ui resources/web --include='*.cpp' --include='*.h' --include='*.js' |
      grep -vE "$broker_rooms" | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' |
      grep -vE '^[^:]+:[0-9]+:[[:space:]]*if \(section == ')" # [kafka], a configuration section
report "a broker's client library is used outside its room core/broker/<name>/:" \
  "$(grep -rnE '#include <(librdkafka/|amqp\.h|amqp_|rabbitmq-c/)' app core ui --include='*.cpp' --include='*.h' |
      grep -vE "$broker_rooms")"
report "a room's Broker is made outside BrokerRegistry (add the broker's one line there):" \
  "$(grep -rnE '#include [<"]core/broker/[a-z]+/[A-Za-z]*Broker\.h' app core ui --include='*.cpp' --include='*.h' |
      grep -vE "$broker_rooms|^core/broker/BrokerRegistry\.cpp:|^[^:]+:[0-9]+:#include [<\"]core/broker/kafka/EmbeddedBroker\.h")"

# A connection is opened from a DatabaseTarget (docs/architecture.md, "Threads and connections"):
# Database::Options (purpose, table prefix, timeout) are put together, and Database::open called, only
# inside core/db; everything else takes a target and calls its open() or openForReading().
report "a connection opened outside core/db without a DatabaseTarget (take one and call its open()):" \
  "$(grep -rnE 'Database::(Options|open)\b' app core ui --include='*.cpp' --include='*.h' |
      grep -v '^core/db/' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//')"

# The action decided once (docs/architecture.md, "Operator actions: decided once"): the verb of an action and the
# phrase an operator types to confirm it ("requeue 12") are core/ops/ActionConfirmation's; previews
# carry them (verb, confirmation) and every front end shows what it is given. Outside core/ops no
# phrase is put together from a verb or written out as one ("edit %1"), no typed confirmation is
# checked against a count the front end picked, and the web console's JavaScript builds none from a
# template.
report "a confirmation phrase or a verb is decided outside core/ops (show the preview's verb and confirmation):" \
  "$(grep -rnE '"%1 %2"\)\.arg\([^)]*([Vv]erb|desiredState|operation|actionName)|verbOf\(|"(requeue|dead|replay|discard|pause|resume|drain|forget|edit|notify-on|notify-off) %[0-9]"|[Cc]onfirm[^;]*[!=]=[^;]*QString::number\(' \
      app core ui --include='*.cpp' --include='*.h' | grep -v '^core/ops/' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//'
     grep -rnE '(phrase|[Cc]onfirm[A-Za-z]*)[[:space:]]*=[^;]*`[^`]*\$\{|`\$\{([A-Za-z]+\.)*(kind|command|operation|verb)\} \$\{|[Cc]onfirm[^;]*[!=]==?[^;]*String\(' \
      resources/web/console --include='*.js')"

report "a design document outside the repository is cited (say it here or in docs/architecture.md):" \
  "$(grep -rnI '[D]ESIGN §' --exclude-dir=.git --exclude-dir='build*' .)"

# String literals in core that name a flag: "(--consumer NAME)", "raise --lease-ms", "-X key=value".
# Comments may name flags; core/config may too, since the flags are its input, core/diagnosis,
# since the doctor's runbooks and prepared actions are command lines for the operator by design,
# and core/db/DatabaseTarget, the one place that writes a database's `outboxctl` arguments.
report "a core error text names a command-line flag (the front end adds its own hint):" \
  "$(grep -rnE '"([^"]*[ (])?(--[a-z][a-z-]*|-X)([ )=]|")' core --include='*.cpp' --include='*.h' |
      grep -vE '^core/(config|diagnosis)/|^core/db/DatabaseTarget\.' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//')"

if [ "$failed" -ne 0 ]; then
  exit 1
fi
echo "boundaries-check: layers respected (front ends, core floors, desktop features), no kind switches outside core/db, connections opened from a DatabaseTarget, brokers in their rooms, no outside design documents cited, no flags in core texts, confirmation phrases decided in core/ops"
