#!/usr/bin/env bash
# Starts or stops the OpenID provider of the sign-in tests (tests/oidc/provider: npm's oidc-provider
# under Node) as a CTest fixture shared by tst_oidcsignin and tst_oidcrenewal: a free port, a
# random secret for its confidential client in DIR/client.secret (mode 600, also the file serve's
# [oidc] client_secret_file reads in the test), the issuer in DIR/issuer. Without Node or the
# provider's node_modules (installer/install-deps.sh runs `npm ci` there) it writes the reason to
# DIR/unavailable instead, and the tests skip (and fail under CI).
#   provider.sh start DIR PROVIDER_SOURCE_DIR | provider.sh stop DIR
set -euo pipefail
action=$1 dir=$2

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

stop() {
  if [ -f "$dir/provider.pid" ]; then
    pid=$(cat "$dir/provider.pid")
    if kill "$pid" 2>/dev/null; then
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
  fi
  rm -rf "$dir"
}

case "$action" in
start)
  source=$3
  stop
  mkdir -p "$dir"
  if ! command -v node >/dev/null; then
    echo "node is not installed (installer/install-deps.sh)" | tee "$dir/unavailable"
    exit 0
  fi
  if [ ! -d "$source/node_modules/oidc-provider" ]; then
    echo "$source/node_modules is missing (installer/install-deps.sh runs npm ci there)" | tee "$dir/unavailable"
    exit 0
  fi
  port=$(free_port)
  (umask 077; python3 -c 'import secrets; print(secrets.token_urlsafe(32))' >"$dir/client.secret")
  cd "$source"
  OUTBOX_TEST_OIDC_SECRET=$(cat "$dir/client.secret") nohup node provider.js "$port" >"$dir/provider.log" 2>&1 &
  echo $! >"$dir/provider.pid"
  for _ in $(seq 600); do
    if python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/.well-known/openid-configuration', timeout=1)" 2>/dev/null; then
      echo "http://127.0.0.1:$port" >"$dir/issuer"
      echo "provider.sh: oidc-provider ready at http://127.0.0.1:$port (in $dir)"
      exit 0
    fi
    kill -0 "$(cat "$dir/provider.pid")" 2>/dev/null || break
    sleep 0.1
  done
  cat "$dir/provider.log" >&2
  exit 1
  ;;
stop) stop ;;
*) echo "usage: provider.sh start DIR PROVIDER_SOURCE_DIR | stop DIR" >&2; exit 2 ;;
esac
