#!/usr/bin/env bash
# Several Rampart processes on one machine without Docker (`make cluster`): a throwaway
# redis-server (no persistence, REDIS_PORT, default 6390 or a free port) and NODES server
# processes on BASE_PORT, BASE_PORT+1, ... that share it and DATABASE_URL (default: the
# SQLite file `make run` uses, fine for a try; several processes want PostgreSQL,
# DATABASE_URL=postgresql+asyncpg://user:pass@host/db). Any process serves any client.
# Ctrl-C (or SIGTERM) stops every process and Redis; if one process stops, all stop.
set -euo pipefail
cd "$(dirname "$0")/.."
NODES=${NODES:-2}
BASE_PORT=${BASE_PORT:-8001}
HOST=${HOST:-127.0.0.1}
PY=${PY:-.venv/bin/python}
export DATABASE_URL=${DATABASE_URL:-sqlite+aiosqlite:///./data/rampart.db}

port_free() {
  "$PY" -c 'import socket, sys
s = socket.socket()
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(1)' "$1"
}
free_port() {
  "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

if ! command -v redis-server >/dev/null 2>&1; then
  echo "cluster: redis-server is not installed (make sysdeps, or apt-get install redis-server)" >&2
  exit 1
fi
if [ -z "${REDIS_PORT:-}" ]; then
  REDIS_PORT=6390
  port_free "$REDIS_PORT" || REDIS_PORT=$(free_port)
fi
# The address the other processes use to reach a node: where it listens, loopback for a
# wildcard address.
case "$HOST" in
  0.0.0.0 | :: | '[::]') node_host=127.0.0.1 ;;
  *) node_host=$HOST ;;
esac

dir=$(mktemp -d /tmp/rampart-cluster.XXXXXX)
redis_pid=
node_pids=()
stopped=0
# TERM, then KILL whatever still runs after 10 s.
stop_pids() {
  [ $# -gt 0 ] || return 0
  kill -TERM "$@" 2>/dev/null || true
  local tries=0 pid alive
  while [ $tries -lt 100 ]; do
    alive=0
    for pid in "$@"; do
      if kill -0 "$pid" 2>/dev/null; then alive=1; fi
    done
    [ $alive = 1 ] || break
    sleep 0.1
    tries=$((tries + 1))
  done
  kill -KILL "$@" 2>/dev/null || true
}
# The nodes first, while Redis still runs for them to sign off; then Redis.
cleanup() {
  [ $stopped = 0 ] || return 0
  stopped=1
  stop_pids "${node_pids[@]}"
  if [ -n "$redis_pid" ]; then stop_pids "$redis_pid"; fi
  wait 2>/dev/null || true
  rm -rf "$dir"
}
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
trap cleanup EXIT

redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --dir "$dir" --save '' --appendonly no \
  --daemonize no --logfile "$dir/redis.log" &
redis_pid=$!
redis_up() {
  if command -v redis-cli >/dev/null 2>&1; then
    redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1
  else
    (: </dev/tcp/127.0.0.1/"$REDIS_PORT") 2>/dev/null
  fi
}
up=0
for _ in $(seq 100); do
  if redis_up; then up=1; break; fi
  kill -0 "$redis_pid" 2>/dev/null || break
  sleep 0.1
done
if [ $up = 0 ]; then
  echo "cluster: redis-server did not start on port $REDIS_PORT:" >&2
  cat "$dir/redis.log" >&2
  exit 1
fi
redis_url="redis://127.0.0.1:$REDIS_PORT/0"
echo "cluster: Redis on $redis_url, database $DATABASE_URL"

for i in $(seq 0 $((NODES - 1))); do
  port=$((BASE_PORT + i))
  RAMPART_REDIS_URL=$redis_url RAMPART_NODE_URL="http://$node_host:$port" \
    "$PY" -m app --host "$HOST" --port "$port" &
  node_pids+=($!)
  echo "cluster: node $((i + 1)) of $NODES serves http://$node_host:$port"
done

# Until a signal, or until any process stops (then the rest stop too).
status=0
wait -n || status=$?
echo "cluster: a process stopped (status $status); stopping the others" >&2
exit "$status"
