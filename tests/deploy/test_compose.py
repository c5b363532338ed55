"""docker-compose.yml stays valid (`docker-compose config` must accept it) and runs the
scaled-out set-up: two app processes behind nginx, PostgreSQL and Redis."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def service_names(config: str) -> set[str]:
    """The service names in `docker-compose config` output (no YAML parser needed: the
    services are the keys indented by two spaces under the top-level `services:`)."""
    names: set[str] = set()
    inside = False
    for line in config.splitlines():
        if re.match(r"^\S", line):
            inside = line.rstrip() == "services:"
        elif inside and (found := re.match(r"^  ([A-Za-z0-9_.-]+):\s*$", line)):
            names.add(found.group(1))
    return names


@pytest.mark.skipif(shutil.which("docker-compose") is None, reason="docker-compose not installed")
def test_compose_file_is_valid() -> None:
    env = {**os.environ, "RAMPART_SECRET": "a-real-secret-for-the-check"}
    result = subprocess.run(
        ["docker-compose", "-f", str(ROOT / "docker-compose.yml"), "config"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert {"db", "redis", "app1", "app2", "web"} <= service_names(result.stdout)
    assert "RAMPART_NODE_URL: http://app1:8000" in result.stdout
    assert "RAMPART_NODE_URL: http://app2:8000" in result.stdout
    assert result.stdout.count("RAMPART_REDIS_URL: redis://redis:6379/0") == 2


def test_nginx_proxies_http_and_websockets_to_both_apps() -> None:
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    # Comments aside, so that a commented-out line does not count.
    conf = "\n".join(line.split("#", 1)[0] for line in conf.splitlines())
    assert re.search(r"\bserver\s+app1:8000\s*;", conf)
    assert re.search(r"\bserver\s+app2:8000\s*;", conf)
    assert re.search(r"\blisten\s+8000\s*;", conf)
    assert re.search(r"\bproxy_http_version\s+1\.1\s*;", conf)
    assert re.search(r"proxy_set_header\s+Upgrade\s+\$http_upgrade\s*;", conf)
    assert re.search(r"proxy_set_header\s+Connection\s+\$connection_upgrade\s*;", conf)
    assert re.search(r"\bproxy_read_timeout\s+\d+[hm]\s*;", conf)
    # A location that sets any proxy_set_header inherits none from its server: keep them all
    # at server level, so that every location passes Host and the upgrade headers alike.
    depth = 0
    for line in conf.splitlines():
        if "proxy_set_header" in line:
            assert depth == 1, f"proxy_set_header inside a location: {line.strip()}"
        depth += line.count("{") - line.count("}")
