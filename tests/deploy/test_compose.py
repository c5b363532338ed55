"""docker-compose.yml stays valid: `docker-compose config` must accept it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


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
    assert "app:" in result.stdout and "db:" in result.stdout
