"""The stores beside the servers (a throwaway PostgreSQL, Redis) and what they do per move.

``postgres_running`` starts a throwaway PostgreSQL cluster as ``scripts/with-postgres.sh``
does, for one run (so every run starts on an empty database). ``SideCounters`` reads, at the
start and end of the measured window: the CPU of the Redis server and of the whole PostgreSQL
cluster (postmaster, backends and background workers), Redis commands and network bytes,
PostgreSQL commits, rows inserted and WAL bytes, the load average, and from every server's
``/metrics`` the action-commit and broadcast histograms, so the result can say what each
of them costs per move.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from bench.loadgen.probes import CLK_TCK, free_port

HISTOGRAMS = ("rampart_action_commit_seconds", "rampart_broadcast_seconds")


def postgres_bindir() -> Path:
    """The newest installed PostgreSQL's bin folder; SystemExit if there is none."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))
    if not found or not (found[-1] / "initdb").exists():
        raise SystemExit("--postgres: PostgreSQL is not installed (scripts/sysdeps.sh)")
    return found[-1]


@contextlib.contextmanager
def postgres_running(fsync: bool) -> Iterator[tuple[str, int]]:
    """A throwaway PostgreSQL cluster on a free port for the ``with`` block (run as the
    ``postgres`` user when this is root, as initdb requires); yields its SQLAlchemy URL and
    the postmaster's pid. Stopped and deleted at the block's end."""
    bindir = postgres_bindir()
    folder = Path(tempfile.mkdtemp(prefix="rampart-load-pg-"))
    as_pg: list[str] = []
    if os.getuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
        as_pg = ["runuser", "-u", "postgres", "--"]
    data, port = folder / "data", free_port()
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
    options += f" -c fsync={'on' if fsync else 'off'}"
    try:
        initdb = [str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust"]
        subprocess.run([*as_pg, *initdb, "-E", "UTF8"], check=True, stdout=subprocess.DEVNULL)
        pg_ctl = [str(bindir / "pg_ctl"), "-D", str(data), "-l", str(folder / "server.log")]
        start = [*as_pg, *pg_ctl, "-w", "-o", options, "start"]
        subprocess.run(start, check=True, stdout=subprocess.DEVNULL)
        postmaster = int((data / "postmaster.pid").read_text().split("\n", 1)[0])
        yield f"postgresql+asyncpg://postgres@127.0.0.1:{port}/postgres", postmaster
    finally:
        subprocess.run(
            [*as_pg, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        shutil.rmtree(folder, ignore_errors=True)


def tree_cpu_seconds(root: int) -> float:
    """CPU seconds of ``root`` and its live children, plus those of its children that have
    exited and been waited for (a PostgreSQL cluster: postmaster, backends, workers)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, parent = int(stat.parent.name), int(fields[1])
        if pid == root:
            total += sum(int(v) for v in fields[11:15])  # utime stime cutime cstime
        elif parent == root:
            total += int(fields[11]) + int(fields[12])
    return total / CLK_TCK


def parse_metrics(text: str, into: dict[str, float]) -> None:
    """Add the action count and the two histograms' buckets, sums and counts of one
    ``/metrics`` exposition to ``into`` (summed over processes)."""
    for line in text.splitlines():
        if line.startswith("rampart_actions_total"):
            name = "actions"
        elif line.startswith(HISTOGRAMS):
            name = line.split(" ", 1)[0]
        else:
            continue
        into[name] = into.get(name, 0.0) + float(line.rsplit(" ", 1)[1])


def histogram(before: dict[str, float], after: dict[str, float], name: str) -> dict[str, Any]:
    """Count, mean and bucket-bounded p50/p99 (ms, the upper bound of the bucket that holds
    it) of one histogram over the window."""
    count = after.get(f"{name}_count", 0.0) - before.get(f"{name}_count", 0.0)
    total = after.get(f"{name}_sum", 0.0) - before.get(f"{name}_sum", 0.0)
    prefix = f'{name}_bucket{{le="'
    buckets = sorted(
        (float(key[len(prefix) : -2]), after[key] - before.get(key, 0.0))
        for key in after
        if key.startswith(prefix) and not key.endswith('"+Inf"}')
    )

    def upper(q: float) -> float | None:
        for bound, below in buckets:
            if below >= q * count:
                return round(1000 * bound, 2)
        return None  # beyond the last finite bucket

    return {
        "count": int(count),
        "mean_ms": round(1000 * total / count, 3) if count else None,
        "p50_ms_at_most": upper(0.5) if count else None,
        "p99_ms_at_most": upper(0.99) if count else None,
    }


class SideCounters:
    """What PostgreSQL, Redis and the servers' own metrics say over the window."""

    def __init__(
        self,
        bases: tuple[str, ...],
        redis_url: str | None,
        postgres_url: str | None,
        postmaster_pid: int | None,
    ) -> None:
        self.bases = bases
        self.redis_url = redis_url
        self.postgres_url, self.postmaster_pid = postgres_url, postmaster_pid

    async def read(self) -> dict[str, float]:
        """One snapshot of every counter (monotonic totals, subtracted by ``figures``)."""
        snap: dict[str, float] = {"at": time.monotonic()}
        async with httpx.AsyncClient(timeout=10) as http:
            for base in self.bases:
                reply = await http.get(f"{base}/metrics")
                if reply.status_code == 200:  # an older commit (--server-root) may have none
                    parse_metrics(reply.text, snap)
        if self.redis_url is not None:
            snap.update(await _redis_counters(self.redis_url))
            snap["redis_cpu_s"] = tree_cpu_seconds(int(snap.pop("redis_pid")))
        if self.postmaster_pid is not None:
            snap["pg_cpu_s"] = tree_cpu_seconds(self.postmaster_pid)
        if self.postgres_url is not None:
            snap.update(await _postgres_counters(self.postgres_url))
        return snap

    @staticmethod
    def figures(before: dict[str, float], after: dict[str, float]) -> dict[str, Any]:
        """The window's deltas, per second and per durable action (``rampart_actions_total``
        summed over the servers)."""
        seconds = after["at"] - before["at"]
        actions = after.get("actions", 0.0) - before.get("actions", 0.0)

        def delta(key: str) -> float:
            return after.get(key, 0.0) - before.get(key, 0.0)

        def per_action(key: str, scale: float = 1.0) -> float | None:
            return round(scale * delta(key) / actions, 3) if actions else None

        out: dict[str, Any] = {
            "window_s": round(seconds, 2),
            "actions": int(actions),
            "actions_per_s": round(actions / seconds, 1),
            "commit": histogram(before, after, HISTOGRAMS[0]),
            "broadcast": histogram(before, after, HISTOGRAMS[1]),
        }
        if "redis_commands" in after:
            # Less this probe's own INFO commands.
            redis_commands = delta("redis_commands") - delta("redis_cmd_info")
            out["redis"] = {
                "cpu_pct": round(100 * delta("redis_cpu_s") / seconds, 1),
                "cpu_us_per_move": per_action("redis_cpu_s", 1e6),
                "commands_per_s": round(redis_commands / seconds, 1),
                "commands_per_move": round(redis_commands / actions, 4) if actions else None,
                "net_bytes_per_move": per_action("redis_net_bytes"),
                "by_command": {
                    key[len("redis_cmd_") :]: int(delta(key))
                    for key in sorted(after)
                    if key.startswith("redis_cmd_") and key != "redis_cmd_info" and delta(key)
                },
            }
        if "pg_commits" in after:
            commits = delta("pg_commits")
            out["postgres"] = {
                "cpu_pct": round(100 * delta("pg_cpu_s") / seconds, 1),
                "cpu_us_per_move": per_action("pg_cpu_s", 1e6),
                "commits_per_s": round(commits / seconds, 1),
                "commits_per_move": per_action("pg_commits"),
                "moves_per_commit": round(actions / commits, 2) if commits else None,
                "rows_inserted_per_move": per_action("pg_rows_inserted"),
                "wal_bytes_per_move": per_action("pg_wal_bytes"),
            }
        return out


async def _redis_counters(url: str) -> dict[str, float]:
    from redis.asyncio import Redis

    client = Redis.from_url(url)
    try:
        stats = await client.info("stats")
        commands = await client.info("commandstats")
        server = await client.info("server")
    finally:
        await client.aclose()
    out = {
        "redis_pid": float(server["process_id"]),
        "redis_commands": float(stats["total_commands_processed"]),
        "redis_net_bytes": float(stats["total_net_input_bytes"] + stats["total_net_output_bytes"]),
    }
    for key, value in commands.items():
        out[f"redis_cmd_{key.removeprefix('cmdstat_')}"] = float(value["calls"])
    return out


async def _postgres_counters(url: str) -> dict[str, float]:
    import asyncpg

    connection = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        commits = await connection.fetchval(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
        )
        # Rows are counted, not read from the statistics: a busy backend reports its counts
        # at most once a second (PostgreSQL 15+), and the action log's writer, on a
        # connection of its own, is always busy, so a short window saw too few.
        rows = await connection.fetchval("SELECT count(*) FROM match_actions")
        wal = await connection.fetchval("SELECT wal_bytes FROM pg_stat_wal")
    finally:
        await connection.close()
    # This snapshot's own statements count as commits too: noise beside the servers'. Commits
    # come from the statistics, so they may lag the window's edges by up to a second.
    return {
        "pg_commits": float(commits),
        "pg_rows_inserted": float(rows),
        "pg_wal_bytes": float(wal),
    }
