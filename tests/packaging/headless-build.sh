#!/usr/bin/env bash
# The headless server build: configures SOURCE with -DOUTBOX_GUI=OFF into BUILD and builds
# outboxctl. Fails when that needs (or links) Qt Widgets, Charts or Gui, or has a console target.
# The Linguist tools are a build tool it does need: lrelease makes outboxctl's own catalogue
# (core's zh_CN texts, `LANG=zh_CN.UTF-8 outboxctl doctor`); they bring no GUI library.
# usage: headless-build.sh SOURCE BUILD [COMPILER_LAUNCHER] [WERROR] [BUILD_TYPE]
#
# It compiles what the main build compiled (core, ui/web, app/outboxctl) with the same build type
# and flags. With ccache as the launcher and BUILD a sibling of the main build folder (the same
# depth below SOURCE, so every compiler argument relative to it is the same), those compiles are
# cache hits: the test then costs a configure, a link and the moc runs, not a second build of core
# (258 s of both cores in CI when it compiled at -O0 with its own flags).
set -euo pipefail
src=$1 build=$2 launcher=${3:-} werror=${4:-OFF} build_type=${5:-RelWithDebInfo}

args=(-S "$src" -B "$build" -G Ninja -DOUTBOX_GUI=OFF -DOUTBOX_BUILD_TESTS=ON
      -DCMAKE_BUILD_TYPE="$build_type" -DOUTBOX_WERROR="$werror")
if [ -n "$launcher" ]; then
  args+=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher")
  # The main build's cache entries were made with paths relative to the source folder.
  export CCACHE_BASEDIR="$src" CCACHE_NOHASHDIR=1
fi
mkdir -p "$build"
cmake "${args[@]}" >"$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }

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
cmake --build "$build" --target outboxctl -j 2 >"$build/build.log" 2>&1 || { tail -50 "$build/build.log"; exit 1; }
echo "built outboxctl in $(( $(date +%s) - start )) s"
# Compile steps run; under ccache they are hits unless the flags drifted from the main build's.
grep -c 'Building CXX' "$build/build.log" | sed 's/^/compiles: /' || true

libs=$(ldd "$build/app/outboxctl/outboxctl")
if grep -E 'libQt6(Widgets|Charts|Gui)' <<<"$libs"; then
  echo "FAIL: the headless outboxctl links Qt GUI libraries"; fail=1
fi
version=$("$build/app/outboxctl/outboxctl" --version)
echo "$version"
[[ "$version" == outboxctl\ * ]] || { echo "FAIL: --version printed \"$version\""; fail=1; }
exit $fail
