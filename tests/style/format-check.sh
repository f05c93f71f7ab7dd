#!/usr/bin/env bash
# Fails when a C++ file of the project differs from what the project's .clang-format makes of it.
# Usage: format-check.sh SOURCE_DIR [--fix]
set -euo pipefail
src="$1"
cd "$src"
mapfile -t files < <(find app core ui tests -name '*.cpp' -o -name '*.h' | sort)
if [ "${2:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  echo "format: ${#files[@]} files formatted"
  exit 0
fi
if ! clang-format --dry-run --Werror "${files[@]}" 2>/tmp/format-check.$$; then
  grep -o '^[^:]*:[0-9]*' /tmp/format-check.$$ | sort -u | head -40
  echo "format-check: files differ from .clang-format; run 'cmake --build build --target format'"
  rm -f /tmp/format-check.$$
  exit 1
fi
rm -f /tmp/format-check.$$
echo "format-check: ${#files[@]} files match .clang-format"
