#!/usr/bin/env bash
# Runs a command beside a throwaway PostgreSQL cluster (temp dir, free port) and exports
# RAMPART_TEST_PG_URL for it; the cluster is stopped and deleted afterwards. Without a
# PostgreSQL install the command runs alone and the postgres tests skip.
set -euo pipefail
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "with-postgres: PostgreSQL is not installed; postgres tests will skip" >&2
  exec "$@"
fi
dir=$(mktemp -d /tmp/rampart-pg.XXXXXX)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_pg=()
if [ "$(id -u)" = 0 ]; then
  # initdb refuses to run as root: the cluster belongs to the postgres user.
  chown postgres:postgres "$dir"
  as_pg=(runuser -u postgres --)
fi
cleanup() {
  "${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
"${as_pg[@]}" "$bindir/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 >"$dir/initdb.log"
"${as_pg[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" \
  start >/dev/null
export RAMPART_TEST_PG_URL="postgresql+asyncpg://postgres@127.0.0.1:$port/postgres"
echo "with-postgres: PostgreSQL on 127.0.0.1:$port" >&2
"$@"
