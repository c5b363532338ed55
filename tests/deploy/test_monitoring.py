"""The monitoring set-up in deploy/: Prometheus scrapes every app process of the compose file,
the Grafana dashboard charts the metrics the server exports, nginx keeps /metrics private."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from app.ops.metrics import METRICS
from tests.deploy.test_compose import ROOT, service_names

DEPLOY = ROOT / "deploy"


def exported_names() -> set[str]:
    """The metric names this server's registry exports (with their sample suffixes)."""
    suffixes = {"counter": ("_total",), "histogram": ("_bucket", "_count", "_sum")}
    names = set()
    for family in METRICS.registry.collect():
        names.add(family.name)
        names.update(family.name + suffix for suffix in suffixes.get(family.type, ()))
    return names | {"rampart_matches_live", "rampart_sockets_open"}


def test_prometheus_scrapes_every_app_service() -> None:
    config = (DEPLOY / "prometheus.yml").read_text()
    targets = set(re.findall(r'"(app\d+):8000"', config))
    compose = (ROOT / "docker-compose.yml").read_text()
    apps = set(re.findall(r"^  (app\d+):\s*$", compose, re.MULTILINE))
    assert apps and targets == apps
    assert "metrics_path: /metrics" in config


def test_dashboard_charts_only_metrics_the_server_exports() -> None:
    dashboard = json.loads((DEPLOY / "grafana" / "rampart-dashboard.json").read_text())
    exprs = [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
    used = {name for expr in exprs for name in re.findall(r"\b(rampart_\w+|process_\w+)", expr)}
    assert used <= exported_names(), used - exported_names()
    for wanted in (
        "rampart_matches_live",
        "rampart_sockets_open",
        "rampart_actions_total",
        "rampart_action_commit_seconds_bucket",
        "rampart_broadcast_seconds_bucket",
        "rampart_errors_total",
        "rampart_http_request_duration_seconds_bucket",
        "process_cpu_seconds_total",
        "process_resident_memory_bytes",
    ):
        assert wanted in used


def test_nginx_does_not_publish_metrics() -> None:
    conf = (DEPLOY / "nginx.conf").read_text()
    assert re.search(r"location\s*=\s*/metrics\s*\{\s*return\s+404;", conf)


@pytest.mark.skipif(shutil.which("docker-compose") is None, reason="docker-compose not installed")
def test_compose_runs_prometheus_beside_the_apps() -> None:
    result = subprocess.run(
        ["docker-compose", "-f", str(ROOT / "docker-compose.yml"), "config"],
        capture_output=True,
        text=True,
        env={"RAMPART_SECRET": "a-real-secret-for-the-check", "PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert {"prometheus", "grafana"} <= service_names(result.stdout)
    assert "deploy/prometheus.yml" in result.stdout
