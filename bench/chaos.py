"""Chaos at full size: the chaos tests of ``tests/fault/`` with each outage held ``--outage-s``.

The tests (``tests/fault/test_chaos_*.py``) run against real servers: PostgreSQL stopped and
started, the SQLite file locked by another process, the disk under it full, Redis restarted
under two processes. In CI an outage lasts as long as its checks take; here every database
outage is held ``--outage-s`` seconds more (10 by default, the campaign's figure), the refused
move sent again every second and refused, retryably, each time. Prints each scenario's result
and exits with pytest's status.

    .venv/bin/python bench/chaos.py
    .venv/bin/python bench/chaos.py --outage-s 30 -k postgres
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a file, this folder would be first on sys.path, where bench/queue.py shadows the
# standard library's queue: put the repository there instead (``import bench...`` works too).
if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse
import os
import subprocess

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--outage-s", type=float, default=10.0)
    parser.add_argument("-k", default=None, help="only the scenarios matching (pytest -k)")
    args = parser.parse_args()
    command = [sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "--durations=0"]
    command += sorted(str(p) for p in (ROOT / "tests" / "fault").glob("test_chaos_*.py"))
    if args.k:
        command += ["-k", args.k]
    env = {**os.environ, "RAMPART_CHAOS_OUTAGE_S": str(args.outage_s)}
    sys.exit(subprocess.run(command, cwd=ROOT, env=env, check=False).returncode)


if __name__ == "__main__":
    main()
