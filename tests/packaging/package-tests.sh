#!/usr/bin/env bash
# The Debian packages, built by cpack from a build folder's binaries and checked as an operator
# would get them.
# usage: package-tests.sh BUILD build|contents|lintian|installed|units
#   build      cpack → BUILD/packages/outboxctl_*.deb and outbox-console_*.deb (CTest fixture)
#   contents   control fields (no Qt Widgets/Charts for outboxctl, computed library
#              dependencies, the project version) and the files each package holds
#   lintian    no lintian errors (warnings are printed)
#   installed  both unpacked into a scratch root (dpkg -x) and run from there: --version, the
#              demo, the console's --help in zh_CN with its translations found in the scratch
#              root, the dashboard (with its zh_CN catalogue in a real Chromium) served by the
#              installed outboxctl
#   units      systemd-analyze verify of every unit as shipped, against the unpacked root
set -euo pipefail
build=$(cd "$1" && pwd) check=$2
packages=$build/packages
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
fail=0
failed() { echo "FAIL: $*"; fail=1; }

debs() {
  ctl=$(ls "$packages"/outboxctl_"$version"_*.deb)
  gui=$(ls "$packages"/outbox-console_"$version"_*.deb)
}

unpack() { # unpack ROOT DEB...
  local root=$1; shift
  for deb in "$@"; do dpkg -x "$deb" "$root"; done
}

case $check in
build)
  rm -f "$packages"/*.deb
  start=$(date +%s)
  cpack --config "$build/CPackConfig.cmake" -B "$packages" >"$build/cpack.log" 2>&1 || { cat "$build/cpack.log"; exit 1; }
  debs
  ls -l "$ctl" "$gui"
  echo "cpack: $(( $(date +%s) - start )) s"
  ;;

contents)
  debs
  depends=$(dpkg-deb -f "$ctl" Depends)
  echo "outboxctl Depends: $depends"
  if grep -Eiq 'libqt6(widgets|charts|gui)|qt6-qpa' <<<"$depends"; then failed "outboxctl depends on Qt GUI packages"; fi
  for lib in libqt6core6 libqt6sql6 libqt6websockets6 libhttp-parser2.9 librdkafka1 libsystemd0 libjs-chart.js; do
    grep -q "$lib" <<<"$depends" || failed "outboxctl does not depend on $lib"
  done
  gdepends=$(dpkg-deb -f "$gui" Depends)
  echo "outbox-console Depends: $gdepends"
  grep -q "outboxctl (= $version)" <<<"$gdepends" || failed "outbox-console does not depend on outboxctl (= $version)"
  for lib in libqt6widgets6 libqt6charts6; do grep -q "$lib" <<<"$gdepends" || failed "outbox-console lacks $lib"; done
  for deb in "$ctl" "$gui"; do
    [ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || failed "$deb: version is not $version"
  done

  ctl_files=$(dpkg-deb -c "$ctl" | awk '{print $6}')
  gui_files=$(dpkg-deb -c "$gui" | awk '{print $6}')
  for f in ./usr/bin/outboxctl ./usr/share/man/man1/outboxctl.1.gz ./etc/outbox/outbox.ini.example \
           ./usr/lib/sysusers.d/outboxctl.conf ./usr/share/doc/outboxctl/copyright \
           ./usr/lib/systemd/system/outbox-relay@.service ./usr/lib/systemd/system/outbox-serve@.service \
           ./usr/lib/systemd/system/outbox-doctor@.service ./usr/lib/systemd/system/outbox-doctor@.timer \
           ./usr/share/doc/outboxctl/prometheus/outbox.rules.yml ./usr/share/doc/outboxctl/runbooks/README.md \
           ./usr/share/doc/outboxctl/runbooks/no-relay.md ./usr/share/doc/outboxctl/runbooks/metrics-missing.md \
           ./usr/share/outboxctl/translations/outbox_core_zh_CN.qm; do
    grep -qxF "$f" <<<"$ctl_files" || failed "outboxctl lacks $f"
  done
  for f in ./usr/bin/outbox-console ./usr/share/man/man1/outbox-console.1.gz \
           ./usr/share/outbox-console/translations/outbox_console_zh_CN.qm \
           ./usr/share/outbox-console/translations/outbox_core_zh_CN.qm \
           ./usr/share/applications/org.outboxconsole.OutboxConsole.desktop \
           ./usr/share/metainfo/org.outboxconsole.OutboxConsole.metainfo.xml \
           ./usr/share/icons/hicolor/scalable/apps/outbox-console.svg \
           ./usr/share/icons/hicolor/48x48/apps/outbox-console.png \
           ./usr/share/icons/hicolor/256x256/apps/outbox-console.png; do
    grep -qxF "$f" <<<"$gui_files" || failed "outbox-console lacks $f"
  done
  grep -q 'outbox-console' <<<"$(grep -v '^./usr/share/doc/' <<<"$ctl_files")" && failed "outboxctl holds console files"
  grep -q 'outboxctl' <<<"$(grep -v '^./usr/share/doc/\|outbox-console.1.gz' <<<"$gui_files")" && failed "outbox-console holds outboxctl files"

  control=$(mktemp -d); trap 'rm -rf "$control"' EXIT
  dpkg-deb -e "$ctl" "$control"
  grep -qxF /etc/outbox/outbox.ini.example "$control/conffiles" || failed "the example configuration is no conffile"
  grep -q 'systemd-sysusers outboxctl.conf' "$control/postinst" || failed "postinst does not create the outbox user"
  grep -q 'adduser --system' "$control/postinst" || failed "postinst has no adduser fallback"
  for script in postinst prerm postrm; do sh -n "$control/$script" || failed "$script is no valid sh"; done

  # The system user as systemd-sysusers creates it from the shipped file (in a scratch root).
  root=$control/root; mkdir -p "$root/etc"; unpack "$root" "$ctl"
  systemd-sysusers --root="$root" "$root/usr/lib/sysusers.d/outboxctl.conf" >/dev/null 2>&1 || failed "systemd-sysusers failed"
  grep -q '^outbox:x:[0-9]*:[0-9]*:Outbox Console services:/var/lib/outbox:/usr/sbin/nologin$' "$root/etc/passwd" \
    || failed "sysusers.d does not create the outbox system user"

  # The configuration example names real keys: with every non-secret line uncommented (and a
  # database and broker named) the installed outboxctl accepts it.
  sed -e 's/^;\([a-z_.]* = .\+\)$/\1/' -e 's|^;url =$|url = sqlite:///var/lib/outbox/orders.db|' \
      -e 's|^;bootstrap =$|bootstrap = 127.0.0.1:9092|' "$root/etc/outbox/outbox.ini.example" >"$control/all.ini"
  [ "$(grep -c '^[a-z_.]* = ' "$control/all.ini")" -ge 30 ] || failed "the example names fewer than 30 keys"
  "$root/usr/bin/outboxctl" config show --config "$control/all.ini" >/dev/null 2>"$control/config.err" \
    || failed "outboxctl config show refuses the example: $(cat "$control/config.err")"

  # One source for --help and the man page: every command of --help has its section.
  man=$(zcat "$root/usr/share/man/man1/outboxctl.1.gz")
  commands=$("$root/usr/bin/outboxctl" --help | sed -n '/^commands:/,/^$/p' | awk 'NR>1 && NF {print $1}')
  [ -n "$commands" ] || failed "outboxctl --help lists no commands"
  for c in $commands; do grep -q "^\.SS \"outboxctl $c" <<<"$man" || failed "the man page lacks the command $c"; done
  warnings=$(zcat "$root/usr/share/man/man1/outboxctl.1.gz" | LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l - 2>&1 >/dev/null || true)
  [ -z "$warnings" ] || failed "man page warnings: $warnings"
  echo "man page: $(wc -l <<<"$man") lines, commands: $(tr '\n' ' ' <<<"$commands")"
  ;;

lintian)
  debs
  out=$(lintian --tag-display-limit 0 "$ctl" "$gui" 2>&1 | grep -v '^running with root privileges' || true)
  echo "${out:-lintian: no tags}"
  if grep -q '^E: ' <<<"$out"; then failed "lintian reports errors"; fi
  ;;

installed)
  debs
  scratch=$(mktemp -d); serve_pid=
  cleanup() { [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$scratch"; }
  trap cleanup EXIT
  root=$scratch/root; mkdir "$root"; unpack "$root" "$ctl" "$gui"
  bin=$root/usr/bin
  # Nothing from the build tree may help: no OUTBOXCTL, a clean working directory.
  unset OUTBOXCTL OUTBOX_DB_URL
  cd "$scratch"

  got=$("$bin/outboxctl" --version)
  [ "$got" = "outboxctl $version" ] || failed "outboxctl --version printed \"$got\""

  timeout 120 "$bin/outboxctl" demo --duration 5 --db "sqlite://$scratch/demo.db" >demo.out 2>demo.err \
    || { cat demo.out demo.err; failed "the installed demo failed"; }
  summary=$(grep -h '^demo stopped' demo.out demo.err || true)
  echo "demo: $summary"
  grep -Eq 'sent [1-9][0-9]*' <<<"$summary" || failed "the installed demo delivered nothing"

  # outboxctl doctor in Chinese: core's catalogue is found in outboxctl's own data directory.
  zhdoctor=$(env LC_ALL=zh_CN.UTF-8 LANG=zh_CN.UTF-8 LANGUAGE= "$bin/outboxctl" doctor \
               --db "sqlite://$scratch/demo.db" 2>&1 || true)
  grep -q '项检查' <<<"$zhdoctor" || failed "the installed outboxctl doctor is not translated: $zhdoctor"

  # The console in Chinese: its catalogue is found in the unpacked data directory.
  zh=$(env LC_ALL=zh_CN.UTF-8 LANG=zh_CN.UTF-8 LANGUAGE=zh_CN OUTBOX_DEBUG_PATHS=1 QT_QPA_PLATFORM=offscreen \
         "$bin/outbox-console" --help 2>console.err) || failed "outbox-console --help failed"
  cat console.err
  grep -q 'Outbox 控制台：事务性发件箱' <<<"$zh" || failed "outbox-console --help is not translated: $zh"
  grep -qF "translations $root/usr/share/outbox-console/translations ($root/usr/share/outbox-console/translations/outbox_console_zh_CN.qm)" console.err \
    || failed "the console did not load its catalogue from the installed data directory"
  grep -qF "window icon 16 24 32 48 64 128 256 512" console.err || failed "the console has no window icon"
  en=$(env LC_ALL=C.UTF-8 LANG=C.UTF-8 LANGUAGE= QT_QPA_PLATFORM=offscreen "$bin/outbox-console" --help 2>/dev/null)
  grep -q 'Outbox Console: live health' <<<"$en" || failed "outbox-console --help in English: $en"

  # The dashboard from the installed outboxctl (its pages are built in; Chart.js comes from
  # libjs-chart.js, a dependency of the package).
  for attempt in 1 2 3 4 5; do
    port=$(( 20000 + RANDOM % 30000 ))
    "$bin/outboxctl" serve --db "sqlite://$scratch/demo.db" --listen "127.0.0.1:$port" --public-dashboard \
      >serve.out 2>serve.err &
    serve_pid=$!
    for _ in $(seq 100); do
      curl -sf "http://127.0.0.1:$port/" -o index.html && break
      kill -0 "$serve_pid" 2>/dev/null || break
      sleep 0.1
    done
    [ -s index.html ] && break
    wait "$serve_pid" 2>/dev/null || true; serve_pid=
  done
  [ -s index.html ] || { cat serve.err; failed "the installed outboxctl serve did not answer"; }
  if [ -s index.html ]; then
    curl -sf "http://127.0.0.1:$port/static/dashboard.js" -o dashboard.js || failed "no /static/dashboard.js"
    curl -sf "http://127.0.0.1:$port/static/chart.js" -o chart.js || failed "no /static/chart.js"
    [ "$(stat -c %s chart.js 2>/dev/null || echo 0)" -gt 10000 ] || failed "chart.js is empty"
    grep -q '"zh-CN"' dashboard.js || failed "the dashboard has no zh_CN catalogue"
    if command -v chromium >/dev/null; then
      for lang in zh-CN en-US; do
        chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
          --disable-component-update --disable-sync --user-data-dir="$scratch/chromium-$lang" --lang="$lang" \
          --accept-lang="$lang" --virtual-time-budget=3000 --dump-dom "http://127.0.0.1:$port/" \
          >"dom-$lang.html" 2>/dev/null || true
      done
      grep -q '<html lang="zh-CN"' dom-zh-CN.html && grep -q '最早待发送' dom-zh-CN.html \
        || failed "a zh-CN browser does not get the Chinese dashboard"
      grep -q '<html lang="en"' dom-en-US.html && grep -q 'OLDEST PENDING' dom-en-US.html \
        || failed "an en-US browser does not get the English dashboard"
      echo "dashboard: zh-CN and en-US browsers get their language"
    else
      failed "chromium is not installed (installer/install-deps.sh installs it)"
    fi
  fi
  ;;

units)
  debs
  root=$(mktemp -d); trap 'rm -rf "$root"' EXIT
  unpack "$root" "$ctl"
  units=$root/usr/lib/systemd/system
  ours=("$units"/outbox-*@.*)
  [ ${#ours[@]} -eq 4 ] || failed "expected 4 units, found ${#ours[@]}"
  # systemd's own units (sysinit.target, network-online.target, ...) from this machine.
  cp -rn /usr/lib/systemd/system/. "$units/"
  # Instances as systemctl would start them (the templates need an instance name); verify
  # resolves ExecStart= in the unpacked root.
  targets=()
  for template in "${ours[@]}"; do
    name=$(basename "$template")
    instance=${name/@./@orders.}
    ln -s "$name" "$units/$instance"
    targets+=("$units/$instance")
  done
  echo "verifying: ${targets[*]##*/}"
  out=$(SYSTEMD_LOG_LEVEL=notice systemd-analyze verify --man=no --generators=no --root="$root" "${targets[@]}" 2>&1) \
    || failed "systemd-analyze verify failed"
  [ -z "$out" ] || { echo "$out"; failed "systemd-analyze verify complained"; }
  for instance in "${targets[@]}"; do
    case $instance in
    *.service)
      grep -q '^ExecStart=/usr/bin/outboxctl ' "$instance" || failed "$instance does not run /usr/bin/outboxctl"
      grep -q '^User=outbox$' "$instance" || failed "$instance does not run as outbox"
      ;;
    esac
  done
  for service in outbox-relay@orders.service outbox-serve@orders.service; do
    for key in Type=notify Restart=on-failure KillSignal=SIGTERM WatchdogSec= ProtectSystem=strict NoNewPrivileges=yes PrivateTmp=yes ProtectHome=yes; do
      grep -q "^$key" "$units/$service" || failed "$service lacks $key"
    done
    exposure=$(systemd-analyze security --offline=yes --root="$root" "$units/$service" 2>/dev/null | tail -1 || true)
    echo "$service: $exposure"
  done
  stop=$(sed -n 's/^TimeoutStopSec=//p' "$units/outbox-relay@orders.service")
  [ "${stop%s}" -gt 30 ] || failed "the relay's stop timeout ($stop) is not above its 30 s drain"
  ;;

*)
  echo "usage: $0 BUILD build|contents|lintian|installed|units" >&2
  exit 2
  ;;
esac
exit $fail
