#!/usr/bin/env bash
# Fails when a generated document in the repository differs from what its generator prints now.
# Usage: generated-doc-check.sh DOCUMENT COMMAND [ARGS...]
set -uo pipefail
doc="$1"
shift
if ! fresh="$("$@")"; then
  echo "generated-doc-check: the generator failed: $*"
  exit 1
fi
if ! diff -u "$doc" <(printf '%s\n' "$fresh"); then
  echo "generated-doc-check: $doc differs from its source; regenerate it: $* > ${doc#"$PWD"/}"
  exit 1
fi
echo "generated-doc-check: $doc matches $*"
