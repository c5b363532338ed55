"""The servers under test: a real ``python -m app`` on a fresh database, or the bare echo relay."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from app.__main__ import serve_command
from bench.loadgen.probes import free_port

ROOT = Path(__file__).resolve().parents[2]
LOAD_SCRIPT = ROOT / "bench" / "load.py"


@contextlib.contextmanager
def rampart_running(
    port: int,
    database_url: str | None,
    extra_env: dict[str, str] | None = None,
    root: Path = ROOT,
) -> Iterator[subprocess.Popen[bytes]]:
    """``python -m app`` on 127.0.0.1:``port`` for the ``with`` block (default database: SQLite
    in a fresh temporary folder, which also holds ``server.log``). Stopped at the block's end;
    the folder is removed after a clean run and kept, with its log named on stderr, after a
    failure. ``root``: the folder it runs from, whose ``app`` it imports (the working folder
    comes first on ``sys.path``): a git worktree of another commit serves that commit's code."""
    workdir = Path(tempfile.mkdtemp(prefix="rampart-load-"))
    env = {
        **os.environ,
        "RAMPART_BENCH_GAMES": "1",
        "DATABASE_URL": database_url or f"sqlite+aiosqlite:///{workdir}/rampart.db",
        # Bench clients never answer slowly enough to be cut off; floods are the point.
        "RAMPART_RATE_PER_S": "1000",
        "RAMPART_RATE_BURST": "1000",
        # Every bench client speaks from 127.0.0.1, as real players do not: no limit per
        # client address (a run opens thousands of accounts, tables and sockets).
        "RAMPART_ACCOUNT_ADDRESS_LIMIT": "",
        "RAMPART_TABLE_ADDRESS_LIMIT": "",
        "RAMPART_READ_ADDRESS_LIMIT": "",
        "RAMPART_SOCKETS_PER_ADDRESS": "0",
        # Thousands of sockets open at once: a hello may wait its turn longer than a player's.
        "RAMPART_HELLO_TIMEOUT_S": "30",
        **(extra_env or {}),
    }
    clean = False
    with open(workdir / "server.log", "wb") as log:
        process = subprocess.Popen(
            serve_command(port), cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        try:
            yield process
            clean = True
        except BaseException:
            print(f"server log kept in {workdir / 'server.log'}", file=sys.stderr)
            raise
        finally:
            _stop(process)
    if clean:
        shutil.rmtree(workdir, ignore_errors=True)


@contextlib.contextmanager
def cluster_running(
    ports: list[int], database_url: str | None, root: Path = ROOT
) -> Iterator[tuple[list[subprocess.Popen[bytes]], str]]:
    """One server process per port, all on one database (default: one fresh SQLite file)
    and one throwaway ``redis-server`` (``app/cluster``), for the ``with`` block; yields the
    processes and the Redis URL."""
    workdir = Path(tempfile.mkdtemp(prefix="rampart-cluster-"))
    database_url = database_url or f"sqlite+aiosqlite:///{workdir}/rampart.db"
    try:
        with redis_running(workdir) as redis_url, contextlib.ExitStack() as stack:
            processes = []
            for port in ports:
                env = {
                    "RAMPART_REDIS_URL": redis_url,
                    "RAMPART_NODE_URL": f"http://127.0.0.1:{port}",
                }
                server = rampart_running(port, database_url, env, root)
                processes.append(stack.enter_context(server))
            yield processes, redis_url
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


@contextlib.contextmanager
def redis_running(folder: Path, timeout_s: float = 10) -> Iterator[str]:
    """A throwaway ``redis-server`` (no persistence) on a free port for the ``with`` block;
    yields its URL once it accepts connections."""
    port = free_port()
    command = ["redis-server", "--bind", "127.0.0.1", "--port", str(port)]
    command += ["--save", "", "--appendonly", "no", "--dir", str(folder)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + timeout_s
        while not _listening(port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start on port {port}")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        _stop(process)


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@contextlib.contextmanager
def echo_running(port: int) -> Iterator[subprocess.Popen[bytes]]:
    """The echo relay (``bench/load.py --serve-echo``) on 127.0.0.1:``port`` for the block."""
    process = subprocess.Popen(
        [sys.executable, str(LOAD_SCRIPT), "--serve-echo", "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield process
    finally:
        _stop(process)


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    process.wait(10)


def serve_echo(port: int) -> None:
    """The ceiling: a websocket relay on the same stack, keeping only ``n`` and ``turn``."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    rooms: dict[str, dict[str, Any]] = {}

    async def relay(ws: WebSocket) -> None:
        await ws.accept()
        room = rooms.setdefault(ws.path_params["room"], {"n": 0, "turn": 0, "sockets": []})
        seat = len(room["sockets"])
        room["sockets"].append(ws)
        await ws.send_text(
            json.dumps(
                {
                    "type": "welcome",
                    "seat": seat,
                    "version": 0,
                    "view": {"n": 0, "turn": 0},
                    "legal": [],
                }
            )
        )
        try:
            while True:
                message = json.loads(await ws.receive_text())
                if message.get("type") != "action":
                    continue
                room["n"] += 1
                room["turn"] = (room["turn"] + 1) % 4
                await ws.send_text(
                    json.dumps(
                        {"type": "ack", "client_seq": message["client_seq"], "version": room["n"]}
                    )
                )
                patch = json.dumps(
                    {
                        "type": "patch",
                        "version": room["n"],
                        "events": [],
                        "view": {"n": room["n"], "turn": room["turn"]},
                    }
                )
                for other in room["sockets"]:
                    await other.send_text(patch)
        except WebSocketDisconnect:
            pass

    async def ok(_request: Any) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    app = Starlette(routes=[Route("/api/health", ok), WebSocketRoute("/echo/{room}", relay)])
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws_per_message_deflate=False)


async def wait_up(base: str, process: subprocess.Popen[bytes]) -> None:
    """Poll ``/api/health`` for up to 30 s; SystemExit if the process exits or never answers."""
    async with httpx.AsyncClient(base_url=base, timeout=1) as http:
        for _ in range(300):
            if process.poll() is not None:
                raise SystemExit(f"server exited with {process.returncode}")
            try:
                if (await http.get("/api/health")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)
    raise SystemExit("server did not come up")
