#!/usr/bin/env bash
# Proves that boundaries-check.sh catches what it is meant to: on a copy of the tree it must pass,
# and each injected bad include (or kind switch) must make it fail and be named in its output.
# Usage: boundaries-selftest.sh SOURCE_DIR
set -uo pipefail
source_dir=$(cd "$1" && pwd) || exit 2
check="$source_dir/tests/style/boundaries-check.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$source_dir/core" "$source_dir/ui" "$source_dir/app" "$work/"
mkdir -p "$work/resources" && cp -r "$source_dir/resources/web" "$work/resources/"

if ! out=$(bash "$check" "$work" 2>&1); then
  echo "boundaries-selftest: the check fails on the untouched copy:"
  printf '%s\n' "$out"
  exit 1
fi

failed=0
# expect_failure NAME FILE LINE EXPECTED: appends LINE to FILE in the copy, runs the check, wants
# exit 1 and EXPECTED (a fixed string: the offending file) in its output, then restores FILE.
expect_failure() {
  local name=$1 file=$2 line=$3 expected=$4
  cp "$work/$file" "$work/$file.orig"
  printf '%s\n' "$line" >>"$work/$file"
  local out rc
  out=$(bash "$check" "$work" 2>&1)
  rc=$?
  mv "$work/$file.orig" "$work/$file"
  if [ "$rc" -ne 1 ] || ! grep -qF -- "$expected" <<<"$out"; then
    echo "boundaries-selftest: not caught: $name (exit $rc)"
    printf '%s\n' "$out" | sed 's/^/  /'
    failed=1
  else
    echo "boundaries-selftest: caught: $name"
  fi
}

expect_failure "a desktop dialog writes its own confirmation phrase" \
  ui/desktop/deadletters/DeadLettersPage.cpp 'const QString phrase = QStringLiteral("edit %1").arg(id);' \
  "ui/desktop/deadletters/DeadLettersPage.cpp"
expect_failure "a desktop dialog checks the typed confirmation against its own count" \
  ui/desktop/deadletters/GroupEditDialog.cpp 'const bool ok = m_confirm->text().trimmed() == QString::number(n);' \
  "ui/desktop/deadletters/GroupEditDialog.cpp"
expect_failure "the web console checks the typed confirmation against its own count" \
  resources/web/console/actions.js 'const ok = () => confirm.value.trim() !== String(changing.length);' \
  "resources/web/console/actions.js"
expect_failure "the web console builds a phrase from a template" \
  resources/web/console/actions.js 'const phrase = `${kind} ${matched}`;' "resources/web/console/actions.js"
expect_failure "a lower core floor includes a higher one (db -> ops)" \
  core/db/EventStore.cpp '#include "core/ops/AuditLog.h"' "core/db/EventStore.cpp"
expect_failure "a header of a lower floor includes a higher one (support -> db)" \
  core/support/Result.h '#include "core/db/Database.h"' "core/support/Result.h"
expect_failure "config includes relay options" \
  core/config/Config.h '#include "core/relay/RelayOptions.h"' "core/config/Config.h"
expect_failure "config includes consumer options" \
  core/config/Config.cpp '#include "core/consumer/ConsumerOptions.h"' "core/config/Config.cpp"
expect_failure "config includes diagnosis options" \
  core/config/Config.cpp '#include "core/diagnosis/DiagnosisOptions.h"' "core/config/Config.cpp"
expect_failure "two siblings on one core floor (consumer -> relay)" \
  core/consumer/InboxConsumer.h '#include "core/relay/Relay.h"' "core/consumer/InboxConsumer.h"
expect_failure "ops under the doctor (ops -> diagnosis)" \
  core/ops/BulkActionEngine.h '#include "core/diagnosis/PreparedAction.h"' "core/ops/BulkActionEngine.h"
expect_failure "metrics beside demo (metrics -> demo)" \
  core/metrics/MetricsQuery.cpp '#include "core/demo/OrderSimulator.h"' "core/metrics/MetricsQuery.cpp"
expect_failure "desktop feature includes another (overview -> relays)" \
  ui/desktop/overview/OverviewPage.cpp '#include "ui/desktop/relays/RelaysPage.h"' "ui/desktop/overview/OverviewPage.cpp"
expect_failure "desktop feature includes another, in a header (relays -> overview)" \
  ui/desktop/relays/RelaysPage.h '#include "ui/desktop/overview/OverviewPage.h"' "ui/desktop/relays/RelaysPage.h"
expect_failure "a shared desktop folder includes a feature (widgets -> events)" \
  ui/desktop/widgets/Labels.h '#include "ui/desktop/events/EventsPage.h"' "ui/desktop/widgets/Labels.h"
expect_failure "core includes a front end" \
  core/ops/AuditLog.h '#include "ui/web/WebServer.h"' "core/ops/AuditLog.h"
expect_failure "the database kind switched on in a header outside core/db" \
  core/ops/AuditLog.h '// if (kind == DatabaseKind::Sqlite)' "core/ops/AuditLog.h"
expect_failure "Database::Options built outside core/db (relay)" \
  core/relay/Relay.cpp 'Database::Options listenOptions = dbOptions;' "core/relay/Relay.cpp"
expect_failure "Database::Options built outside core/db (web)" \
  ui/web/api/ActionJobs.cpp 'auto db = Database::open(url, Database::Options{purpose, prefix, 5});' "ui/web/api/ActionJobs.cpp"
expect_failure "a connection opened from a bare URL outside core/db (app)" \
  app/outboxctl/commands/Relay.cpp 'auto db = Database::open(url);' "app/outboxctl/commands/Relay.cpp"
expect_failure "the relay asks which broker it has" \
  core/relay/Relay.cpp 'const bool rabbit = m_options.broker->scheme() == QLatin1String("amqp");' "core/relay/Relay.cpp"
expect_failure "a front end names a relay registry row's broker kind" \
  ui/desktop/relays/RelaysPage.cpp 'const bool rabbit = r.brokerKind == QLatin1String("amqp");' "ui/desktop/relays/RelaysPage.cpp"
expect_failure "the web console maps broker kinds itself" \
  resources/web/console/console.js 'const name = r.broker_kind === "amqp" ? "RabbitMQ" : "Kafka";' "resources/web/console/console.js"
expect_failure "a command casts to a room's class" \
  app/outboxctl/commands/Migrate.cpp 'auto* rabbit = options->broker.as<AmqpBroker>();' "app/outboxctl/commands/Migrate.cpp"
expect_failure "librdkafka outside the Kafka room (relay)" \
  core/relay/Relay.cpp '#include <librdkafka/rdkafka.h>' "core/relay/Relay.cpp"
expect_failure "rabbitmq-c outside the RabbitMQ room (consumer)" \
  core/consumer/InboxConsumer.cpp '#include <amqp.h>' "core/consumer/InboxConsumer.cpp"
expect_failure "a room's Broker made outside the registry (demo)" \
  app/outboxctl/commands/Demo.cpp '#include "core/broker/kafka/KafkaBroker.h"' "app/outboxctl/commands/Demo.cpp"
expect_failure "the flat broker folder switches on a scheme" \
  core/broker/Publisher.cpp 'if (scheme == QLatin1String("kafka")) {}' "core/broker/Publisher.cpp"

# A core folder nobody placed on a floor is an error too.
mkdir -p "$work/core/newthing"
printf '%s\n' '#pragma once' >"$work/core/newthing/Thing.h"
if out=$(bash "$check" "$work" 2>&1) || ! grep -qF "core/newthing" <<<"$out"; then
  echo "boundaries-selftest: not caught: a core folder without a floor"
  failed=1
else
  echo "boundaries-selftest: caught: a core folder without a floor"
fi
rm -rf "$work/core/newthing"

exit "$failed"
