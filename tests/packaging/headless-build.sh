#!/usr/bin/env bash
# The headless server build: configures SOURCE with -DOUTBOX_GUI=OFF into BUILD and builds
# outboxctl. Fails when that needs (or links) Qt Widgets, Charts or Gui, or has a console target.
# The Linguist tools are a build tool it does need: lrelease makes outboxctl's own catalogue
# (core's zh_CN texts, `LANG=zh_CN.UTF-8 outboxctl doctor`); they bring no GUI library.
# usage: headless-build.sh SOURCE BUILD [COMPILER_LAUNCHER] [WERROR]
set -euo pipefail
src=$1 build=$2 launcher=${3:-} werror=${4:-OFF}

args=(-S "$src" -B "$build" -G Ninja -DOUTBOX_GUI=OFF -DOUTBOX_BUILD_TESTS=ON
      -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS=-O0 -DOUTBOX_WERROR="$werror")
if [ -n "$launcher" ]; then args+=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher"); fi
cmake "${args[@]}" >"$build.configure.log" 2>&1 || { cat "$build.configure.log"; exit 1; }

fail=0
for module in Widgets Charts Gui; do
  if grep -q "^Qt6${module}_DIR:PATH=/" "$build/CMakeCache.txt"; then
    echo "FAIL: the headless configuration looked for Qt6 $module"; fail=1
  fi
done
if grep -rqs 'outbox-console\|outbox_desktop' "$build/build.ninja"; then
  echo "FAIL: the headless build still has console targets"; fail=1
fi

start=$(date +%s)
cmake --build "$build" --target outboxctl -j 2 >"$build.build.log" 2>&1 || { tail -50 "$build.build.log"; exit 1; }
echo "built outboxctl in $(( $(date +%s) - start )) s"

libs=$(ldd "$build/app/outboxctl/outboxctl")
if grep -E 'libQt6(Widgets|Charts|Gui)' <<<"$libs"; then
  echo "FAIL: the headless outboxctl links Qt GUI libraries"; fail=1
fi
version=$("$build/app/outboxctl/outboxctl" --version)
echo "$version"
[[ "$version" == outboxctl\ * ]] || { echo "FAIL: --version printed \"$version\""; fail=1; }
exit $fail
