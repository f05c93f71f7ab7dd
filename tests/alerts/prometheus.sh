#!/usr/bin/env bash
# Starts or stops a private Prometheus server (Debian's prometheus) for the end-to-end alert test,
# as a CTest fixture: free ports for Prometheus and for the `outboxctl serve` it scrapes, a viewer
# token for the scrape, and the project's alert rules with every `for:` shortened to 2s so that an
# alert fires within seconds. The test reads DIR/prometheus.port, DIR/target.port and DIR/token.
#   prometheus.sh start DIR RULES_FILE | prometheus.sh stop DIR
set -euo pipefail
action=$1 dir=$2
command -v prometheus >/dev/null || { echo "prometheus.sh: prometheus not found (run installer/install-deps.sh)" >&2; exit 1; }

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

stop() {
  if [ -f "$dir/prometheus.pid" ]; then
    pid=$(cat "$dir/prometheus.pid")
    if kill "$pid" 2>/dev/null; then
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
  fi
  rm -rf "$dir"
}

case "$action" in
start)
  rules=$3
  stop
  mkdir -p "$dir/data"
  port=$(free_port)
  target=$(free_port)
  python3 -c 'import secrets; print(secrets.token_hex(24))' >"$dir/token"
  echo "$port" >"$dir/prometheus.port"
  echo "$target" >"$dir/target.port"
  sed -E 's/^([[:space:]]*for:).*/\1 2s/' "$rules" >"$dir/outbox.rules.yml"
  cat >"$dir/prometheus.yml" <<CONF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files:
  - $dir/outbox.rules.yml
scrape_configs:
  - job_name: outbox
    authorization:
      type: Bearer
      credentials_file: $dir/token
    static_configs:
      - targets: ['127.0.0.1:$target']
CONF
  promtool check config "$dir/prometheus.yml" >"$dir/check.log" 2>&1 || { cat "$dir/check.log" >&2; exit 1; }
  nohup prometheus --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/data" \
    --web.listen-address="127.0.0.1:$port" --log.level=warn >"$dir/prometheus.log" 2>&1 &
  echo $! >"$dir/prometheus.pid"
  for _ in $(seq 300); do
    if python3 -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$port/-/ready', timeout=1)" 2>/dev/null; then
      echo "prometheus.sh: Prometheus ready on 127.0.0.1:$port, scraping 127.0.0.1:$target (in $dir)"
      exit 0
    fi
    sleep 0.1
  done
  cat "$dir/prometheus.log" >&2
  exit 1
  ;;
stop) stop ;;
*) echo "usage: prometheus.sh start DIR RULES_FILE | stop DIR" >&2; exit 2 ;;
esac
