"""Schemathesis against ``/openapi.json`` of a real Rampart server: every route fuzzed with
values inside and outside its declared bounds, as a logged-in player, over seeded tables,
matches, tournaments and ladders; prints requests, statuses, 5xx and schema mismatches.

    .venv/bin/python bench/fuzz_rest.py                   # 100 cases a route (3-6 minutes)
    .venv/bin/python bench/fuzz_rest.py --max-time 600    # full size: fuzz on for 10 minutes
    .venv/bin/python bench/fuzz_rest.py --examples 10     # quicker
    .venv/bin/python bench/fuzz_rest.py --url http://127.0.0.1:8000   # a server already up
    scripts/with-postgres.sh sh -c '.venv/bin/python bench/fuzz_rest.py \
        --database-url "$RAMPART_TEST_PG_URL"'                     # on PostgreSQL

Exit status 1 when any request got a 5xx, a status the schema does not declare, or a body
that does not match it, when a request the schema accepts was refused ``request/invalid`` or
one it refuses was taken, when ``OPTIONS`` names other methods than the schema (or a server
traceback was logged). ``tests/fault/test_rest_fuzz.py``
runs it at CI size.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a file, this folder would be first on sys.path, where bench/queue.py shadows the
# standard library's queue: put the repository there instead (``import bench...`` works too).
if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse
import contextlib
import json
import os
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx

from app.__main__ import serve_command
from bench.loadgen.probes import free_port

ROOT = Path(__file__).resolve().parents[1]

# The checks that hold the server to its schema and its bounds (the others judge API style).
CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
    "negative_data_rejection",  # a value outside the schema's bounds must not be taken
    "positive_data_validated",  # one inside them is never refused request/invalid (fuzz_checks)
    "ignored_auth",  # a route that needs a token refuses a request without one
    "unsupported_method",  # a method a path lacks is a 405 naming those it has (Allow)
    "allow_header_conformance",  # OPTIONS names exactly the methods the schema lists
)
# Where the custom checks are registered (schemathesis imports it: the repository on its path).
HOOKS = "bench.fuzz_checks"
GAMES = ("castles", "ambush", "rampage", "ember")
PASSWORD = "fuzz-password-1"


@dataclass
class Seeded:
    """What the fuzzer is pointed at: a player's token and the ids of real rows."""

    token: str
    ids: dict[str, list[int]] = field(default_factory=dict)
    invite_codes: list[str] = field(default_factory=list)


@dataclass
class Figures:
    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    # 2xx answers to requests naming a row (``/api/lobbies/3/join``): the deep paths reached.
    deep_ok: int = 0
    failures: Counter[str] = field(default_factory=Counter)
    failing_operations: set[str] = field(default_factory=set)
    examples: list[str] = field(default_factory=list)
    tracebacks: int = 0
    # Test cases schemathesis itself failed to run (its own bugs, not the server's): reported.
    tool_errors: int = 0
    seconds: float = 0.0

    @property
    def server_errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500)

    @property
    def ok(self) -> bool:
        return self.requests > 0 and not self.failures and not self.tracebacks

    def as_json(self) -> dict[str, Any]:
        return {
            "requests": self.requests,
            "statuses": {str(k): v for k, v in sorted(self.statuses.items())},
            "server_errors": self.server_errors,
            "deep_ok": self.deep_ok,
            "failures": dict(self.failures),
            "failing_operations": sorted(self.failing_operations),
            "tracebacks": self.tracebacks,
            "tool_errors": self.tool_errors,
            "seconds": round(self.seconds, 1),
            "ok": self.ok,
        }


@contextlib.contextmanager
def server_running(workdir: Path, database_url: str | None = None) -> Iterator[str]:
    """``python -m app`` on a free port and ``database_url`` (default: a fresh SQLite file in
    ``workdir``), its log in ``workdir/server.log``; yields the base URL once it answers."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url or f"sqlite+aiosqlite:///{workdir}/rampart.db",
        "PYTHONPATH": str(ROOT),
    }
    with open(workdir / "server.log", "wb") as log:
        process = subprocess.Popen(
            serve_command(port), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError((workdir / "server.log").read_text())
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/api/games", timeout=1).status_code == 200:
                    break
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        process.wait(10)


def _ok(reply: httpx.Response) -> dict[str, Any]:
    if reply.status_code not in (200, 201):
        raise RuntimeError(f"seeding failed: {reply.request.url} {reply.status_code} {reply.text}")
    data: dict[str, Any] = reply.json()
    return data


def seed(url: str) -> Seeded:
    """Real rows to aim at: a registered player (whose token the fuzzer uses) and two guests;
    open, private and rated tables, a running match, tournaments in draft and registration,
    and a custom ladder the player has joined."""
    with httpx.Client(base_url=url, timeout=20) as http:
        stamp = str(int(time.time() * 1000) % 10**9)
        body = {"name": f"Fuzzer {stamp}", "password": PASSWORD}
        owner = _ok(http.post("/api/accounts", json=body))
        guests = [_ok(http.post("/api/accounts", json={"name": f"Guest{k} {stamp}"})) for k in "AB"]
        auth = {"authorization": f"Bearer {owner['token']}"}
        other = {"authorization": f"Bearer {guests[0]['token']}"}
        seeded = Seeded(owner["token"])
        players = [owner["account"]["id"], *(g["account"]["id"] for g in guests)]
        lobbies, matches = [], []
        for game in GAMES:
            lobbies.append(
                _ok(http.post("/api/lobbies", json={"game": game, "seats": 2}, headers=auth))["id"]
            )
        private = _ok(
            http.post(
                "/api/lobbies", json={"game": "castles", "seats": 3, "public": False}, headers=other
            )
        )
        lobbies.append(private["id"])
        seeded.invite_codes.append(private["invite_code"])
        rated = _ok(
            http.post(
                "/api/lobbies", json={"game": "rampage", "seats": 2, "rated": True}, headers=auth
            )
        )
        # A rated table seats no server bot: the second seat is the other player's.
        _ok(http.post(f"/api/lobbies/{rated['id']}/join", json={}, headers=other))
        matches.append(
            _ok(http.post(f"/api/lobbies/{rated['id']}/start", headers=auth))["match_id"]
        )
        lobbies.append(rated["id"])
        tournaments = []
        for fmt in ("swiss", "round_robin"):
            created = _ok(
                http.post("/api/tournaments", json={"game": "castles", "format": fmt}, headers=auth)
            )
            tournaments.append(created["id"])
        _ok(http.post(f"/api/tournaments/{tournaments[0]}/open", headers=auth))
        _ok(http.post(f"/api/tournaments/{tournaments[0]}/register", headers=other))
        ladders = [lad["id"] for lad in _ok_list(http.get("/api/ladders"))]
        custom = _ok(
            http.post("/api/ladders", json={"game": "ember", "name": "Fuzz ladder"}, headers=auth)
        )
        ladders.append(custom["id"])
        _ok(http.post(f"/api/ladders/{custom['id']}/join", headers=other))
        seeded.ids = {
            "players": players,
            "lobbies": lobbies,
            "matches": matches,
            "tournaments": tournaments,
            "ladders": ladders,
        }
    return seeded


def _ok_list(reply: httpx.Response) -> list[dict[str, Any]]:
    if reply.status_code != 200:
        raise RuntimeError(f"seeding failed: {reply.request.url} {reply.status_code}")
    data: list[dict[str, Any]] = reply.json()
    return data


def config_text(seeded: Seeded) -> str:
    """A ``schemathesis.toml``: the seeded ids (and game ids, bot kinds, the invite code)
    offered for half the generated values of each parameter, so the deep paths are reached
    while the other half still probes bounds and garbage."""
    lines = []

    def dictionary(name: str, values: list[Any]) -> None:
        lines.extend([f"[dictionaries.{name}]", f"values = {json.dumps(values)}", ""])

    for name, values in seeded.ids.items():
        dictionary(name, values)
    dictionary("games", list(GAMES))
    dictionary("bot_kinds", ["heuristic", "random"])
    dictionary("seats", [0, 1, 2])
    dictionary("invites", seeded.invite_codes)
    bindings = {
        "path.match_id": "matches",
        "path.lobby_id": "lobbies",
        "path.account_id": "players",
        "path.tid": "tournaments",
        "path.ladder_id": "ladders",
        "query.player": "players",
        "query.game": "games",
        "query.seat": "seats",
        "body.game": "games",
        "body.kind": "bot_kinds",
        "body.seat": "seats",
        "body.for_seat": "seats",
        "body.invite_code": "invites",
    }
    lines.append("[parameters]")
    for key, name in bindings.items():
        lines.append(f'"{key}" = {{ dictionary = "{name}", probability = 0.5 }}')
    return "\n".join(lines) + "\n"


def run_schemathesis(
    url: str,
    seeded: Seeded,
    workdir: Path,
    *,
    examples: int,
    workers: int,
    seed_value: int,
    max_time: int | None = None,
) -> Figures:
    """One ``schemathesis run`` (examples, coverage, fuzzing and stateful phases) as the seeded
    player; its HAR log gives every request's status, its JSON report the failures."""
    config = workdir / "schemathesis.toml"
    config.write_text(config_text(seeded))
    har, report = workdir / "requests.har", workdir / "report.json"
    command = [
        str(Path(sys.executable).with_name("schemathesis")),
        "--config-file",
        str(config),
        "--no-color",
        "run",
        f"{url}/openapi.json",
        "--header",
        f"Authorization: Bearer {seeded.token}",
        "--checks",
        ",".join(CHECKS),
        "--max-examples",
        str(examples),
        "--workers",
        str(workers),
        "--seed",
        str(seed_value),
        "--generation-database",
        "none",
        "--suppress-health-check",
        "all",
        "--report",
        "har,json",
        "--report-har-path",
        str(har),
        "--report-json-path",
        str(report),
        "--output-truncate",
        "true",
    ]
    if max_time is not None:  # fuzzing and stateful phases go on until the time is spent
        command += ["--max-time", str(max_time)]
    started = time.monotonic()
    env = {**os.environ, "SCHEMATHESIS_HOOKS": HOOKS, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, cwd=workdir, capture_output=True, text=True, env=env)
    figures = read_reports(har, report)
    figures.seconds = time.monotonic() - started
    if not figures.requests:
        raise RuntimeError(f"schemathesis made no request:\n{done.stdout}\n{done.stderr}")
    if figures.failures:
        figures.examples.append(done.stdout[-6000:])
    return figures


def read_reports(har: Path, report: Path) -> Figures:
    figures = Figures()
    for entry in json.loads(har.read_text())["log"]["entries"]:
        status = int(entry["response"]["status"])
        figures.requests += 1
        figures.statuses[status] += 1
        path = urlsplit(entry["request"]["url"]).path
        if 200 <= status < 300 and any(part.isdigit() for part in path.split("/")):
            figures.deep_ok += 1
    data = json.loads(report.read_text())
    figures.tool_errors = int((data.get("test_cases") or {}).get("errored") or 0)
    # The run report lists each kind of failure once, with its count and its operations.
    for failure in data.get("failures") or []:
        title = f"{failure['code']} {failure['title']}"
        figures.failures[title] += int(failure.get("count", 1))
        figures.failing_operations.update(failure.get("operations") or [])
    return figures


def fuzz(
    *,
    url: str | None = None,
    database_url: str | None = None,
    examples: int = 50,
    workers: int = 2,
    seed_value: int = 20,
    max_time: int | None = None,
) -> Figures:
    """Seed, fuzz and count; with no ``url``, on a fresh server whose log is scanned for
    tracebacks afterwards."""
    with tempfile.TemporaryDirectory(prefix="rampart-fuzz-") as folder:
        workdir = Path(folder)
        with contextlib.ExitStack() as stack:
            target = url or stack.enter_context(server_running(workdir, database_url))
            seeded = seed(target)
            figures = run_schemathesis(
                target,
                seeded,
                workdir,
                examples=examples,
                workers=workers,
                seed_value=seed_value,
                max_time=max_time,
            )
        if url is None:
            log = (workdir / "server.log").read_text(errors="replace")
            figures.tracebacks = log.count("Traceback (most recent call last)")
            if figures.tracebacks:
                figures.examples.append(log[-6000:])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="fuzz a server already running (default: start one)")
    parser.add_argument(
        "--database-url",
        help="the started server's database (e.g. $RAMPART_TEST_PG_URL under "
        "scripts/with-postgres.sh; default: a fresh SQLite file)",
    )
    parser.add_argument("--examples", type=int, default=100, help="test cases per route")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-time", type=int, help="seconds to keep fuzzing (full size: 600)")
    parser.add_argument("--seed", type=int, default=20)
    args = parser.parse_args()
    figures = fuzz(
        url=args.url,
        database_url=args.database_url,
        examples=args.examples,
        workers=args.workers,
        seed_value=args.seed,
        max_time=args.max_time,
    )
    for text in figures.examples:
        print(text, file=sys.stderr)
    print(json.dumps(figures.as_json()))
    sys.exit(0 if figures.ok else 1)


if __name__ == "__main__":
    main()
