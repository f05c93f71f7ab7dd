#!/usr/bin/env bash
# Proves that docs-names-check.py catches a name the code does not have: the untouched map passes,
# and each cited name that is made up (a type, a member, a function, a file) makes it fail and is
# named in its output.
# Usage: docs-names-selftest.sh SOURCE_DIR
set -uo pipefail
source_dir=$(cd "$1" && pwd) || exit 2
check="$source_dir/tests/style/docs-names-check.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! out=$(python3 "$check" "$source_dir" 2>&1); then
  echo "docs-names-selftest: the check fails on the untouched map:"
  printf '%s\n' "$out"
  exit 1
fi

failed=0
expect_failure() { # NAME CITED: a line citing CITED is added to a copy of the map
  local name=$1 cited=$2
  cp "$source_dir/docs/architecture.md" "$work/architecture.md"
  printf '\nThe relay asks `%s` first.\n' "$cited" >>"$work/architecture.md"
  local out rc
  out=$(python3 "$check" "$source_dir" "$work/architecture.md" 2>&1)
  rc=$?
  if [ "$rc" -ne 1 ] || ! grep -qF -- "\`$cited\`" <<<"$out"; then
    echo "docs-names-selftest: not caught: $name (exit $rc)"
    printf '%s\n' "$out" | sed 's/^/  /'
    failed=1
  else
    echo "docs-names-selftest: caught: $name"
  fi
}

expect_failure "a member a class does not have" 'Config::broker()'
expect_failure "a member of a class that does not exist" 'BrokerFactory::create()'
expect_failure "a class that does not exist" 'PublisherFactory'
expect_failure "a function nobody calls or declares" 'publishEverythingTwice()'
expect_failure "a file that is not there" 'core/relay/NoSuchRelay.cpp'
expect_failure "a folder that is not there" 'core/transport/'
exit "$failed"
