"""scripts/cluster.sh (`make cluster`) starts Redis and two server processes that both answer,
and SIGTERM stops every one of them."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 60.0


def port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def free_pair() -> int:
    """A port p with p and p + 1 both free."""
    for _ in range(100):
        port = free_port()
        if port < 65535 and port_free(port + 1):
            return port
    raise RuntimeError("no two consecutive free ports")


def listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def healthy(port: int) -> bool:
    url = f"http://127.0.0.1:{port}/api/health"
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except (OSError, urllib.error.URLError):
        return False


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server not installed")
def test_cluster_script_serves_on_every_node_and_stops_cleanly(tmp_path: Path) -> None:
    base = free_pair()
    redis_port = free_port()
    while redis_port in (base, base + 1):
        redis_port = free_port()
    env = {
        **os.environ,
        "NODES": "2",
        "BASE_PORT": str(base),
        "REDIS_PORT": str(redis_port),
        "HOST": "127.0.0.1",
        "PY": sys.executable,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'rampart.db'}",
    }
    log_path = tmp_path / "cluster.log"
    with log_path.open("wb") as log:
        # Its own process group, so that whatever the script leaves behind can be found.
        proc = subprocess.Popen(
            ["bash", str(ROOT / "scripts" / "cluster.sh")],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    ports = [base, base + 1]
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        waiting = set(ports)
        while waiting and time.monotonic() < deadline:
            assert proc.poll() is None, f"cluster.sh exited early:\n{log_path.read_text()}"
            waiting = {port for port in waiting if not healthy(port)}
            if waiting:
                time.sleep(0.25)
        assert not waiting, f"no health on {sorted(waiting)}:\n{log_path.read_text()}"
        assert listening(redis_port)

        proc.send_signal(signal.SIGTERM)
        try:
            status = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail(f"cluster.sh did not exit on SIGTERM:\n{log_path.read_text()}")
        assert status == 128 + signal.SIGTERM, log_path.read_text()
        deadline = time.monotonic() + 5
        while group_alive(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not group_alive(proc.pid), "a child of cluster.sh outlived it"
        for port in [*ports, redis_port]:
            assert not listening(port), f"port {port} still open after cluster.sh stopped"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
