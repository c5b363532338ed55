#!/usr/bin/env bash
# Installs the Debian packages the test suite drives (Chromium, PostgreSQL, Redis, nginx in
# front of a two-process cluster, docker-compose to validate docker-compose.yml) and npm for
# the browser client's linter, only those that are missing.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v npm >/dev/null 2>&1 || need+=(npm)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v docker-compose >/dev/null 2>&1 || need+=(docker-compose)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx-light)
if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "sysdeps: missing ${need[*]}; run as root (or install them) to enable those tests" >&2
  exit 0
fi
echo "sysdeps: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
